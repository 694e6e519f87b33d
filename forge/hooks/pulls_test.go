package hooks_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// TestPullPayloads: opened, merged and review-approved pull events are
// queued with Forgejo's headers and PullRequestPayload fields
// (pull_request with merged, merge_commit_sha, head and base, and review
// for the review event); a hook subscribing only issues gets none.
func TestPullPayloads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, []string{"loopback"})
	pullHook := e.hook(t, "http://127.0.0.1:1/p", "pull_request")
	issuesHook := e.hook(t, "http://127.0.0.1:1/i", "issues")
	now := e.clock.Now()
	issue := func(closed bool) *issues.Issue {
		is := &issues.Issue{ID: 7, Index: 3, Title: "Feature", Body: "adds it", IsPull: true, PosterID: e.alice.User.ID,
			Created: now, Updated: now}
		if closed {
			is.IsClosed, is.Closed = true, now
		}
		return is
	}
	pull := func() *issues.PullRequest {
		return &issues.PullRequest{ID: 5, BaseBranch: "main", HeadBranch: "feat", HeadCommitID: c1, Status: issues.PullMergeable}
	}
	open := pullView(e.repo, issue(false), pull(), e.alice.User, nil, c2)
	mergedPR := pull()
	mergedPR.HasMerged, mergedPR.Merged, mergedPR.MergedCommitID, mergedPR.MergerID = true, now, c2, e.alice.User.ID
	merged := pullView(e.repo, issue(true), mergedPR, e.alice.User, e.alice.User, c2)

	tests := []struct {
		name          string
		queue         func() error
		event, evType string
		action        string
		state         string
		merged        bool
		mergeSHA      any
		commitID      string
		review        map[string]any
	}{
		{name: "opened", queue: func() error { return e.sinks.pullChanged(ctx, e.alice, open, hooks.ActionOpened) },
			event: "pull_request", evType: "pull_request", action: "opened", state: "open", mergeSHA: nil},
		{name: "merged", queue: func() error { return e.sinks.pullChanged(ctx, e.alice, merged, hooks.ActionClosed) },
			event: "pull_request", evType: "pull_request", action: "closed", state: "closed", merged: true, mergeSHA: c2, commitID: c2},
		{name: "review approved", queue: func() error {
			return e.sinks.pullReviewed(ctx, e.alice, open, hooks.ReviewApproved, "LGTM")
		}, event: "pull_request_approved", evType: "pull_request_review_approved", action: "reviewed", state: "open", mergeSHA: nil,
			review: map[string]any{"type": "pull_request_review_approved", "content": "LGTM"}},
	}
	for i, tc := range tests {
		require.NoError(t, tc.queue(), tc.name)
		tasks := e.tasks(t, pullHook.ID)
		require.Len(t, tasks, i+1, tc.name)
		var task *hooks.Task
		for _, k := range tasks { // the newest
			if task == nil || k.ID > task.ID {
				task = k
			}
		}
		assert.Equal(t, tc.event, task.Event, tc.name)
		assert.Equal(t, tc.evType, task.EventType, tc.name)
		var p map[string]any
		require.NoError(t, json.Unmarshal(task.Payload, &p), tc.name)
		assert.Equal(t, tc.action, p["action"], tc.name)
		assert.Equal(t, float64(3), p["number"], tc.name)
		assert.Equal(t, tc.commitID, p["commit_id"], tc.name)
		assert.NotContains(t, p, "issue", tc.name)
		pl := p["pull_request"].(map[string]any)
		assert.Equal(t, float64(5), pl["id"], tc.name)
		assert.Equal(t, "Feature", pl["title"], tc.name)
		assert.Equal(t, tc.state, pl["state"], tc.name)
		assert.Equal(t, tc.merged, pl["merged"], tc.name)
		assert.Equal(t, tc.mergeSHA, pl["merge_commit_sha"], tc.name)
		assert.Equal(t, "https://forge.example/alice/proj/pulls/3", pl["html_url"], tc.name)
		assert.Equal(t, "alice", pl["user"].(map[string]any)["login"], tc.name)
		head, base := pl["head"].(map[string]any), pl["base"].(map[string]any)
		assert.Equal(t, "feat", head["ref"], tc.name)
		assert.Equal(t, c1, head["sha"], tc.name)
		assert.Equal(t, "alice/proj", head["repo"].(map[string]any)["full_name"], tc.name)
		assert.Equal(t, "main", base["ref"], tc.name)
		assert.Equal(t, c2, base["sha"], tc.name)
		assert.Equal(t, float64(e.repo.ID), base["repo_id"], tc.name)
		if tc.merged {
			assert.NotNil(t, pl["merged_at"], tc.name)
			assert.Equal(t, "alice", pl["merged_by"].(map[string]any)["login"], tc.name)
		} else {
			assert.Nil(t, pl["merged_at"], tc.name)
		}
		if tc.review != nil {
			assert.Equal(t, tc.review, p["review"], tc.name)
		} else {
			assert.Nil(t, p["review"], tc.name)
		}
		assert.Equal(t, "alice/proj", p["repository"].(map[string]any)["full_name"], tc.name)
		assert.Equal(t, "alice", p["sender"].(map[string]any)["login"], tc.name)
	}
	assert.Empty(t, e.tasks(t, issuesHook.ID))
	err := e.sinks.ports.PullReviewed(ctx, e.repo, "pull_request_review_pending", map[string]any{})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

// TestPullReviewDelivered: a review event reaches a loopback receiver
// through the worker, signed, with X-Forgejo-Event pull_request_rejected
// and the review in the body; a hook subscribing pull_request_only gets
// the synchronized event as pull_request_sync only if it subscribes to it
// (it does not).
func TestPullReviewDelivered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newReceiver(t)
	e := newEnv(t, []string{"loopback"})
	e.hook(t, rc.srv.URL+"/r", "pull_request_review")
	only := e.hook(t, rc.srv.URL+"/o", "pull_request_only")
	now := e.clock.Now()
	v := pullView(e.repo, &issues.Issue{ID: 7, Index: 3, Title: "Feature", IsPull: true, PosterID: e.alice.User.ID, Created: now,
		Updated: now}, &issues.PullRequest{ID: 5, BaseBranch: "main", HeadBranch: "feat", HeadCommitID: c1}, e.alice.User, nil, "")
	require.NoError(t, e.sinks.pullChanged(ctx, e.alice, v, hooks.ActionSynchronized))
	assert.Empty(t, e.tasks(t, only.ID))
	require.NoError(t, e.sinks.pullReviewed(ctx, e.alice, v, hooks.ReviewRejected, "no"))
	_, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	d := rc.next(t)
	verify(t, d, "s3cret")
	assert.Equal(t, "pull_request_rejected", d.header.Get("X-Forgejo-Event"))
	assert.Equal(t, "pull_request_review_rejected", d.header.Get("X-Forgejo-Event-Type"))
	var p map[string]any
	require.NoError(t, json.Unmarshal(d.body, &p))
	assert.Equal(t, "reviewed", p["action"])
	assert.Equal(t, map[string]any{"type": "pull_request_review_rejected", "content": "no"}, p["review"])
	assert.Equal(t, "feat", p["pull_request"].(map[string]any)["head"].(map[string]any)["ref"])
	rc.none(t)
}
