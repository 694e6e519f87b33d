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

// testRepoStatus: repositories being created or deleted are neither listed
// nor counted unless RepoFilter.AnyStatus, and are still found by ID and
// name (the domain decides what they mean).
func testRepoStatus(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner, ready, creating := newUserRepos(t, b, "stan", "ready", "creating")
	deleting := newRepo(t, b, owner, "deleting")
	repoUpdate(t, s, func(tx repos.Tx) error {
		for r, st := range map[*forge.Repository]forge.RepoStatus{creating: forge.RepoCreating, deleting: forge.RepoDeleting} {
			r.Status = st
			if err := tx.UpdateRepo(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		list, total, err := tx.ListRepos(ctx, repos.RepoFilter{AllVisible: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 1, total, "only ready repositories are counted")
		assert.Equal(t, []forge.ID{ready.ID}, repoIDs(list))
		list, total, err = tx.ListRepos(ctx, repos.RepoFilter{AllVisible: true, AnyStatus: true}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.EqualValues(t, 3, total)
		assert.Equal(t, []forge.ID{ready.ID, creating.ID, deleting.ID}, repoIDs(list))
		got, err := tx.RepoByName(ctx, owner.ID, "creating")
		require.NoError(t, err)
		assert.Equal(t, forge.RepoCreating, got.Status)
		got, err = tx.RepoByID(ctx, deleting.ID)
		require.NoError(t, err)
		assert.Equal(t, forge.RepoDeleting, got.Status)
		return nil
	}))
}

// testRepoSearch: Keyword's comma-separated words match names or topics
// (and descriptions with IncludeDesc), ignoring case; with Topic a word
// must equal a topic. Topics are stored as rows: each once, sorted.
func testRepoSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner := newUser(t, b, "sally")
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	mk := func(name, desc string, topics ...string) *forge.Repository {
		r := &forge.Repository{OwnerID: owner.ID, Name: name, Description: desc, DefaultBranch: "main",
			ObjectFormat: forge.SHA1, Topics: topics, Created: at, Updated: at}
		repoUpdate(t, s, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) })
		return r
	}
	lib := mk("golib", "A Library", "web", "go", "web")
	tool := mk("Tooling", "builds things", "cli", "golang")
	docs := mk("docs", "the handbook")
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		got, err := tx.RepoByID(ctx, lib.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"go", "web"}, got.Topics, "topics are rows: each once, in order")
		got, err = tx.RepoByID(ctx, docs.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{}, got.Topics, "no topics is an empty list")
		return nil
	}))
	for _, c := range []struct {
		name string
		f    repos.RepoFilter
		want []forge.ID
	}{
		{"name, ignoring case", repos.RepoFilter{Keyword: "TOOL"}, []forge.ID{tool.ID}},
		{"topic substring", repos.RepoFilter{Keyword: "we"}, []forge.ID{lib.ID}},
		{"name or topic", repos.RepoFilter{Keyword: "go"}, []forge.ID{lib.ID, tool.ID}},
		{"comma-separated words", repos.RepoFilter{Keyword: "docs, cli"}, []forge.ID{tool.ID, docs.ID}},
		{"empty words are ignored", repos.RepoFilter{Keyword: " ,docs,"}, []forge.ID{docs.ID}},
		{"only commas: no filter", repos.RepoFilter{Keyword: ","}, []forge.ID{lib.ID, tool.ID, docs.ID}},
		{"description not searched", repos.RepoFilter{Keyword: "handbook"}, []forge.ID{}},
		{"description with IncludeDesc", repos.RepoFilter{Keyword: "HANDBOOK,library", IncludeDesc: true}, []forge.ID{lib.ID, docs.ID}},
		{"topic: exact", repos.RepoFilter{Keyword: "go", Topic: true}, []forge.ID{lib.ID}},
		{"topic: ignoring case", repos.RepoFilter{Keyword: "GoLang", Topic: true}, []forge.ID{tool.ID}},
		{"topic: several", repos.RepoFilter{Keyword: "go,cli", Topic: true}, []forge.ID{lib.ID, tool.ID}},
		{"topic: no substring", repos.RepoFilter{Keyword: "we", Topic: true}, []forge.ID{}},
		{"topic: names do not count", repos.RepoFilter{Keyword: "docs", Topic: true}, []forge.ID{}},
		{"wildcards are literal", repos.RepoFilter{Keyword: "g_lib"}, []forge.ID{}},
	} {
		c.f.AllVisible = true
		require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
			list, total, err := tx.ListRepos(ctx, c.f, forge.ListOptions{Page: 1, Limit: 10})
			wantPage(t, c.name, c.want, repoIDs, list, total, err)
			return nil
		}))
	}
}

// testBatchReads: the reads by many ids return the existing rows by id,
// leave missing ids out, and answer an empty map (never nil) for none.
func testBatchReads(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	ann, r1, r2 := newUserRepos(t, b, "bann", "one", "two")
	bob, r3 := newUserRepo(t, b, "bbob", "three")
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	repoUpdate(t, s, func(tx repos.Tx) error {
		if err := tx.SetCollaborator(ctx, r1.ID, bob.ID, forge.AccessModeWrite); err != nil {
			return err
		}
		if err := tx.SetCollaborator(ctx, r2.ID, bob.ID, forge.AccessModeAdmin); err != nil {
			return err
		}
		if err := tx.SetCollaborator(ctx, r3.ID, ann.ID, forge.AccessModeRead); err != nil {
			return err
		}
		return tx.SetTransfer(ctx, &repos.Transfer{RepoID: r2.ID, Doer: ann, Recipient: bob, Created: at})
	})
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		users, err := tx.UsersByID(ctx, []forge.ID{bob.ID, 9999, ann.ID, bob.ID})
		require.NoError(t, err)
		require.Len(t, users, 2)
		assert.Equal(t, "bann", users[ann.ID].Name)
		assert.Equal(t, "bbob", users[bob.ID].Name)
		one, err := tx.UserByID(ctx, ann.ID)
		require.NoError(t, err)
		assert.Equal(t, one, users[ann.ID], "the same user as UserByID")

		rs, err := tx.ReposByID(ctx, []forge.ID{r3.ID, r1.ID, 9999})
		require.NoError(t, err)
		require.Len(t, rs, 2)
		assert.Equal(t, r1, rs[r1.ID], "round trip of every field")
		assert.Equal(t, r3, rs[r3.ID])

		modes, err := tx.CollaboratorModes(ctx, bob.ID, []forge.ID{r1.ID, r2.ID, r3.ID, 9999})
		require.NoError(t, err)
		assert.Equal(t, map[forge.ID]forge.AccessMode{r1.ID: forge.AccessModeWrite, r2.ID: forge.AccessModeAdmin}, modes)

		trs, err := tx.Transfers(ctx, []forge.ID{r1.ID, r2.ID, 9999})
		require.NoError(t, err)
		require.Len(t, trs, 1)
		tr := trs[r2.ID]
		require.NotNil(t, tr)
		assert.Equal(t, r2.ID, tr.RepoID)
		assert.Equal(t, ann.ID, tr.Doer.ID)
		assert.Equal(t, bob.ID, tr.Recipient.ID)
		assert.Equal(t, at, tr.Created)

		for name, n := range map[string]func() (int, error){
			"users":        func() (int, error) { m, err := tx.UsersByID(ctx, nil); return lenOr(m, err) },
			"repositories": func() (int, error) { m, err := tx.ReposByID(ctx, []forge.ID{}); return lenOr(m, err) },
			"modes":        func() (int, error) { m, err := tx.CollaboratorModes(ctx, bob.ID, nil); return lenOr(m, err) },
			"transfers":    func() (int, error) { m, err := tx.Transfers(ctx, nil); return lenOr(m, err) },
		} {
			got, err := n()
			require.NoError(t, err, name)
			assert.Zero(t, got, name)
		}
		return nil
	}))
}

// lenOr is len(m), -1 for a nil map.
func lenOr[K comparable, V any](m map[K]V, err error) (int, error) {
	if m == nil {
		return -1, err
	}
	return len(m), err
}

// testUserDeletionCounters: deleting a user takes their stars and watches,
// and the counters of the repositories they starred or watched follow.
func testUserDeletionCounters(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	_, r1, r2 := newUserRepos(t, b, "cora", "liked", "watched")
	fan := newUser(t, b, "fan")
	other := newUser(t, b, "other")
	at := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	repoUpdate(t, s, func(tx repos.Tx) error {
		for _, u := range []*forge.User{fan, other} {
			if err := tx.SetStar(ctx, r1.ID, u.ID, true, at); err != nil {
				return err
			}
			if err := tx.SetWatch(ctx, r2.ID, u.ID, repos.WatchNormal, at); err != nil {
				return err
			}
		}
		return tx.SetWatch(ctx, r1.ID, fan.ID, repos.WatchAuto, at)
	})
	counts := func() [3]int {
		var c [3]int
		require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
			a, err := tx.RepoByID(ctx, r1.ID)
			require.NoError(t, err)
			bb, err := tx.RepoByID(ctx, r2.ID)
			require.NoError(t, err)
			c = [3]int{a.NumStars, a.NumWatches, bb.NumWatches}
			return nil
		}))
		return c
	}
	require.Equal(t, [3]int{2, 1, 2}, counts())
	require.NoError(t, b.Auth().Update(ctx, func(tx auth.Tx) error { return tx.DeleteUser(ctx, fan.ID) }))
	assert.Equal(t, [3]int{1, 0, 1}, counts(), "the deleted user's stars and watches no longer count")
}

// testDefaultVisibility: a user written with no visibility is stored with
// the default, public, so that ListRepos' filter and repos.Permission read
// the same value.
func testDefaultVisibility(t *testing.T, b Backend) {
	ctx := context.Background()
	u := newUser(t, b, "vera", func(u *forge.User) { u.Visibility = "" })
	assert.Equal(t, forge.VisibilityPublic, u.Visibility, "the caller's copy is what is stored")
	read := func() *forge.User {
		var got *forge.User
		require.NoError(t, b.Auth().View(ctx, func(tx auth.Tx) error {
			var err error
			got, err = tx.UserByID(ctx, u.ID)
			return err
		}))
		return got
	}
	assert.Equal(t, forge.VisibilityPublic, read().Visibility)
	u.Visibility = ""
	update(t, b.Auth(), func(tx auth.Tx) error { return tx.UpdateUser(ctx, u) })
	assert.Equal(t, forge.VisibilityPublic, read().Visibility, "updates too")
	r := newRepo(t, b, u, "open")
	require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
		list, _, err := tx.ListRepos(ctx, repos.RepoFilter{}, forge.ListOptions{Page: 1, Limit: 10})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{r.ID}, repoIDs(list), "anonymous actors see it, as repos.Permission says")
		return nil
	}))
}
