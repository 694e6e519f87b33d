package gitstore

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var _ repos.PatchGit = (*Store)(nil)

// ApplyPatch applies p.Patch to the tip of p.Branch in a private index
// (git apply --cached, with Forgejo's options: --recount
// --ignore-whitespace --whitespace=fix --binary -3), checks every path the
// patch touched with repos.CheckCleanPath, commits the index and moves the
// branch with a compare-and-swap, serialised with the Store's other writes
// to the repository. A push that moves the branch in between makes it
// apply again on the new tip. Nothing is written when the patch does not
// apply.
func (s *Store) ApplyPatch(ctx context.Context, repo forge.ID, p repos.PatchSet) (*repos.Commit, error) {
	if p.Branch == "" {
		return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", p.Branch)
	}
	return s.commitOnBranch(ctx, repo, p.Branch, p.NewBranch, p.Message, p.Author, p.Committer, func(parent string) (string, error) {
		return s.commitPatch(ctx, repo, parent, p)
	})
}

// commitPatch writes the commit of p applied on parent and returns its id.
func (s *Store) commitPatch(ctx context.Context, repo forge.ID, parent string, p repos.PatchSet) (string, error) {
	env, done, err := s.tempIndex(ctx, repo, parent)
	if err != nil {
		return "", err
	}
	defer done()
	if _, err := s.run(ctx, repo, p.Patch, env, "-c", "core.protectNTFS=true", "-c", "core.protectHFS=true",
		"apply", "--cached", "--recount", "--ignore-whitespace", "--whitespace=fix", "--binary", "-3"); err != nil {
		var ge *gitError
		if errors.As(err, &ge) {
			return "", forge.Errorf(forge.ErrInvalid, "patch does not apply: %s", applyReason(ge.stderr))
		}
		return "", err
	}
	// The paths the patch wrote obey the contents API's rules.
	out, err := s.run(ctx, repo, nil, env, "diff-index", "--cached", "--name-only", "--no-renames", "-z", parent)
	if err != nil {
		return "", err
	}
	for _, path := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if path == "" {
			continue
		}
		if err := repos.CheckCleanPath(path); err != nil {
			return "", err
		}
	}
	return s.commitIndex(ctx, repo, env, parent, p.Message, p.Author, p.Committer)
}

// applyReason is what git apply said of a patch it refused: its error
// lines, joined (never more than 1 KiB).
func applyReason(stderr string) string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "error: ") || strings.HasPrefix(l, "fatal: ") {
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "error: "), "fatal: "))
		}
	}
	reason := strings.Join(lines, "; ")
	if reason == "" {
		reason = "git apply failed"
	}
	if len(reason) > 1024 {
		reason = reason[:1024]
	}
	return reason
}
