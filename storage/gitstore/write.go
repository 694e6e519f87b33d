package gitstore

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Apply commits c: it builds the new tree in a private index file from the
// parent's tree, writes the commit, and moves the branch with a
// compare-and-swap (`git update-ref <ref> <new> <old>`), so concurrent
// writers never lose a commit: the loser gets forge.ErrConflict.
func (s *Store) Apply(ctx context.Context, repo forge.ID, c repos.ChangeSet) (*repos.Commit, error) {
	parent := ""
	if c.Branch != "" {
		id, err := s.Resolve(ctx, repo, "refs/heads/"+c.Branch)
		if err != nil {
			return nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", c.Branch)
		}
		if c.Parent != "" && c.Parent != id {
			return nil, forge.Errorf(forge.ErrConflict, "branch %s moved: it is at %s, not %s", c.Branch, id, c.Parent)
		}
		parent = id
	}
	index, err := os.CreateTemp("", "hearth-index-*")
	if err != nil {
		return nil, err
	}
	index.Close()
	os.Remove(index.Name()) // git wants to create it
	defer os.Remove(index.Name())
	env := []string{"GIT_INDEX_FILE=" + index.Name()}
	if parent != "" {
		if _, err := s.run(ctx, repo, nil, env, "read-tree", parent); err != nil {
			return nil, err
		}
	}
	// One `update-index --index-info` call: "<mode> <id>\t<path>" adds or
	// replaces, mode 0 with the zero id removes. Only a commit with a parent
	// can remove anything, and the parent's id has the format's length.
	zero := strings.Repeat("0", 40)
	if len(parent) == 64 {
		zero = strings.Repeat("0", 64)
	}
	var info strings.Builder
	for _, f := range c.Files {
		p := strings.Trim(path.Clean("/"+f.Path), "/")
		if p == "" || p == ".git" || strings.HasPrefix(p, ".git/") || strings.ContainsAny(p, "\x00\n") {
			return nil, forge.Errorf(forge.ErrInvalid, "invalid file path %q", f.Path)
		}
		switch f.Op {
		case "delete":
			info.WriteString("0 " + zero + "\t" + p + "\n")
		case "create", "update":
			if f.FromPath != "" && f.FromPath != p {
				info.WriteString("0 " + zero + "\t" + strings.Trim(path.Clean("/"+f.FromPath), "/") + "\n")
			}
			out, err := s.run(ctx, repo, f.Content, nil, "hash-object", "-w", "--stdin")
			if err != nil {
				return nil, err
			}
			oid := strings.TrimSpace(string(out))
			info.WriteString("100644 " + oid + "\t" + p + "\n")
		default:
			return nil, forge.Errorf(forge.ErrInvalid, "unknown file operation %q", f.Op)
		}
	}
	if _, err := s.run(ctx, repo, []byte(info.String()), env, "update-index", "--index-info"); err != nil {
		return nil, err
	}
	out, err := s.run(ctx, repo, nil, env, "write-tree")
	if err != nil {
		return nil, err
	}
	tree := strings.TrimSpace(string(out))
	args := []string{"commit-tree", tree, "-F", "-"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	when := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	cenv := []string{
		"GIT_AUTHOR_NAME=" + c.Author.Name, "GIT_AUTHOR_EMAIL=" + c.Author.Email, "GIT_AUTHOR_DATE=" + when(c.Author.When),
		"GIT_COMMITTER_NAME=" + c.Committer.Name, "GIT_COMMITTER_EMAIL=" + c.Committer.Email, "GIT_COMMITTER_DATE=" + when(c.Committer.When),
	}
	out, err = s.run(ctx, repo, []byte(c.Message), cenv, args...)
	if err != nil {
		return nil, err
	}
	commit := strings.TrimSpace(string(out))
	target, old := c.Branch, parent
	if c.NewBranch != "" {
		target, old = c.NewBranch, ""
	}
	if err := s.SetRef(ctx, repo, "refs/heads/"+target, commit, old); err != nil {
		return nil, err
	}
	list, err := s.Log(ctx, repo, repos.LogOptions{Rev: commit, Limit: 1, Files: true})
	if err != nil || len(list) == 0 {
		return nil, errors.Join(err, errors.New("gitstore: new commit not found"))
	}
	return list[0], nil
}

// SetRef points ref at newID, or deletes it when newID is "", only if it
// still points at oldID ("" meaning it must not exist, "*" anything).
func (s *Store) SetRef(ctx context.Context, repo forge.ID, ref, newID, oldID string) error {
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return forge.Errorf(forge.ErrInvalid, "invalid reference name %q", ref)
	}
	if _, err := s.run(ctx, repo, nil, nil, "check-ref-format", ref); err != nil {
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

// Archive writes a "zip" or "tar.gz" archive of rev to w.
func (s *Store) Archive(ctx context.Context, repo forge.ID, rev, format, prefix string, w io.Writer) error {
	if format != "zip" && format != "tar.gz" {
		return forge.Errorf(forge.ErrInvalid, "unknown archive format %q", format)
	}
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return err
	}
	c := s.cmd(ctx, repo, nil, "archive", "--format="+format, "--prefix="+prefix+"/", id)
	c.Stdout = w
	return c.Run()
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
	out, err := s.run(ctx, repo, nil, nil, args...)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
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
	if _, err := s.run(ctx, to, nil, nil, "remote", "remove", "origin"); err != nil {
		return err
	}
	_, err := s.run(ctx, to, nil, nil, "config", "http.receivepack", "true")
	return err
}
