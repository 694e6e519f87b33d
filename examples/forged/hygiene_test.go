package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckoutHoldsNoBuildOutput: no test binary or other large file is
// tracked, and forged's default data directory is ignored by git, so that
// `go run ./examples/forged` in a checkout leaves `git status` clean.
// Skipped outside a git checkout (a module cache copy, an archive).
func TestCheckoutHoldsNoBuildOutput(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout")
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if strings.HasSuffix(name, ".test") || strings.HasSuffix(name, ".out") {
			t.Errorf("%s is build output and must not be tracked", name)
		}
		fi, err := os.Stat(filepath.Join(root, name))
		if err == nil && fi.Size() > 4<<20 && !strings.HasSuffix(name, ".json") {
			t.Errorf("%s is %d bytes: large files do not belong in the repository", name, fi.Size())
		}
	}
	for _, p := range []string{"forged-data/hearth.db", "examples/forged/forged-data/hearth.db", "auth/auth.test"} {
		if err := exec.Command("git", "-C", root, "check-ignore", "-q", p).Run(); err != nil {
			t.Errorf("%s is not ignored by git", p)
		}
	}
}
