package memgit_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

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
