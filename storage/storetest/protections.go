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

func testBranchProtections(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	_, r, other := newUserRepos(t, b, "pam", "prot", "other")
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	rules := []*repos.BranchProtection{
		{RepoID: r.ID, RuleName: "release/*", StatusCheckContexts: []string{"ci"}, Created: at, Updated: at},
		{RepoID: r.ID, RuleName: "main", EnablePush: true, Created: at, Updated: at},
	}
	for _, p := range rules {
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateProtection(ctx, p) })
		require.NotZero(t, p.ID)
	}
	repoUpdate(t, s, func(tx repos.Tx) error {
		return tx.CreateProtection(ctx, &repos.BranchProtection{RepoID: other.ID, RuleName: "main", Created: at, Updated: at})
	})
	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateProtection(ctx, &repos.BranchProtection{RepoID: 9999, RuleName: "main", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a rule needs an existing repository")

	// Renaming a rule onto another rule's name conflicts.
	err = s.Update(ctx, func(tx repos.Tx) error {
		p := *rules[0]
		p.RuleName = "main"
		return tx.UpdateProtection(ctx, &p)
	})
	assert.ErrorIs(t, err, forge.ErrConflict)
	err = s.Update(ctx, func(tx repos.Tx) error {
		return tx.UpdateProtection(ctx, &repos.BranchProtection{ID: 9999, RepoID: r.ID, RuleName: "x", Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound)
	rules[0].RuleName, rules[0].RequiredApprovals, rules[0].Updated = "rel/*", 1, at.Add(time.Hour)
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateProtection(ctx, rules[0]) })

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, err := tx.ListProtections(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, rules, list, "by creation, as updated")
		list[0].StatusCheckContexts[0] = "mutated"
		got, err := tx.Protection(ctx, r.ID, "rel/*")
		require.NoError(t, err)
		assert.Equal(t, []string{"ci"}, got.StatusCheckContexts, "returned rules are copies")
		_, err = tx.Protection(ctx, r.ID, "release/*")
		assert.ErrorIs(t, err, forge.ErrNotFound, "the old name is gone")
		list, err = tx.ListProtections(ctx, 9999)
		require.NoError(t, err)
		assert.NotNil(t, list)
		assert.Empty(t, list)
		return nil
	}))

	wantDeleteOnce(t, s, func(ctx context.Context, tx repos.Tx) error { return tx.DeleteProtection(ctx, r.ID, "main") })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, err := tx.ListProtections(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, []*repos.BranchProtection{rules[0]}, list)
		_, err = tx.Protection(ctx, other.ID, "main")
		assert.NoError(t, err, "another repository's rule of that name stays")
		return nil
	}))

	// User whitelists are stored as ids, in order, without the names (the
	// service's view); a deleted user leaves them.
	ida := newUser(t, b, "ida")
	ivo := newUser(t, b, "ivo")
	wl := &repos.BranchProtection{RepoID: r.ID, RuleName: "wl", PushWhitelistUserIDs: []forge.ID{ivo.ID, ida.ID},
		PushWhitelistUsernames: []string{"ivo", "ida"}, MergeWhitelistUserIDs: []forge.ID{ida.ID},
		ApprovalsWhitelistUserIDs: []forge.ID{ivo.ID}, Created: at, Updated: at}
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateProtection(ctx, wl) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.Protection(ctx, r.ID, "wl")
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{ivo.ID, ida.ID}, got.PushWhitelistUserIDs)
		assert.Equal(t, []forge.ID{ida.ID}, got.MergeWhitelistUserIDs)
		assert.Equal(t, []forge.ID{ivo.ID}, got.ApprovalsWhitelistUserIDs)
		assert.Nil(t, got.PushWhitelistUsernames, "names are not stored")
		return nil
	}))
	wl.PushWhitelistUserIDs, wl.MergeWhitelistUserIDs = []forge.ID{ida.ID}, nil
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateProtection(ctx, wl) })
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, ivo.ID) }))
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.Protection(ctx, r.ID, "wl")
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{ida.ID}, got.PushWhitelistUserIDs, "an update replaces the ids")
		assert.Empty(t, got.MergeWhitelistUserIDs)
		assert.Empty(t, got.ApprovalsWhitelistUserIDs, "a deleted user leaves the whitelists")
		return nil
	}))
}

func testTagProtections(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner, r, other := newUserRepos(t, b, "tess", "tags", "other")
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	tom := newUser(t, b, "tom")
	p1 := &repos.TagProtection{RepoID: r.ID, NamePattern: "v*", WhitelistUserIDs: []forge.ID{owner.ID, tom.ID},
		WhitelistUsernames: []string{"tess", "tom"}, Created: at, Updated: at}
	p2 := &repos.TagProtection{RepoID: r.ID, NamePattern: `/^rc\d+$/`, Created: at, Updated: at}
	for _, p := range []*repos.TagProtection{p1, p2} {
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateTagProtection(ctx, p) })
		require.NotZero(t, p.ID)
	}
	err := s.Update(ctx, func(tx repos.Tx) error {
		return tx.CreateTagProtection(ctx, &repos.TagProtection{RepoID: 9999, NamePattern: "*", Created: at, Updated: at})
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "a rule needs an existing repository")
	// Lists come back empty, never nil; names are not stored (the
	// service's view of the ids).
	p2.WhitelistUserIDs, p2.WhitelistTeams = []forge.ID{}, []string{}
	p1.WhitelistTeams, p1.WhitelistUsernames, p2.WhitelistUsernames = []string{}, nil, nil

	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.TagProtection(ctx, r.ID, p1.ID)
		require.NoError(t, err)
		assert.Equal(t, p1, got)
		_, err = tx.TagProtection(ctx, other.ID, p1.ID)
		assert.ErrorIs(t, err, forge.ErrNotFound, "rules are found through their repository")
		list, err := tx.ListTagProtections(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, []*repos.TagProtection{p1, p2}, list, "by id")
		return nil
	}))

	p1.NamePattern, p1.WhitelistTeams, p1.Updated = "v1.*", []string{"core"}, at.Add(time.Hour)
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.UpdateTagProtection(ctx, p1) })
	err = s.Update(ctx, func(tx repos.Tx) error {
		p := *p2
		p.RepoID = other.ID
		return tx.UpdateTagProtection(ctx, &p)
	})
	assert.ErrorIs(t, err, forge.ErrNotFound, "an update names the rule's repository")
	err = s.Update(ctx, func(tx repos.Tx) error { return tx.DeleteTagProtection(ctx, other.ID, p2.ID) })
	assert.ErrorIs(t, err, forge.ErrNotFound)
	wantDeleteOnce(t, s, func(ctx context.Context, tx repos.Tx) error { return tx.DeleteTagProtection(ctx, r.ID, p2.ID) })
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, err := tx.ListTagProtections(ctx, r.ID)
		require.NoError(t, err)
		assert.Equal(t, []*repos.TagProtection{p1}, list)
		return nil
	}))
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, tom.ID) }))
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.TagProtection(ctx, r.ID, p1.ID)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{owner.ID}, got.WhitelistUserIDs, "a deleted user leaves the whitelist")
		return nil
	}))

	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) })
	wantNotFound(t, s, func(ctx context.Context, tx repos.Tx) error { _, err := tx.TagProtection(ctx, r.ID, p1.ID); return err }, "deleting a repository deletes its tag rules")
}
