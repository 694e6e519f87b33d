package gitstore

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The git operations of pull requests (issues.PullGit): SyncHead and the
// ancestry questions here, Compare, DiffFiles and Diff in compare.go,
// TestMerge and Merge in merge.go. Every write runs under the repository's
// write lock (the one Apply takes), builds its objects in a quarantine
// object directory (see quarantine) and moves a ref last, with a
// compare-and-swap.

var _ issues.PullGit = (*Store)(nil)

// SyncHead points ref (under refs/pull/) of repository base at the tip of
// branch in repository head. For another repository (a fork) the commit and
// what it needs are fetched from head's directory first (`git fetch` of that
// one commit: both repositories are on this disk).
func (s *Store) SyncHead(ctx context.Context, base, head forge.ID, branch, ref string) (string, error) {
	if !strings.HasPrefix(ref, "refs/pull/") || !s.validRef(ctx, ref) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid pull request reference name %q", ref)
	}
	if !s.validRef(ctx, "refs/heads/"+branch) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid branch name %q", branch)
	}
	if err := s.exists(base); err != nil {
		return "", err
	}
	id, err := s.Resolve(ctx, head, "refs/heads/"+branch)
	if err != nil {
		return "", forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
	}
	unlock := s.lock(base)
	defer unlock()
	if head != base {
		if err := s.fetchCommit(ctx, base, head, id, nil); err != nil {
			return "", err
		}
	}
	if err := s.SetRef(ctx, base, ref, id, "*"); err != nil {
		return "", err
	}
	return id, nil
}

// fetchCommit copies commit id and everything it reaches from repository
// from into repo, unless repo has it already. env (a quarantine's) decides
// where the objects land.
func (s *Store) fetchCommit(ctx context.Context, repo, from forge.ID, id string, env []string) error {
	if err := s.exists(from); err != nil {
		return err
	}
	if s.hasCommit(ctx, repo, id, env) {
		return nil
	}
	// upload-pack, which git fetch starts in from's directory, reads this
	// setting from the environment git -c exports: a commit is asked for
	// by id, with no ref to name it.
	_, err := s.run(ctx, repo, nil, env, "-c", "uploadpack.allowAnySHA1InWant=true",
		"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", "--no-recurse-submodules",
		s.Path(from), id)
	if err != nil {
		return err
	}
	if !s.hasCommit(ctx, repo, id, env) {
		return forge.Errorf(forge.ErrNotFound, "commit does not exist [id: %s]", id)
	}
	return nil
}

// hasCommit reports whether repo (with env's object directories) holds the
// commit id.
func (s *Store) hasCommit(ctx context.Context, repo forge.ID, id string, env []string) bool {
	out, err := s.run(ctx, repo, nil, env, "cat-file", "-t", id)
	return err == nil && strings.TrimSpace(string(out)) == "commit"
}

// validRef reports whether name is a full ref name git accepts.
func (s *Store) validRef(ctx context.Context, name string) bool {
	if !plainRefName(name) {
		return false
	}
	_, err := s.run(ctx, 0, nil, nil, "check-ref-format", name)
	return err == nil
}

// exists is forge.ErrNotFound when repo has no directory.
func (s *Store) exists(repo forge.ID) error {
	if _, err := os.Stat(s.Path(repo)); err != nil {
		return forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
	}
	return nil
}

// commitID resolves rev to a commit id of repo: forge.ErrNotFound if it
// names none.
func (s *Store) commitID(ctx context.Context, repo forge.ID, rev string) (string, error) {
	if err := s.exists(repo); err != nil {
		return "", err
	}
	return s.Resolve(ctx, repo, rev)
}

// MergeBase returns the best common ancestor of commits a and b
// (`git merge-base`); forge.ErrNotFound if they share no history.
func (s *Store) MergeBase(ctx context.Context, repo forge.ID, a, b string) (string, error) {
	ia, err := s.commitID(ctx, repo, a)
	if err != nil {
		return "", err
	}
	ib, err := s.commitID(ctx, repo, b)
	if err != nil {
		return "", err
	}
	return s.mergeBase(ctx, repo, ia, ib, nil)
}

func (s *Store) mergeBase(ctx context.Context, repo forge.ID, a, b string, env []string) (string, error) {
	out, err := s.run(ctx, repo, nil, env, "merge-base", a, b)
	if exitCode(err) == 1 {
		return "", forge.Errorf(forge.ErrNotFound, "no merge base found [a: %s, b: %s]", a, b)
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// IsAncestor reports whether commit a is reachable from commit b (`git
// merge-base --is-ancestor`).
func (s *Store) IsAncestor(ctx context.Context, repo forge.ID, a, b string) (bool, error) {
	ia, err := s.commitID(ctx, repo, a)
	if err != nil {
		return false, err
	}
	ib, err := s.commitID(ctx, repo, b)
	if err != nil {
		return false, err
	}
	return s.isAncestor(ctx, repo, ia, ib, nil)
}

func (s *Store) isAncestor(ctx context.Context, repo forge.ID, a, b string, env []string) (bool, error) {
	_, err := s.run(ctx, repo, nil, env, "merge-base", "--is-ancestor", a, b)
	switch exitCode(err) {
	case 0:
		return true, nil
	case 1:
		return false, nil
	}
	return false, err
}

// ContentChanged is issues.PullGit's: Forgejo's checkIfPRContentChanged,
// `git diff --name-only -z newHead oldHead $(git merge-base base
// newHead)`, a combined diff listing the paths newHead changed against
// both; any path means the content changed.
func (s *Store) ContentChanged(ctx context.Context, repo forge.ID, base, oldHead, newHead string) (bool, error) {
	ids := make([]string, 0, 3)
	for _, rev := range []string{base, oldHead, newHead} {
		id, err := s.commitID(ctx, repo, rev)
		if err != nil {
			return false, err
		}
		ids = append(ids, id)
	}
	mb, err := s.mergeBase(ctx, repo, ids[0], ids[2], nil)
	if err != nil {
		return false, err
	}
	out, err := s.run(ctx, repo, nil, nil, "diff", "--name-only", "-z", ids[2], ids[1], mb)
	if err != nil {
		return false, err
	}
	return len(out) > 0, nil
}

// exitCode is the exit status of the git process behind err: 0 for nil,
// -1 when it did not exit.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// quarantine is a temporary object directory under the store's .tmp: git
// commands run with its env write their new objects there and read the
// repository's through an alternate. migrate moves the objects into the
// repository (before a ref may name them); remove drops them all, so a
// test merge or a failed merge leaves the repository's objects as they
// were.
type quarantine struct {
	dir, objects string
}

func (s *Store) newQuarantine(repo forge.ID) (*quarantine, error) {
	tmp, err := s.tmpDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tmp, "objects-*")
	if err != nil {
		return nil, err
	}
	return &quarantine{dir: dir, objects: filepath.Join(s.Path(repo), "objects")}, nil
}

func (q *quarantine) env() []string {
	return []string{"GIT_OBJECT_DIRECTORY=" + q.dir, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + q.objects}
}

func (q *quarantine) remove() { os.RemoveAll(q.dir) }

// migrate renames the quarantined objects into the repository: loose
// objects into their fan-out directories, packs with their index last (a
// reader finds a pack by its .idx).
func (q *quarantine) migrate() error {
	entries, err := os.ReadDir(q.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || len(e.Name()) != 2 || !isHex(e.Name()+"00") {
			continue
		}
		files, err := os.ReadDir(filepath.Join(q.dir, e.Name()))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			continue
		}
		dst := filepath.Join(q.objects, e.Name())
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		for _, f := range files {
			if err := moveObject(filepath.Join(q.dir, e.Name(), f.Name()), filepath.Join(dst, f.Name())); err != nil {
				return err
			}
		}
	}
	packs, err := os.ReadDir(filepath.Join(q.dir, "pack"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	names := make([]string, 0, len(packs))
	for _, p := range packs {
		names = append(names, p.Name())
	}
	// .idx after the .pack (and .rev) it indexes.
	slices.SortStableFunc(names, func(a, b string) int {
		ai, bi := strings.HasSuffix(a, ".idx"), strings.HasSuffix(b, ".idx")
		switch {
		case ai == bi:
			return strings.Compare(a, b)
		case ai:
			return 1
		}
		return -1
	})
	dst := filepath.Join(q.objects, "pack")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, name := range names {
		if err := moveObject(filepath.Join(q.dir, "pack", name), filepath.Join(dst, name)); err != nil {
			return err
		}
	}
	return nil
}

// moveObject renames src to dst unless dst exists (objects are named by
// their contents: the one there is the same).
func moveObject(src, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	return os.Rename(src, dst)
}
