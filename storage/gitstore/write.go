package gitstore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Apply commits c: it builds the new tree in a private index file (in the
// data directory, removed afterwards) from the branch's tree, writes the
// commit, and moves the branch with a compare-and-swap
// (`git update-ref <ref> <new> <old>`). Writes to one repository are
// serialised by a per-repository lock; when the branch moved since
// c.Parent (another writer, a push), every file's precondition is checked
// again on the new tip with repos.CheckFileOp and the change is committed
// there, so independent writes all succeed and a dependent one fails with
// the error Forgejo gives for it.
func (s *Store) Apply(ctx context.Context, repo forge.ID, c repos.ChangeSet) (*repos.Commit, error) {
	for _, f := range c.Files {
		if err := checkOpPaths(f); err != nil {
			return nil, err
		}
	}
	return s.commitOnBranch(ctx, repo, c.Branch, c.NewBranch, c.Message, c.Author, c.Committer, func(parent string) (string, error) {
		if c.Parent != "" && parent != "" && c.Parent != parent {
			for _, f := range c.Files {
				if err := repos.CheckFileOp(ctx, s, repo, parent, f); err != nil {
					return "", err
				}
			}
		}
		return s.commit(ctx, repo, parent, c)
	})
}

// commitOnBranch makes a commit with build on the tip of branch ("" for a
// root commit) and moves branch to it (or creates newBranch) with a
// compare-and-swap, under the repository's write lock: when a push moved
// the branch between the read of its tip and update-ref, build runs again
// on the new tip (a few times at most). build returns the id of the
// commit it wrote on parent. The answer describes the commit.
func (s *Store) commitOnBranch(ctx context.Context, repo forge.ID, branch, newBranch, message string, author, committer repos.Signature,
	build func(parent string) (string, error)) (*repos.Commit, error) {
	unlock := s.lock(repo)
	defer unlock()
	const attempts = 4
	for attempt := 1; ; attempt++ {
		parent := ""
		if branch != "" {
			id, err := s.Resolve(ctx, repo, "refs/heads/"+branch)
			if err != nil {
				return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", branch)
			}
			parent = id
		}
		commit, err := build(parent)
		if err != nil {
			return nil, err
		}
		target, old := branch, parent
		if newBranch != "" {
			target, old = newBranch, ""
		}
		err = s.SetRef(ctx, repo, "refs/heads/"+target, commit, old)
		if errors.Is(err, forge.ErrConflict) && newBranch == "" && attempt < attempts {
			// A push moved the branch between Resolve and update-ref.
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.describe(ctx, repo, commit, parent, message, author, committer), nil
	}
}

// describe is the commit a write just made, with its files: the branch
// moved, so the write succeeded whatever happens to the description (what
// the write knows of the commit when git cannot read it back).
func (s *Store) describe(ctx context.Context, repo forge.ID, commit, parent, message string, author, committer repos.Signature) *repos.Commit {
	list, err := s.Log(ctx, repo, repos.LogOptions{Rev: commit, Limit: 1, Files: true})
	if err != nil || len(list) == 0 {
		parents := []string{}
		if parent != "" {
			parents = []string{parent}
		}
		return &repos.Commit{ID: commit, Parents: parents, Author: author, Committer: committer, Message: message,
			Files: []repos.FileChangeStat{}}
	}
	return list[0]
}

// checkOpPaths refuses a path of f that repos.CleanTreePath does not
// accept as it is.
func checkOpPaths(f repos.FileOp) error {
	paths := []string{f.Path}
	if f.FromPath != "" {
		paths = append(paths, f.FromPath)
	}
	for _, p := range paths {
		if err := repos.CheckCleanPath(p); err != nil {
			return err
		}
	}
	return nil
}

// commit writes the commit of c on parent ("" for a root commit) and
// returns its id. The index file lives in the data directory and is removed.
func (s *Store) commit(ctx context.Context, repo forge.ID, parent string, c repos.ChangeSet) (string, error) {
	env, done, err := s.tempIndex(ctx, repo, parent)
	if err != nil {
		return "", err
	}
	defer done()
	// One `update-index -z --index-info` call: "<mode> <id>\t<path>\0" adds
	// or replaces, mode 0 with the zero id removes. NUL-terminated records:
	// no path can inject another entry. Only a commit with a parent can
	// remove anything, and the parent's id has the format's length.
	zero := strings.Repeat("0", 40)
	if len(parent) == 64 {
		zero = strings.Repeat("0", 64)
	}
	var info strings.Builder
	for _, f := range c.Files {
		switch f.Op {
		case "delete":
			info.WriteString("0 " + zero + "\t" + f.Path + "\x00")
		case "create", "update":
			if f.FromPath != "" && f.FromPath != f.Path {
				info.WriteString("0 " + zero + "\t" + f.FromPath + "\x00")
			}
			out, err := s.run(ctx, repo, f.Content, nil, "hash-object", "-w", "--stdin")
			if err != nil {
				return "", err
			}
			info.WriteString("100644 " + strings.TrimSpace(string(out)) + "\t" + f.Path + "\x00")
		default:
			return "", forge.Errorf(forge.ErrInvalid, "unknown file operation %q", f.Op)
		}
	}
	// git drops a path its verify_path refuses with "Ignoring path" on
	// stderr and exit status 0: any such line fails the commit, which is
	// then never made (CleanTreePath refuses these paths first).
	stderr, err := s.runStderr(ctx, repo, []byte(info.String()), env,
		"-c", "core.protectNTFS=true", "-c", "core.protectHFS=true", "update-index", "-z", "--index-info")
	if err != nil {
		return "", err
	}
	if i := strings.Index(stderr, "Ignoring path"); i >= 0 {
		line, _, _ := strings.Cut(stderr[i:], "\n")
		return "", forge.Errorf(forge.ErrInvalid, "path contains a malformed path component [path: %s]",
			strings.TrimSpace(strings.TrimPrefix(line, "Ignoring path")))
	}
	return s.commitIndex(ctx, repo, env, parent, c.Message, c.Author, c.Committer)
}

// tempIndex is a private index file in the data directory holding the tree
// of parent ("" for none): the environment that names it, and done, which
// removes it.
func (s *Store) tempIndex(ctx context.Context, repo forge.ID, parent string) (env []string, done func(), err error) {
	dir, err := s.tmpDir()
	if err != nil {
		return nil, nil, err
	}
	index, err := os.CreateTemp(dir, "index-*")
	if err != nil {
		return nil, nil, err
	}
	index.Close()
	os.Remove(index.Name()) // git wants to create it
	done = func() {
		os.Remove(index.Name())
		os.Remove(index.Name() + ".lock")
	}
	env = []string{"GIT_INDEX_FILE=" + index.Name()}
	if parent != "" {
		if _, err := s.run(ctx, repo, nil, env, "read-tree", parent); err != nil {
			done()
			return nil, nil, err
		}
	}
	return env, done, nil
}

// commitIndex writes the tree of the index env names and a commit of it on
// parent ("" for a root commit), and returns the commit's id.
func (s *Store) commitIndex(ctx context.Context, repo forge.ID, env []string, parent, message string, author, committer repos.Signature) (string, error) {
	out, err := s.run(ctx, repo, nil, env, "write-tree")
	if err != nil {
		return "", err
	}
	tree := strings.TrimSpace(string(out))
	args := []string{"commit-tree", tree, "-F", "-"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	if err := repos.CheckSignature("author", author); err != nil {
		return "", err
	}
	if err := repos.CheckSignature("committer", committer); err != nil {
		return "", err
	}
	if strings.ContainsRune(message, 0) {
		return "", forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	out, err = s.run(ctx, repo, []byte(message), identityEnv(author, committer), args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// identityEnv is the author and committer of a git write as environment
// variables: identities reach git that way, messages on stdin, so nothing
// a user writes is ever an option.
func identityEnv(author, committer repos.Signature) []string {
	when := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	return []string{
		"GIT_AUTHOR_NAME=" + author.Name, "GIT_AUTHOR_EMAIL=" + author.Email, "GIT_AUTHOR_DATE=" + when(author.When),
		"GIT_COMMITTER_NAME=" + committer.Name, "GIT_COMMITTER_EMAIL=" + committer.Email, "GIT_COMMITTER_DATE=" + when(committer.When),
	}
}

// SetRef points ref at newID, or deletes it when newID is "", only if it
// still points at oldID ("" meaning it must not exist, "*" anything).
func (s *Store) SetRef(ctx context.Context, repo forge.ID, ref, newID, oldID string) error {
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return forge.Errorf(forge.ErrInvalid, "invalid reference name %q", ref)
	}
	if _, err := s.run(ctx, 0, nil, nil, "check-ref-format", ref); err != nil {
		return forge.Errorf(forge.ErrInvalid, "invalid reference name %q", ref)
	}
	var args []string
	switch {
	case newID == "" && oldID == "*":
		args = []string{"update-ref", "-d", ref}
	case newID == "":
		args = []string{"update-ref", "-d", ref, oldID}
	case oldID == "*":
		args = []string{"update-ref", ref, newID}
	default:
		args = []string{"update-ref", ref, newID, oldID}
	}
	if _, err := s.run(ctx, repo, nil, nil, args...); err != nil {
		var ge *gitError
		if errors.As(err, &ge) {
			return forge.Errorf(forge.ErrConflict, "reference %s was not updated: %s", ref, strings.TrimSpace(ge.stderr))
		}
		return err
	}
	return nil
}

// Patch writes the change of commit rev as a "diff" or a "patch" to w.
func (s *Store) Patch(ctx context.Context, repo forge.ID, rev, kind string, w io.Writer) error {
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return err
	}
	var args []string
	switch kind {
	case "diff":
		args = []string{"diff-tree", "-p", "--root", "--no-commit-id", "--no-color", "--first-parent", id}
	case "patch":
		args = []string{"format-patch", "--stdout", "--no-color", "--root", "-1", id}
	default:
		return forge.Errorf(forge.ErrNotFound, "unknown diff type %q", kind)
	}
	return s.stream(ctx, repo, w, args...)
}

// stream runs git with its stdout copied to w as it comes (never held
// whole in memory); stderr is kept for the error, up to 64 KiB.
func (s *Store) stream(ctx context.Context, repo forge.ID, w io.Writer, args ...string) error {
	if _, err := os.Stat(s.Path(repo)); errors.Is(err, fs.ErrNotExist) {
		return forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
	}
	c := s.cmd(ctx, repo, nil, args...)
	stderr := &limitedBuffer{}
	c.Stdout, c.Stderr = w, stderr
	if err := c.Run(); err != nil {
		return &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return nil
}

// Fork creates repository to as a bare copy of every branch and tag of from.
func (s *Store) Fork(ctx context.Context, from, to forge.ID) error {
	if _, err := os.Stat(s.Path(from)); err != nil {
		return forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", from)
	}
	if _, err := os.Stat(s.Path(to)); err == nil {
		return forge.Errorf(forge.ErrConflict, "repository files already exist [id: %d]", to)
	}
	if _, err := s.run(ctx, 0, nil, nil, "clone", "--quiet", "--bare", "--no-local", s.Path(from), s.Path(to)); err != nil {
		os.RemoveAll(s.Path(to))
		return err
	}
	_, err := s.run(ctx, to, nil, nil, "remote", "remove", "origin")
	return err
}
