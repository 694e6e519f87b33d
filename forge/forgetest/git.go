package forgetest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Git runs the git command line in dir as a user would, with no system or
// global configuration (HOME is dir), a fixed author and committer and no
// prompt, and returns its output trimmed; it fails t when git fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a",
		"GIT_COMMITTER_EMAIL=a@example.com", "GIT_TERMINAL_PROMPT=0")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
