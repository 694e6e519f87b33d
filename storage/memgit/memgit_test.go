package memgit_test

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gittest"
	"github.com/hearthforge/hearth/storage/memgit"
)

// TestConformance runs the repos.Git suite (SHA-1; SHA-256 is skipped as
// unsupported). With PATH empty no git binary could be found, so passing
// also shows memgit starts none.
func TestConformance(t *testing.T) {
	t.Setenv("PATH", "")
	gittest.Run(t, func(t *testing.T) repos.Git { return memgit.New() })
}

func TestSHA256IsRefused(t *testing.T) {
	t.Parallel()
	err := memgit.New().Create(context.Background(), 1, forge.SHA256, "main")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.Contains(t, err.Error(), "sha1")
}

// TestConcurrentReadersAndWriters mixes reads, commits, forks and ref
// updates on one repository; run with -race.
func TestConcurrentReadersAndWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := memgit.New()
	require.NoError(t, g.Create(ctx, 1, forge.SHA1, "main"))
	sig := repos.Signature{Name: "Ann", Email: "ann@example.com", When: time.Unix(1700000000, 0)}
	first, err := g.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "init\n", Author: sig, Committer: sig,
		Files: []repos.FileOp{{Op: "create", Path: "f", Content: []byte("0\n")}}})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			branch := fmt.Sprintf("b%d", i)
			_, err := g.Apply(ctx, 1, repos.ChangeSet{Branch: "main", NewBranch: branch, Message: "w\n", Author: sig,
				Committer: sig, Files: []repos.FileOp{{Op: "update", Path: "f", Content: []byte(branch + "\n")}}})
			assert.NoError(t, err)
			assert.NoError(t, g.SetRef(ctx, 1, "refs/tags/t"+branch, first.ID, ""))
			assert.NoError(t, g.Fork(ctx, 1, forge.ID(100+i)))
		}()
		go func() {
			defer wg.Done()
			_, err := g.Log(ctx, 1, repos.LogOptions{Rev: "main", Files: true})
			assert.NoError(t, err)
			_, err = g.Refs(ctx, 1)
			assert.NoError(t, err)
			_, err = g.Tree(ctx, 1, "main", "", true)
			assert.NoError(t, err)
			assert.NoError(t, g.Archive(ctx, 1, "main", "zip", "x", io.Discard))
		}()
	}
	wg.Wait()
	refs, err := g.Refs(ctx, 1)
	require.NoError(t, err)
	assert.Len(t, refs, 17, "main, 8 branches, 8 tags")
	for i := range 8 {
		n, err := g.CountCommits(ctx, forge.ID(100+i), fmt.Sprintf("b%d", i), "")
		require.NoError(t, err)
		assert.Equal(t, 2, n)
	}
}

func TestCanceledContext(t *testing.T) {
	t.Parallel()
	g := memgit.New()
	require.NoError(t, g.Create(context.Background(), 1, forge.SHA1, "main"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := g.Refs(ctx, 1)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestPullConformance runs the issues.PullGit suite (SHA-1), with no git
// binary to be found.
func TestPullConformance(t *testing.T) {
	t.Setenv("PATH", "")
	gittest.RunPulls(t, func(t *testing.T) gittest.PullBackend { return memgit.New() })
}
