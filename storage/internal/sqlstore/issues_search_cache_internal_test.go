package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
)

// An issue search's repositories and total are read once per write
// generation: the same search again runs neither statement, and the
// search after a write (a new collaborator, a new matching issue) sees
// it. A user who sees all repositories but one is searched by the
// complement (every repository but the private one), which admits exactly
// the issues the list would.
func TestSearchCachesFollowWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openSQLite(t)
	at := time.Unix(1e9, 0).UTC()
	ann, bob := forgetest.User("ann"), forgetest.User("bob")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, ann, ""); err != nil {
			return err
		}
		return tx.CreateUser(ctx, bob, "")
	}))
	const public = broadRepoSet + 10
	var private forge.ID
	var repoIDs []forge.ID
	require.NoError(t, db.update(ctx, func(t *tx) error {
		for k := range public + 1 {
			r := &forge.Repository{OwnerID: ann.ID, Name: fmt.Sprintf("r%d", k), DefaultBranch: "main", ObjectFormat: forge.SHA1,
				Private: k == public, HasIssues: true, HasPullRequests: true, Empty: true, Topics: []string{}, Created: at, Updated: at}
			if err := t.CreateRepo(ctx, r); err != nil {
				return err
			}
			repoIDs = append(repoIDs, r.ID)
			private = r.ID
		}
		return nil
	}))
	newIssue := func(repo forge.ID, title string) {
		t.Helper()
		require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
			n, err := tx.NextIssueIndex(ctx, repo)
			if err != nil {
				return err
			}
			return tx.CreateIssue(ctx, &issues.Issue{RepoID: repo, PosterID: ann.ID, Title: title, Index: n, Created: at, Updated: at})
		}))
	}
	for k, id := range repoIDs {
		newIssue(id, fmt.Sprintf("the login page %d", k)) // the private repository's too
		newIssue(id, "something else")
	}

	var statements atomic.Int64
	db.CountStatements(&statements)
	defer db.CountStatements(nil)
	actor := forgetest.ActorFor(bob)
	search := func(keyword string) (repos []forge.ID, total int64, n int64) {
		t.Helper()
		statements.Store(0)
		require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
			is, _, err := tx.SearchableRepos(ctx, actor, 0)
			if err != nil {
				return err
			}
			repos = is
			list, tot, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: is, State: issues.StateOpen, Keyword: keyword},
				forge.ListOptions{Page: 1, Limit: 5})
			total = tot
			if err == nil && !slices.Contains(is, private) {
				for _, i := range list {
					assert.NotEqual(t, private, i.RepoID, "an issue of the private repository")
				}
			}
			return err
		}))
		return repos, total, statements.Load()
	}

	repos, total, first := search("login")
	assert.Len(t, repos, public, "bob sees the public repositories")
	assert.Equal(t, int64(public), total, "the private repository's issue is not counted")
	again, total, second := search("login")
	assert.Equal(t, repos, again)
	assert.Equal(t, int64(public), total)
	assert.Less(t, second, first, "the same search again: from the caches")
	assert.Equal(t, int64(1), second, "only the page's statement")
	_, other, _ := search("else")
	assert.Equal(t, int64(public), other, "another keyword is another total")

	// A new matching issue: the next search counts it.
	newIssue(repoIDs[3], "login again")
	_, total, n := search("login")
	assert.Equal(t, int64(public+1), total)
	assert.Greater(t, n, second, "after a write the search reads again")

	// Bob becomes a collaborator of the private repository: he now sees
	// every repository (no repository condition) and its issue.
	require.NoError(t, db.update(ctx, func(t *tx) error { return t.SetCollaborator(ctx, private, bob.ID, forge.AccessModeRead) }))
	repos, total, _ = search("login")
	assert.Len(t, repos, public+1)
	assert.Equal(t, int64(public+2), total)

	// A write transaction never reads the caches.
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
		is, _, err := tx.SearchableRepos(ctx, actor, 0)
		require.Len(t, is, public+1)
		_, tot, err2 := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: is, State: issues.StateOpen, Keyword: "login"}, forge.ListOptions{Page: 1, Limit: 1})
		assert.Equal(t, int64(public+2), tot)
		return errors.Join(err, err2)
	}))
}
