package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// fakeCommits answers n commits (or err) and records the limits asked.
type fakeCommits struct {
	n      int
	err    error
	limits []int
}

func (f *fakeCommits) PushCommits(_ context.Context, _ forge.ID, oldID, newID string, limit int) ([]*hooks.PushCommit, int, error) {
	f.limits = append(f.limits, limit)
	if f.err != nil {
		return nil, 0, f.err
	}
	var out []*hooks.PushCommit
	for i := 0; i < f.n && i < limit; i++ {
		out = append(out, &hooks.PushCommit{ID: fmt.Sprintf("%040d", i), Message: "m", Author: hooks.CommitUser{Name: "A", Email: "a@x"},
			Timestamp: time.Unix(0, 0).UTC(), Added: []string{"f"}})
	}
	return out, f.n, nil
}

func TestPushPayloadCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name          string
		reader        *fakeCommits
		old           string
		listed, total int
		limit         int
	}{
		{"update lists at most 5, counts all", &fakeCommits{n: 7}, c1, 5, 7, hooks.MaxPayloadCommits},
		{"new branch reads 10", &fakeCommits{n: 3}, zero, 3, 3, hooks.MaxNewRefCommits},
		{"a failed read sends empty lists", &fakeCommits{err: errors.New("boom")}, c1, 0, 0, hooks.MaxPayloadCommits},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.Commits = tc.reader })
			h := e.hook(t, "http://127.0.0.1:1/in", "push")
			require.NoError(t, e.hooks.Pushed(ctx, e.alice, e.repo, []hooks.RefUpdate{{Ref: "refs/heads/main", OldID: tc.old, NewID: c2}}))
			assert.Equal(t, []int{tc.limit}, tc.reader.limits)
			var p struct {
				Commits      []map[string]any `json:"commits"`
				TotalCommits int              `json:"total_commits"`
				HeadCommit   map[string]any   `json:"head_commit"`
			}
			var found bool
			for _, task := range e.tasks(t, h.ID) {
				if task.Event == "push" {
					require.NoError(t, json.Unmarshal(task.Payload, &p))
					found = true
				}
			}
			require.True(t, found)
			require.NotNil(t, p.Commits)
			assert.Len(t, p.Commits, tc.listed)
			assert.Equal(t, tc.total, p.TotalCommits)
			if tc.listed == 0 {
				assert.Nil(t, p.HeadCommit)
				return
			}
			assert.Equal(t, p.Commits[0], p.HeadCommit)
			assert.Equal(t, "https://forge.example/alice/proj/commit/"+fmt.Sprintf("%040d", 0), p.HeadCommit["url"])
			assert.Equal(t, []any{"f"}, p.HeadCommit["added"])
			assert.Equal(t, []any{}, p.HeadCommit["removed"])
			assert.Equal(t, map[string]any{"name": "A", "email": "a@x", "username": ""}, p.HeadCommit["author"])
		})
	}
}
