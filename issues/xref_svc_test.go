package issues_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func refEvents(t *testing.T, e *env, actor forge.Actor, owner, repo string, index int64) []*issues.TimelineView {
	t.Helper()
	list, _, err := e.svc.Timeline(e.ctx, actor, owner, repo, index, issues.ListCommentsOption{})
	require.NoError(t, err)
	var out []*issues.TimelineView
	for _, v := range list {
		if v.Ref != nil {
			out = append(out, v)
		}
	}
	return out
}

// TestCrossReferences: references are made once per target, dated with
// the given updated_at, never to the source itself, and leave the
// timeline when their source issue is deleted.
func TestCrossReferences(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "target")
	src, err := e.svc.Create(e.ctx, alice, "alice", "r", issues.CreateIssueOption{Title: "source", Body: "#1 #1 alice/r#1 #2 #99"})
	require.NoError(t, err)
	got := refEvents(t, e, alice, "alice", "r", 1)
	require.Len(t, got, 1, "once per target")
	assert.Equal(t, issues.CommentIssueRef, got[0].Comment.Type)
	assert.Equal(t, src.Issue.ID, got[0].RefIssue.Issue.ID)
	assert.Empty(t, refEvents(t, e, alice, "alice", "r", 2), "never to itself")

	e.clock.Step(time.Hour)
	given := e.clock.Now().Add(-30 * time.Minute).Truncate(time.Second)
	_, err = e.svc.CreateComment(e.ctx, alice, "alice", "r", 2, issues.CreateCommentOption{Body: "again #1", UpdatedAt: &given})
	require.NoError(t, err)
	got = refEvents(t, e, alice, "alice", "r", 1)
	require.Len(t, got, 2)
	assert.Equal(t, issues.CommentCommentRef, got[1].Comment.Type)
	assert.True(t, got[1].Comment.Created.Equal(given), "rule 11")
	target, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	assert.True(t, target.Issue.Updated.Equal(given), "rule 7")

	require.NoError(t, e.svc.Delete(e.ctx, alice, "alice", "r", 2))
	assert.Empty(t, refEvents(t, e, alice, "alice", "r", 1), "the source is gone")
}
