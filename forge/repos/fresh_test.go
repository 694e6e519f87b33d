package repos_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestWritesReturnTheStoredState: a write returns the repository (and the
// release) as stored after it — the size and update time the write set —
// equal to what a fresh read returns, not the state read before it.
func TestWritesReturnTheStoredState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ptr := func(s string) *string { return &s }
	big := make([]byte, 256<<10)
	_, _ = rand.Read(big)
	for name, write := range map[string]func(e *memEnv, a forge.Actor) (*repos.View, *repos.Release, error){
		"ChangeFiles": func(e *memEnv, a forge.Actor) (*repos.View, *repos.Release, error) {
			v, _, _, err := e.svc.ChangeFiles(ctx, a, "alice", "proj", repos.ChangeFilesOptions{Message: "big",
				Files: []repos.FileChange{{Op: "create", Path: "big.bin", Content: big}}})
			return v, nil, err
		},
		"CreateRelease": func(e *memEnv, a forge.Actor) (*repos.View, *repos.Release, error) {
			return e.svc.CreateRelease(ctx, a, "alice", "proj", repos.ReleaseOptions{TagName: ptr("v1"), Body: ptr("notes")})
		},
		"EditRelease publishing a draft": func(e *memEnv, a forge.Actor) (*repos.View, *repos.Release, error) {
			draft := true
			_, rel, err := e.svc.CreateRelease(ctx, a, "alice", "proj", repos.ReleaseOptions{TagName: ptr("v2"), Draft: &draft})
			if err != nil {
				return nil, nil, err
			}
			e.clock.Step(time.Hour)
			draft = false
			return e.svc.EditRelease(ctx, a, "alice", "proj", rel.ID, repos.ReleaseOptions{Draft: &draft})
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newMemEnv(t)
			alice := e.user(t, "alice")
			before, err := e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "proj", AutoInit: true})
			require.NoError(t, err)
			e.clock.Step(time.Hour)
			v, rel, err := write(e, alice)
			require.NoError(t, err)
			fresh, err := e.svc.Get(ctx, alice, "alice", "proj")
			require.NoError(t, err)
			assert.Equal(t, fresh.Repo, v.Repo, "the repository as stored after the write")
			assert.True(t, v.Repo.Updated.After(before.Repo.Updated), "updated: %v, before %v", v.Repo.Updated, before.Repo.Updated)
			if name == "ChangeFiles" {
				assert.Greater(t, v.Repo.Size, before.Repo.Size)
			}
			if rel != nil {
				_, got, err := e.svc.GetRelease(ctx, alice, "alice", "proj", rel.ID, "", false)
				require.NoError(t, err)
				assert.Equal(t, got, rel, "the release as stored")
			}
		})
	}
}
