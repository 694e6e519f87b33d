package gitstore_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/gittest"
)

// TestConformance runs the repos.Git suite against the git-backed Store,
// SHA-1 and SHA-256, with go-git reads and with the command line only.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, cli := range []bool{false, true} {
		name := "gogit"
		if cli {
			name = "cli"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gittest.Run(t, func(t *testing.T) repos.Git {
				s, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{CLIOnly: cli})
				require.NoError(t, err)
				return s
			})
		})
	}
}

// TestPullConformance runs the issues.PullGit suite against the Store.
func TestPullConformance(t *testing.T) {
	t.Parallel()
	gittest.RunPulls(t, func(t *testing.T) gittest.PullBackend {
		s, err := gitstore.Open(t.TempDir())
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	})
}
