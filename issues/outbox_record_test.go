package issues_test

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
)

// storedEvent is the event of the fixtures testdata/outbox/issues.*.json:
// a comment on a pull request, with a value in every part an event has.
func storedEvent() issues.Event {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	bob := &forge.User{ID: 2, Name: "bob", Email: "bob@example.com", Visibility: forge.VisibilityPublic, IsActive: true,
		MaxRepoCreation: -1, Created: at}
	scope, err := forge.ParseScope("write:issue", "read:repository")
	if err != nil {
		panic(err)
	}
	old := "the old title"
	return issues.Event{
		Kind:  issues.EventComment,
		Actor: forge.Actor{User: bob, Method: forge.AuthToken, Scope: scope, Scoped: true, TokenID: 9},
		Repo: &forge.Repository{ID: 3, OwnerID: 1, OwnerName: "alice", Name: "proj", Description: "a project",
			DefaultBranch: "main", Created: at, Updated: at},
		Issue: &issues.Issue{ID: 4, RepoID: 3, Index: 1, PosterID: 1, Title: "crash", Body: "it crashes", IsPull: true,
			NumComments: 1, Created: at, Updated: at},
		Comment: &issues.Comment{ID: 5, IssueID: 4, Type: issues.CommentPlain, PosterID: 2, Body: "me too @alice",
			Created: at, Updated: at},
		Pull: &issues.PullRequest{ID: 6, IssueID: 4, Index: 1, BaseRepoID: 3, HeadRepoID: 3, BaseBranch: "main",
			HeadBranch: "fix", HeadCommitID: "0123456789abcdef0123456789abcdef01234567"},
		Review:    &issues.Review{ID: 7, IssueID: 4, Type: issues.ReviewApprove, ReviewerID: 2, Content: "fine"},
		Mentioned: []forge.ID{1},
		Detail: &issues.EventDetail{Labels: []*issues.Label{{ID: 8, RepoID: 3, Name: "bug", Color: "#ee0701"}},
			Assignees: []*forge.User{bob}, Milestone: &issues.Milestone{ID: 10, RepoID: 3, Title: "v1"}, OldTitle: &old},
		At: at,
	}
}

// TestStoredIssueEvents: the issue events already stored in outboxes
// still decode to the same values: the current record
// (testdata/outbox/issues.v1.json, strictly: a Go field renamed fails
// here) and the bare JSON of the events stored before the versioned
// record (issues.v0.json, Go field names, no At).
func TestStoredIssueEvents(t *testing.T) {
	t.Parallel()
	want := storedEvent()
	forgetest.EventFixture(t, "testdata/outbox/issues.v1.json", want, issues.MarshalEvent, issues.UnmarshalEvent)
	want.At = time.Time{}
	forgetest.LegacyEventFixture(t, "testdata/outbox/issues.v0.json", want, issues.UnmarshalEvent)
}
