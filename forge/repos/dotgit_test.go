package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// F5: CleanTreePath refuses every path git's verify_path refuses under
// core.protectNTFS and core.protectHFS (git would drop it silently).
func TestCleanTreePathRefusesWhatGitIgnores(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		"git~1/config", "GIT~1/x", "d/git~1/x", "Git~1", "git~1. . /x",
		".git.", ".git ", ".git...", ".GIT. .", ".git::$INDEX_ALLOCATION/x", ".git:x", "git~1:stream",
		".g\u200cit/x", "\u200d.git", ".git\ufeff/x", ".G\u206ai\u202aT",
		`a\.git`, `a\git~1\x`, `..\x`,
	} {
		_, err := repos.CleanTreePath(p)
		assert.ErrorIs(t, err, forge.ErrInvalid, "%q", p)
		assert.ErrorContains(t, err, "path contains a malformed path component [path: "+p+"]", "%q", p)
	}
	for _, p := range []string{
		"git~2/x", "git~1x", ".gitx", ".git-x/y", ".gi t", "x.git", "git", ".github/workflows/ci.yml",
		".g\u00e9it", "a.", "a ", "...", `a\b`, ".gitignore", ".gitmodules",
	} {
		got, err := repos.CleanTreePath(p)
		assert.NoError(t, err, "%q", p)
		assert.Equal(t, p, got)
	}
}
