package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestPushWritesCommitGraph: a push over smart HTTP leaves the pushed
// commits in the repository's commit-graph (SHA-1 and SHA-256), which git
// verifies, and the API then reads the pushed history.
func TestPushWritesCommitGraph(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			name := "graph-" + format
			r := s.call(t, "POST", "/api/v1/user/repos", map[string]any{"name": name, "object_format_name": format}, 201)
			dir := s.git.Path(forge.ID(r["id"].(float64)))
			work := t.TempDir()
			mustGit(t, work, "init", "--object-format="+format, ".")
			for i := range 3 {
				require.NoError(t, os.WriteFile(filepath.Join(work, "f.txt"), []byte(strings.Repeat("x\n", i+1)), 0o644))
				mustGit(t, work, "add", ".")
				mustGit(t, work, "commit", "-q", "-m", "c")
			}
			remote := "http://root:" + s.token + "@" + strings.TrimPrefix(s.url, "http://") + "/root/" + name + ".git"
			mustGit(t, work, "push", "-q", remote, "main")

			_, err := os.Stat(filepath.Join(dir, "objects", "info", "commit-graphs", "commit-graph-chain"))
			assert.NoError(t, err, "no commit-graph after the push")
			out := mustGit(t, dir, "commit-graph", "verify")
			assert.NotContains(t, out, "error")
			assert.Equal(t, 3, strings.Count(s.get(t, "/api/v1/repos/root/"+name+"/commits?limit=10"), `"html_url"`))
		})
	}
}
