package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// issueCorpus is a database of benchIssues issues over benchRepos
// repositories (one in ten private), each repository with four labels
// and every issue with one of them, a fifth closed, created a minute
// apart.
type issueCorpus struct {
	db      *sqlite.DB
	repoIDs []forge.ID // every repository
	private []forge.ID // the private ones
	labels  []forge.ID // the first label ("bug") of every repository
}

const (
	benchRepos  = 1000
	benchIssues = 100_000
)

func newIssueCorpus(b *testing.B) *issueCorpus {
	return buildIssueCorpus(b, filepath.Join(b.TempDir(), "issues.db"))
}

func buildIssueCorpus(b *testing.B, path string) *issueCorpus {
	b.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	c := &issueCorpus{db: db}
	owner := forgetest.User("owner")
	require.NoError(b, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, owner, "") }))
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(b, db.Repos().Update(ctx, func(tx repos.Tx) error {
		for k := range benchRepos {
			r := &forge.Repository{OwnerID: owner.ID, Name: fmt.Sprintf("repo%d", k), DefaultBranch: "main",
				ObjectFormat: forge.SHA1, Private: k%10 == 0, HasIssues: true, Created: at, Updated: at}
			if err := tx.CreateRepo(ctx, r); err != nil {
				return err
			}
			c.repoIDs = append(c.repoIDs, r.ID)
			if r.Private {
				c.private = append(c.private, r.ID)
			}
		}
		return nil
	}))
	require.NoError(b, db.Issues().Update(ctx, func(tx issues.Tx) error {
		labels := make(map[forge.ID][]forge.ID, benchRepos)
		for _, repo := range c.repoIDs {
			for _, name := range []string{"bug", "feature", "doc", "question"} {
				l := &issues.Label{RepoID: repo, Name: name, Color: "#ee0701"}
				if err := tx.CreateLabel(ctx, l); err != nil {
					return err
				}
				labels[repo] = append(labels[repo], l.ID)
			}
			c.labels = append(c.labels, labels[repo][0])
		}
		for k := range benchIssues {
			repo := c.repoIDs[k%benchRepos]
			created := at.Add(time.Duration(k) * time.Minute)
			i := &issues.Issue{RepoID: repo, Index: int64(k/benchRepos + 1), PosterID: owner.ID,
				Title: fmt.Sprintf("issue %d about %s", k, []string{"crashes", "speed", "docs", "login"}[k%4]),
				Body:  "some text", IsClosed: k%5 == 4, Created: created, Updated: created.Add(time.Hour)}
			if err := tx.CreateIssue(ctx, i); err != nil {
				return err
			}
			if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{labels[repo][k%3]}); err != nil {
				return err
			}
		}
		return nil
	}))
	return c
}

// BenchmarkSearchIssues is /repos/issues/search on the store: a signed-in
// user who sees the public repositories and a hundred private ones, one
// page of twenty.
func BenchmarkSearchIssues(b *testing.B) {
	c := newIssueCorpus(b)
	ctx := context.Background()
	page := forge.ListOptions{Page: 1, Limit: 20}
	for _, bc := range []struct {
		name string
		f    issues.IssueFilter
	}{
		{"Open", issues.IssueFilter{RepoIDs: c.private, PublicRepos: true, State: issues.StateOpen}},
		// A keyword of a few issues ("issue 4242" and "issue 42420".."42429"),
		// and one in a quarter of them (the worst case of the trigram index:
		// every match is read to be counted).
		{"Keyword", issues.IssueFilter{RepoIDs: c.private, PublicRepos: true, State: issues.StateOpen, Keyword: "issue 4242"}},
		{"KeywordCommon", issues.IssueFilter{RepoIDs: c.private, PublicRepos: true, State: issues.StateOpen, Keyword: "login"}},
		{"Labels", issues.IssueFilter{RepoIDs: c.private, PublicRepos: true, State: issues.StateOpen, LabelIDs: c.labels[:50]}},
		{"RecentUpdate", issues.IssueFilter{RepoIDs: c.private, PublicRepos: true, Sort: issues.IssueSortRecentUpdate,
			UpdatedSince: time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)}},
		{"PrivateOnly", issues.IssueFilter{RepoIDs: c.private, State: issues.StateOpen}},
		{"NoVisibleRepos", issues.IssueFilter{State: issues.StateOpen}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				err := c.db.Issues().View(ctx, func(tx issues.Tx) error {
					list, total, err := tx.ListIssues(ctx, bc.f, page)
					if err == nil && bc.name != "NoVisibleRepos" && bc.name != "Keyword" && (len(list) != 20 || total < 20) {
						err = fmt.Errorf("got %d of %d", len(list), total)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkListIssues is one repository's issue list, 50 per page, with
// the labels and assignees of the page in one query each.
func BenchmarkListIssues(b *testing.B) {
	c := newIssueCorpus(b)
	ctx := context.Background()
	repo := c.repoIDs[7]
	for b.Loop() {
		err := c.db.Issues().View(ctx, func(tx issues.Tx) error {
			list, _, err := tx.ListIssues(ctx, issues.IssueFilter{RepoIDs: []forge.ID{repo}, State: issues.StateAll},
				forge.ListOptions{Page: 1, Limit: 50})
			if err != nil {
				return err
			}
			if len(list) != 50 {
				return fmt.Errorf("got %d", len(list))
			}
			ids := make([]forge.ID, len(list))
			for k, i := range list {
				ids[k] = i.ID
			}
			if _, err := tx.IssueLabels(ctx, ids); err != nil {
				return err
			}
			_, err = tx.Assignees(ctx, ids)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
