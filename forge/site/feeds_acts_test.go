package site_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/issues"
)

// TestFeedActsOfEvents: which actions each event makes, as Forgejo's feed
// notifier (services/feed): the op type by issue or pull request, the
// "<index>|<text>" content, the comment; nothing for the events Forgejo
// records no action for.
func TestFeedActsOfEvents(t *testing.T) {
	t.Parallel()
	issue := &issues.Issue{ID: 3, Index: 7, Title: "bug"}
	pull := &issues.Issue{ID: 4, Index: 8, Title: "fix", IsPull: true}
	comment := &issues.Comment{ID: 11, Body: "hello"}
	for _, c := range []struct {
		name string
		e    issues.Event
		want []feeds.Act
	}{
		{"issue opened", issues.Event{Kind: issues.EventCreate, Issue: issue}, []feeds.Act{{OpType: feeds.OpCreateIssue, Content: "7|bug"}}},
		{"pull opened", issues.Event{Kind: issues.EventCreate, Issue: pull}, []feeds.Act{{OpType: feeds.OpCreatePullRequest, Content: "8|fix"}}},
		{"issue comment", issues.Event{Kind: issues.EventComment, Issue: issue, Comment: comment},
			[]feeds.Act{{OpType: feeds.OpCommentIssue, CommentID: 11, Content: "7|hello"}}},
		{"pull comment", issues.Event{Kind: issues.EventComment, Issue: pull, Comment: comment},
			[]feeds.Act{{OpType: feeds.OpCommentPull, CommentID: 11, Content: "8|hello"}}},
		{"issue closed", issues.Event{Kind: issues.EventClose, Issue: issue, Comment: comment},
			[]feeds.Act{{OpType: feeds.OpCloseIssue, CommentID: 11, Content: "7|"}}},
		{"pull reopened", issues.Event{Kind: issues.EventReopen, Issue: pull},
			[]feeds.Act{{OpType: feeds.OpReopenPullRequest, Content: "8|"}}},
		{"merged", issues.Event{Kind: issues.EventPullMerge, Issue: pull}, []feeds.Act{{OpType: feeds.OpMergePullRequest, Content: "8|fix"}}},
		{"approved", issues.Event{Kind: issues.EventPullReview, Issue: pull, Review: &issues.Review{Type: issues.ReviewApprove, Content: "ok"}},
			[]feeds.Act{{OpType: feeds.OpApprovePullRequest, Content: "8|ok"}}},
		{"rejected", issues.Event{Kind: issues.EventPullReview, Issue: pull, Review: &issues.Review{Type: issues.ReviewReject}},
			[]feeds.Act{{OpType: feeds.OpRejectPullRequest, Content: "8|"}}},
		{"labelled", issues.Event{Kind: issues.EventLabel, Issue: issue}, nil},
		{"edited", issues.Event{Kind: issues.EventEdit, Issue: issue}, nil},
	} {
		assert.Equal(t, c.want, site.IssueActs(c.e), c.name)
	}

	rel := &repos.Release{TagName: "v1", Name: "One"}
	draft := &repos.Release{TagName: "v2", Name: "Two", Draft: true}
	zero := "0000000000000000000000000000000000000000"
	for _, c := range []struct {
		name string
		e    repos.OutboxEvent
		want []feeds.Act
	}{
		{"created", repos.OutboxEvent{}, []feeds.Act{{OpType: feeds.OpCreateRepo}}},
		{"published", repos.OutboxEvent{Release: &repos.ReleaseEvent{Op: repos.ReleaseCreated, Release: rel}},
			[]feeds.Act{{OpType: feeds.OpPublishRelease, RefName: "v1", Content: "One"}}},
		{"draft made", repos.OutboxEvent{Release: &repos.ReleaseEvent{Op: repos.ReleaseCreated, Release: draft}}, nil},
		{"draft published", repos.OutboxEvent{Release: &repos.ReleaseEvent{Op: repos.ReleaseEdited, Release: rel, WasDraft: true}},
			[]feeds.Act{{OpType: feeds.OpPublishRelease, RefName: "v1", Content: "One"}}},
		{"release edited", repos.OutboxEvent{Release: &repos.ReleaseEvent{Op: repos.ReleaseEdited, Release: rel}}, nil},
		{"release deleted", repos.OutboxEvent{Release: &repos.ReleaseEvent{Op: repos.ReleaseRemoved, Release: rel}}, nil},
		{"push", repos.OutboxEvent{Updates: []repos.RefUpdate{
			{Ref: "refs/heads/main", OldID: "a", NewID: "b"}, {Ref: "refs/heads/old", OldID: "c", NewID: zero},
			{Ref: "refs/tags/v1", OldID: zero, NewID: "d"}, {Ref: "refs/tags/v0", OldID: "e", NewID: ""},
			{Ref: "refs/pull/1/head", OldID: zero, NewID: "f"}, {Ref: "refs/notes/commits", OldID: zero, NewID: "g"}}},
			[]feeds.Act{{OpType: feeds.OpCommitRepo, RefName: "refs/heads/main"}, {OpType: feeds.OpDeleteBranch, RefName: "refs/heads/old"},
				{OpType: feeds.OpPushTag, RefName: "refs/tags/v1"}, {OpType: feeds.OpDeleteTag, RefName: "refs/tags/v0"}}},
		{"branch renamed", repos.OutboxEvent{Updates: []repos.RefUpdate{{Ref: "refs/heads/new", OldID: zero, NewID: "a"}},
			Rename: &repos.BranchRename{}}, nil},
	} {
		assert.Equal(t, c.want, site.RepoActs(c.e), c.name)
	}
}
