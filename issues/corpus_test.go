package issues_test

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
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// sqlCorpus is the issue service on a SQLite file holding nIssues issues
// over nRepos repositories of "owner" (one in ten private), each
// repository with four labels and a milestone, every issue with a label,
// every second one in the milestone, every third assigned to the owner,
// a fifth closed, created a minute apart. "viewer" collaborates (read) on
// the first hundred private repositories; "nobody" is a restricted user
// who sees nothing.
type sqlCorpus struct {
	db                    *sqlite.DB
	path                  string
	repos                 *repos.Service
	svc                   *issues.Service
	owner, viewer, nobody forge.Actor
	repoNames             []string
}

// issueRepos adapts forge/repos to issues.RepoSearch, as examples/forged
// does.
type issueRepos struct{ repos *repos.Service }

func (s issueRepos) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	views, err := s.repos.IssueRepos(ctx, actor, owner, team)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// ReposByID implements issues.RepoViews: repos.Service.ViewsByID, the
// repositories of one page of the search with the actor's permission.
func (s issueRepos) ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]issues.RepoPermission, error) {
	views, err := s.repos.ViewsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := make([]issues.RepoPermission, 0, len(views))
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

func newSQLCorpus(tb testing.TB, nRepos, nIssues int) *sqlCorpus {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(tb.TempDir(), "issues.db")
	db, err := sqlite.Open(ctx, path)
	require.NoError(tb, err)
	tb.Cleanup(func() { db.Close() })
	c := &sqlCorpus{db: db, path: path}
	users := map[string]*forge.User{}
	require.NoError(tb, db.Auth().Update(ctx, func(tx auth.Tx) error {
		for _, name := range []string{"owner", "viewer", "nobody"} {
			u := forgetest.User(name)
			u.Restricted = name == "nobody"
			if err := tx.CreateUser(ctx, u, ""); err != nil {
				return err
			}
			users[name] = u
		}
		return nil
	}))
	c.owner, c.viewer, c.nobody = forgetest.ActorFor(users["owner"]), forgetest.ActorFor(users["viewer"]), forgetest.ActorFor(users["nobody"])
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var repoIDs []forge.ID
	require.NoError(tb, db.Repos().Update(ctx, func(tx repos.Tx) error {
		shared := 0
		for k := range nRepos {
			r := &forge.Repository{OwnerID: users["owner"].ID, Name: fmt.Sprintf("repo%d", k), DefaultBranch: "main",
				ObjectFormat: forge.SHA1, Private: k%10 == 0, HasIssues: true, HasPullRequests: true, Created: at, Updated: at}
			if err := tx.CreateRepo(ctx, r); err != nil {
				return err
			}
			repoIDs = append(repoIDs, r.ID)
			c.repoNames = append(c.repoNames, r.Name)
			if r.Private && shared < 100 {
				shared++
				if err := tx.SetCollaborator(ctx, r.ID, users["viewer"].ID, forge.AccessModeRead); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	require.NoError(tb, db.Issues().Update(ctx, func(tx issues.Tx) error {
		labels := make(map[forge.ID][]forge.ID, nRepos)
		milestones := make(map[forge.ID]forge.ID, nRepos)
		for _, repo := range repoIDs {
			for _, name := range []string{"bug", "feature", "doc", "question"} {
				l := &issues.Label{RepoID: repo, Name: name, Color: "#ee0701"}
				if err := tx.CreateLabel(ctx, l); err != nil {
					return err
				}
				labels[repo] = append(labels[repo], l.ID)
			}
			m := &issues.Milestone{RepoID: repo, Title: "v1", Deadline: issues.NoDeadline, Created: at, Updated: at}
			if err := tx.CreateMilestone(ctx, m); err != nil {
				return err
			}
			milestones[repo] = m.ID
		}
		for k := range nIssues {
			repo := repoIDs[k%nRepos]
			created := at.Add(time.Duration(k) * time.Minute)
			i := &issues.Issue{RepoID: repo, Index: int64(k/nRepos + 1), PosterID: users["owner"].ID,
				Title: fmt.Sprintf("issue %d about %s", k, []string{"crashes", "speed", "docs", "login"}[k%4]),
				Body:  "some text", IsClosed: k%5 == 4, Created: created, Updated: created.Add(time.Hour)}
			if k%2 == 0 {
				i.MilestoneID = milestones[repo]
			}
			if err := tx.CreateIssue(ctx, i); err != nil {
				return err
			}
			if err := tx.SetIssueLabels(ctx, i.ID, []forge.ID{labels[repo][k%3]}); err != nil {
				return err
			}
			if k%3 == 0 {
				if err := tx.SetAssignees(ctx, i.ID, []forge.ID{users["owner"].ID}); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	c.repos, err = repos.New(repos.Config{Store: db.Repos(), Git: memgit.New(), Clock: forgetest.NewClock()})
	require.NoError(tb, err)
	c.svc, err = issues.New(issues.Config{Store: db.Issues(), Repos: c.repos, Search: issueRepos{c.repos}, Clock: forgetest.NewClock()})
	require.NoError(tb, err)
	return c
}
