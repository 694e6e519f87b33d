package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// testRepoFlagsAndTopics covers repository flags (replaced, listed by
// name, gone with their repository, none for a missing repository) and
// topic search (counts over repositories, keyword ignoring case, most
// used first then oldest, paging, topics no repository has any more left
// out, created and updated times).
func testRepoFlagsAndTopics(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	owner := createUser(t, b.Auth(), forgetest.User("flora"))
	r1 := newRepo(t, b, owner, "one")
	r2 := newRepo(t, b, owner, "two")
	r3 := newRepo(t, b, owner, "three")

	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetRepoFlags(ctx, r1.ID, []string{"zeta", "alpha"}) })
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetRepoFlags(ctx, r2.ID, []string{"beta"}) })
	flags := func(id forge.ID) []string {
		var out []string
		require.NoError(t, s.View(ctx, func(tx repos.Tx) (err error) { out, err = tx.RepoFlags(ctx, id); return err }))
		return out
	}
	assert.Equal(t, []string{"alpha", "zeta"}, flags(r1.ID))
	assert.Equal(t, []string{"beta"}, flags(r2.ID))
	assert.Equal(t, []string{}, flags(r3.ID))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetRepoFlags(ctx, r1.ID, []string{"gamma"}) })
	assert.Equal(t, []string{"gamma"}, flags(r1.ID))
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.SetRepoFlags(ctx, r1.ID, nil) })
	assert.Equal(t, []string{}, flags(r1.ID))
	assert.ErrorIs(t, s.Update(ctx, func(tx repos.Tx) error { return tx.SetRepoFlags(ctx, 9999, []string{"x"}) }), forge.ErrNotFound)
	repoUpdate(t, s, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r2.ID) })
	assert.Equal(t, []string{}, flags(r2.ID), "flags go with their repository")

	// Topics: go on r1 (day 1) and r3 (day 3), db on r1 (day 1), Golang
	// spelled as stored on r3 (day 2).
	day := func(n int) time.Time { return time.Date(2024, 5, n, 0, 0, 0, 0, time.UTC) }
	setTopics := func(r *forge.Repository, at time.Time, topics ...string) {
		repoUpdate(t, s, func(tx repos.Tx) error {
			cur, err := tx.RepoByID(ctx, r.ID)
			if err != nil {
				return err
			}
			cur.Topics, cur.Updated = topics, at
			return tx.UpdateRepo(ctx, cur)
		})
	}
	setTopics(r1, day(1), "db", "go")
	setTopics(r3, day(2), "golang")
	setTopics(r3, day(3), "go", "golang")
	search := func(kw string, o forge.ListOptions) ([]repos.Topic, int64) {
		var out []repos.Topic
		var n int64
		require.NoError(t, s.View(ctx, func(tx repos.Tx) (err error) { out, n, err = tx.SearchTopics(ctx, kw, o); return err }))
		return out, n
	}
	all, n := search("", forge.ListOptions{Page: 1, Limit: 10})
	require.EqualValues(t, 3, n)
	require.Len(t, all, 3)
	names := []string{all[0].Name, all[1].Name, all[2].Name}
	assert.Equal(t, []string{"go", "db", "golang"}, names, "most used first, then oldest")
	assert.EqualValues(t, []int64{2, 1, 1}, []int64{all[0].RepoCount, all[1].RepoCount, all[2].RepoCount})
	assert.True(t, day(1).Equal(all[0].Created) && day(3).Equal(all[0].Updated), "go: created %v, updated %v", all[0].Created, all[0].Updated)
	assert.True(t, day(2).Equal(all[2].Created), "golang created %v", all[2].Created)
	assert.NotZero(t, all[0].ID)

	got, n := search("GO", forge.ListOptions{Page: 1, Limit: 1})
	assert.EqualValues(t, 2, n)
	require.Len(t, got, 1)
	assert.Equal(t, "go", got[0].Name)
	got, _ = search("go", forge.ListOptions{Page: 2, Limit: 1})
	require.Len(t, got, 1)
	assert.Equal(t, "golang", got[0].Name)
	got, n = search("%", forge.ListOptions{Page: 1, Limit: 10})
	assert.EqualValues(t, 0, n, "a LIKE wildcard is a character")
	assert.Empty(t, got)

	// A topic no repository has any more is not listed; taking it again
	// keeps its id and creation.
	setTopics(r1, day(4), "go")
	_, n = search("db", forge.ListOptions{Page: 1, Limit: 10})
	assert.EqualValues(t, 0, n)
	left, _ := search("", forge.ListOptions{Page: 1, Limit: 10})
	var leftNames []string
	for _, tp := range left {
		leftNames = append(leftNames, tp.Name)
	}
	assert.Equal(t, []string{"go", "golang"}, leftNames)
	setTopics(r3, day(5), "db", "go", "golang")
	got, _ = search("db", forge.ListOptions{Page: 1, Limit: 10})
	require.Len(t, got, 1)
	assert.Equal(t, all[1].ID, got[0].ID)
	assert.True(t, day(1).Equal(got[0].Created) && day(5).Equal(got[0].Updated), "db: created %v, updated %v", got[0].Created, got[0].Updated)
}
