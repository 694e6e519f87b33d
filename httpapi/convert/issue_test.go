package convert

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// TestIssueConverters checks the pure converters against Forgejo's
// services/convert rules, value by value.
func TestIssueConverters(t *testing.T) {
	t.Parallel()
	root := "https://forge.example/"
	repo := &forge.Repository{ID: 7, OwnerName: "acme", Name: "tools"}
	t0 := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

	labels := []struct {
		name string
		l    issues.Label
		org  string
		want wire.Label
	}{
		{"repository label", issues.Label{ID: 3, RepoID: 7, Name: "bug", Color: "#00aabb"}, "acme",
			wire.Label{ID: 3, Name: "bug", Color: "00aabb", URL: root + "api/v1/repos/acme/tools/labels/3"}},
		{"organisation label", issues.Label{ID: 4, OrgID: 9, Name: "team/a", Color: "#ffffff", Exclusive: true, Archived: t0}, "acme",
			wire.Label{ID: 4, Name: "team/a", Color: "ffffff", Exclusive: true, IsArchived: true, URL: root + "api/v1/orgs/acme/labels/4"}},
		{"organisation label, organisation unknown", issues.Label{ID: 5, OrgID: 9, Name: "x", Color: "#000000"}, "",
			wire.Label{ID: 5, Name: "x", Color: "000000"}},
	}
	for _, c := range labels {
		if got := Label(root, repo, c.org, &c.l); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}

	milestones := []struct {
		name        string
		m           issues.Milestone
		state       wire.StateType
		closed, due bool
		open        int64
	}{
		{"open, no deadline", issues.Milestone{NumIssues: 3, NumClosedIssues: 1, Deadline: issues.NoDeadline, Created: t0, Updated: t0}, "open", false, false, 2},
		{"closed, deadline", issues.Milestone{IsClosed: true, Closed: t0, Deadline: t0, Created: t0, Updated: t0}, "closed", true, true, 0},
		{"year 9999 is none", issues.Milestone{Deadline: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}, "open", false, false, 0},
	}
	for _, c := range milestones {
		got := Milestone(&c.m)
		if got.State != c.state || (got.Closed != nil) != c.closed || (got.Deadline != nil) != c.due || got.OpenIssues != c.open || got.Updated == nil {
			t.Errorf("%s: got %+v", c.name, got)
		}
	}

	anon := func(u *forge.User) wire.User { return wire.User{ID: u.ID, UserName: u.Name} }
	ic := Issues{Root: root, AsDoer: anon, AsAnon: anon}
	alice, bob := &forge.User{ID: 1, Name: "alice"}, &forge.User{ID: 2, Name: "bob"}
	plain := ic.Issue(&issues.IssueView{Issue: &issues.Issue{ID: 10, Index: 4, Created: t0, Updated: t0}, Repo: repo})
	if plain.User.ID != -1 || plain.User.UserName != "Ghost" {
		t.Errorf("a missing poster is not the ghost: %+v", plain.User)
	}
	if plain.Labels == nil || plain.Attachments == nil || plain.Assignees != nil || plain.Assignee != nil ||
		plain.Milestone != nil || plain.PullRequest != nil || plain.Closed != nil || plain.Deadline != nil {
		t.Errorf("empty issue: %+v", plain)
	}
	if plain.HTMLURL != root+"acme/tools/issues/4" || plain.URL != root+"api/v1/repos/acme/tools/issues/4" ||
		plain.Repository != (wire.RepositoryMeta{ID: 7, Name: "tools", Owner: "acme", FullName: "acme/tools"}) {
		t.Errorf("urls and repository: %+v", plain)
	}
	full := ic.Issue(&issues.IssueView{Issue: &issues.Issue{ID: 11, Index: 5, IsPull: true, IsClosed: true, Closed: t0, Deadline: t0},
		Repo: repo, Poster: alice, Assignees: []*forge.User{bob, alice}, Milestone: &issues.Milestone{ID: 2, Deadline: issues.NoDeadline}})
	if full.Assignee == nil || full.Assignee.UserName != "bob" || len(full.Assignees) != 2 {
		t.Errorf("assignees: %+v %+v", full.Assignee, full.Assignees)
	}
	if full.PullRequest == nil || full.PullRequest.HTMLURL != root+"acme/tools/pulls/5" || full.HTMLURL != root+"acme/tools/pulls/5" {
		t.Errorf("pull request: %+v", full.PullRequest)
	}
	if full.State != "closed" || full.Closed == nil || full.Deadline == nil || full.Milestone == nil {
		t.Errorf("closed issue: %+v", full)
	}

	cv := ic.Comment(&issues.CommentView{Comment: &issues.Comment{ID: 42, Body: "hi"}, Issue: &issues.Issue{Index: 5, IsPull: true}, Repo: repo, Poster: bob})
	if cv.HTMLURL != root+"acme/tools/pulls/5#issuecomment-42" || cv.PRURL != root+"acme/tools/pulls/5" || cv.IssueURL != "" || cv.Attachments == nil {
		t.Errorf("comment of a pull request: %+v", cv)
	}
}
