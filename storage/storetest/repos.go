package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func testRepos(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann := newUser(t, b, "ann")
	ben := newUser(t, b, "ben", func(u *forge.User) { u.Visibility = forge.VisibilityLimited })
	at := time.Date(2024, 6, 7, 8, 9, 10, 0, time.UTC)
	mk := func(owner *forge.User, name string, private bool) *forge.Repository {
		r := &forge.Repository{OwnerID: owner.ID, Name: name, Private: private, DefaultBranch: "main",
			ObjectFormat: forge.SHA256, Empty: true, HasIssues: true, DefaultMergeStyle: "merge",
			InternalTracker: &forge.InternalTracker{EnableTimeTracker: true},
			Topics:          []string{"go"}, Created: at, Updated: at}
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) })
		require.NotZero(t, r.ID)
		return r
	}
	pub := mk(ann, "Tools", false)
	priv := mk(ann, "secret", true)
	mk(ben, "lim", false)

	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateRepo(ctx, &forge.Repository{OwnerID: ann.ID, Name: "TOOLS", DefaultBranch: "main", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "names are unique per owner, ignoring case")

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByName(ctx, ann.ID, "tools")
		require.NoError(t, err)
		assert.Equal(t, pub, got, "round trip of every field")
		_, err = tx.RepoByName(ctx, ben.ID, "tools")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		_, err = tx.RepoByID(ctx, 999)
		assert.ErrorIs(t, err, forge.ErrNotFound)

		list, total, err := tx.ListRepos(ctx, repos.RepoFilter{}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total, "anonymous: public repositories of public owners")
		assert.Equal(t, pub.ID, list[0].ID)
		_, total, _ = tx.ListRepos(ctx, repos.RepoFilter{VisibleTo: ann.ID}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 3, total, "signed in: limited owners too, and one's own private repositories")
		_, total, _ = tx.ListRepos(ctx, repos.RepoFilter{AllVisible: true, Keyword: "SEC"}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total)
		_, total, _ = tx.ListRepos(ctx, repos.RepoFilter{AllVisible: true, Keyword: "%"}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 0, total, "LIKE wildcards in keywords are literal")
		return nil
	}))

	// Collaborators make private repositories visible and count.
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetCollaborator(ctx, priv.ID, ben.ID, forge.AccessModeWrite) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		m, err := tx.CollaboratorMode(ctx, priv.ID, ben.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.AccessModeWrite, m)
		m, err = tx.CollaboratorMode(ctx, pub.ID, ben.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.AccessNone, m)
		_, total, _ := tx.ListRepos(ctx, repos.RepoFilter{CollaboratorOf: ben.ID, VisibleTo: ben.ID}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 2, total, "ben's own and the one he collaborates on")
		list, n, err := tx.ListCollaborators(ctx, priv.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.Equal(t, "ben", list[0].User.Name)
		return nil
	}))

	// Watches and stars keep the counters.
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.SetWatch(ctx, pub.ID, ben.ID, repos.WatchNormal, at); err != nil {
			return err
		}
		if err := tx.SetWatch(ctx, pub.ID, ann.ID, repos.WatchDont, at); err != nil {
			return err
		}
		return tx.SetStar(ctx, pub.ID, ben.ID, true, at)
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		r, err := tx.RepoByID(ctx, pub.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, r.NumWatches, "dont is not watching")
		assert.Equal(t, 1, r.NumStars)
		m, when, err := tx.Watch(ctx, pub.ID, ben.ID)
		require.NoError(t, err)
		assert.Equal(t, repos.WatchNormal, m)
		assert.Equal(t, at, when)
		users, n, err := tx.ListStargazers(ctx, pub.ID, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.Equal(t, "ben", users[0].Name)
		ok, _ := tx.IsStarred(ctx, pub.ID, ann.ID)
		assert.False(t, ok)
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetStar(ctx, pub.ID, ben.ID, false, at) })

	// Branch protection rules.
	p := &repos.BranchProtection{RepoID: pub.ID, RuleName: "main", RequiredApprovals: 2, IgnoreStaleApprovals: true,
		PushWhitelistUserIDs: []forge.ID{ann.ID}, Created: at, Updated: at}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateProtection(ctx, p) })
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateProtection(ctx, &repos.BranchProtection{RepoID: pub.ID, RuleName: "main", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	p.DismissStaleApprovals = true
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateProtection(ctx, p) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.Protection(ctx, pub.ID, "main")
		require.NoError(t, err)
		assert.Equal(t, p, got)
		_, err = tx.Protection(ctx, pub.ID, "dev")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	// Commit statuses: filters, order, paging.
	for i, state := range []repos.StatusState{repos.StatusPending, repos.StatusSuccess, repos.StatusFailure} {
		st := &repos.CommitStatus{RepoID: pub.ID, SHA: "abc", State: state, Context: "ci", CreatorID: ann.ID,
			Created: at.Add(time.Duration(i) * time.Minute), Updated: at}
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateStatus(ctx, st) })
		require.NotZero(t, st.ID)
	}
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, total, err := tx.ListStatuses(ctx, pub.ID, "abc", repos.StatusFilter{}, forge.ListOptions{Page: 1, Limit: 2})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		assert.Equal(t, repos.StatusFailure, list[0].State, "newest first")
		list, _, _ = tx.ListStatuses(ctx, pub.ID, "abc", repos.StatusFilter{Sort: "oldest"}, forge.ListOptions{Page: 1, Limit: 10})
		assert.Equal(t, repos.StatusPending, list[0].State)
		assert.Equal(t, at, list[0].Created)
		_, total, _ = tx.ListStatuses(ctx, pub.ID, "abc", repos.StatusFilter{State: repos.StatusSuccess}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 1, total)
		_, total, _ = tx.ListStatuses(ctx, pub.ID, "other", repos.StatusFilter{}, forge.ListOptions{Page: 1, Limit: 10})
		assert.EqualValues(t, 0, total)
		return nil
	}))

	// Releases and their attachments.
	rel := &repos.Release{RepoID: pub.ID, AuthorID: ann.ID, TagName: "V1", Target: "main", Name: "one", Created: at}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateRelease(ctx, rel) })
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateRelease(ctx, &repos.Release{RepoID: pub.ID, TagName: "v1", Target: "main", Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrConflict, "one release per tag, ignoring case")
	draft := &repos.Release{RepoID: pub.ID, AuthorID: ann.ID, TagName: "v2", Target: "main", Draft: true, Created: at.Add(time.Hour)}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateRelease(ctx, draft) })
	att := &repos.Attachment{UUID: "u-1", RepoID: pub.ID, ReleaseID: rel.ID, UploaderID: ann.ID, Name: "a.bin", Size: 3, Created: at}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateAttachment(ctx, att) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.ReleaseByTag(ctx, pub.ID, "v1")
		require.NoError(t, err)
		assert.Equal(t, rel, got)
		list, total, err := tx.ListReleases(ctx, pub.ID, repos.ReleaseFilter{}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total, "drafts are hidden unless asked")
		assert.Equal(t, rel.ID, list[0].ID)
		list, _, _ = tx.ListReleases(ctx, pub.ID, repos.ReleaseFilter{IncludeDrafts: true}, forge.ListOptions{Page: 1, Limit: 10})
		assert.Equal(t, []forge.ID{draft.ID, rel.ID}, []forge.ID{list[0].ID, list[1].ID}, "newest first")
		a, err := tx.AttachmentByUUID(ctx, "u-1")
		require.NoError(t, err)
		assert.Equal(t, att, a)
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRelease(ctx, rel.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.Attachment(ctx, att.ID); return err }, "attachments go with their release")

	// Owners cannot be deleted while they own repositories; repositories
	// take what hangs on them when deleted.
	err = b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, ben.ID) })
	assert.ErrorIs(t, err, forge.ErrPrecondition)
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, pub.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.Protection(ctx, pub.ID, "main"); return err })
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, pub.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)

}

// testRepoLifecycle covers what a repository goes through after creation:
// edits and renames, forks and their counter, pending transfers, and the
// user lookups repos.Tx offers.
func testRepoLifecycle(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann, r, taken := newUserRepos(t, b, "Anna", "orig", "Taken")
	bob := newUser(t, b, "bobo")

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		checkUserReads(t, tx, ann, bob)
		return nil
	}))

	// UpdateRepo writes every field; names stay unique per owner.
	edited := *r
	edited.Name, edited.Description, edited.Private, edited.Archived = "Renamed", "d", true, true
	edited.ArchivedAt, edited.Updated = r.Created.Add(time.Hour), r.Created.Add(time.Hour)
	edited.Topics, edited.ExternalWiki = []string{"x", "y"}, &forge.ExternalWiki{URL: "https://wiki.example"}
	repoUpdate(t, s, func(tx repos.Tx) error { e := edited; return tx.UpdateRepo(ctx, &e) })
	err := s.Update(ctx, func(tx repos.Tx) error { e := edited; e.Name = "TAKEN"; return tx.UpdateRepo(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx repos.Tx) error { e := edited; e.ID = 9999; e.Name = "ghost"; return tx.UpdateRepo(ctx, &e) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByName(ctx, ann.ID, "renamed")
		require.NoError(t, err)
		assert.Equal(t, &edited, got)
		_, err = tx.RepoByName(ctx, ann.ID, "orig")
		assert.ErrorIs(t, err, forge.ErrNotFound)
		return nil
	}))

	// Forks: ForkOf lists them, RecountForks keeps the counter.
	var forks []*forge.Repository
	for _, owner := range []*forge.User{bob, ann} {
		f := &forge.Repository{OwnerID: owner.ID, Name: "fork", ForkID: r.ID, DefaultBranch: "main",
			Topics: []string{}, Created: r.Created, Updated: r.Created}
		repoUpdate(t, s, func(tx repos.Tx) error {
			if err := tx.CreateRepo(ctx, f); err != nil {
				return err
			}
			return tx.RecountForks(ctx, r.ID)
		})
		forks = append(forks, f)
	}
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, got.NumForks)
		list, total, err := tx.ListRepos(ctx, repos.RepoFilter{ForkOf: r.ID, AllVisible: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 2, total)
		assert.Equal(t, []forge.ID{forks[0].ID, forks[1].ID}, repoIDs(list))
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.DeleteRepo(ctx, forks[0].ID); err != nil {
			return err
		}
		return tx.RecountForks(ctx, r.ID)
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, got.NumForks)
		return nil
	}))

	// Pending transfers: one per repository, replaced by the next.
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.Transfer(ctx, r.ID); return err })
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: ann, Recipient: bob, Created: at})
	})
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r.ID, Doer: bob, Recipient: ann, Created: at.Add(time.Hour)})
	})
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: 9999, Doer: ann, Recipient: bob, Created: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a transfer needs an existing repository")
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		tr, err := tx.Transfer(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, r.ID, tr.RepoID)
		assert.Equal(t, bob.ID, tr.Doer.ID)
		assert.Equal(t, ann.ID, tr.Recipient.ID)
		assert.Equal(t, at.Add(time.Hour), tr.Created)
		return nil
	}))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteTransfer(ctx, r.ID) })
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteTransfer(ctx, r.ID) }) // none: no error
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.Transfer(ctx, r.ID); return err })
	// A transfer goes with its recipient.
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: taken.ID, Doer: ann, Recipient: bob, Created: at})
	})
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, forks[1].ID) })
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, bob.ID) }))
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.Transfer(ctx, taken.ID); return err }, "deleting a user deletes the transfers to it")
}

func repoIDs(list []*forge.Repository) []forge.ID {
	return pluck(list, func(r *forge.Repository) forge.ID { return r.ID })
}
