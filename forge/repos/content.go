package repos

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Contents is what lies at a path: a file with its content, or a directory
// with its entries.
type Contents struct {
	Ref        string
	Entry      *TreeEntry
	Content    []byte      // files
	Entries    []TreeEntry // directories
	LastCommit string
}

// GetContents reads path at ref ("" is the default branch).
func (s *Service) GetContents(ctx context.Context, actor forge.Actor, owner, name, path, ref string) (*View, *Contents, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if ref == "" {
		ref = v.Repo.DefaultBranch
	}
	path = strings.Trim(path, "/")
	e, err := s.git.Entry(ctx, v.Repo.ID, ref, path)
	if err != nil {
		return nil, nil, err
	}
	c := &Contents{Ref: ref, Entry: e}
	switch e.Type {
	case "tree":
		if c.Entries, err = s.git.Tree(ctx, v.Repo.ID, ref, path, false); err != nil {
			return nil, nil, err
		}
	case "blob":
		if c.Content, err = s.git.Blob(ctx, v.Repo.ID, e.ID); err != nil {
			return nil, nil, err
		}
	}
	if log, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: ref, Path: path, Limit: 1}); err == nil && len(log) > 0 {
		c.LastCommit = log[0].ID
	}
	return v, c, nil
}

// LastCommit returns the last commit touching path at ref.
func (s *Service) LastCommit(ctx context.Context, repo forge.ID, ref, path string) (string, error) {
	log, err := s.git.Log(ctx, repo, LogOptions{Rev: ref, Path: path, Limit: 1})
	if err != nil || len(log) == 0 {
		return "", err
	}
	return log[0].ID, nil
}

// FileChange is one file of ChangeFiles.
type FileChange struct {
	Op       string // "create", "update", "delete"
	Path     string
	Content  []byte
	FromPath string
	// SHA is the blob id the file must have now (update and delete).
	SHA string
}

// ChangeFilesOptions are Forgejo's file-change options.
type ChangeFilesOptions struct {
	Files     []FileChange
	Message   string
	Branch    string // "" is the default branch
	NewBranch string
	Author    Signature
	Committer Signature
}

// ChangeFiles commits file changes. Writers only, not archived; protected
// branches need push rights (forge.ErrForbidden). Errors, with Forgejo's
// messages: forge.ErrInvalid `repository file already exists [path: p]`,
// `sha does not match [given: x, expected: y]`; forge.ErrNotFound
// `repository file does not exist [path: p]`; forge.ErrConflict when the
// branch moved meanwhile or NewBranch exists.
func (s *Service) ChangeFiles(ctx context.Context, actor forge.Actor, owner, name string, o ChangeFilesOptions) (*View, *Commit, error) {
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if o.Branch == "" {
		o.Branch = v.Repo.DefaultBranch
	}
	parent := ""
	if id, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+o.Branch); err == nil {
		parent = id
	} else if !v.Repo.Empty {
		return nil, nil, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", o.Branch)
	}
	target := o.Branch
	if o.NewBranch != "" {
		target = o.NewBranch
		if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+o.NewBranch); err == nil {
			return nil, nil, forge.Errorf(forge.ErrConflict, "branch already exists [name: %s]", o.NewBranch)
		}
	}
	rules, err := s.rules(ctx, v.Repo.ID)
	if err != nil {
		return nil, nil, err
	}
	if !canPush(ProtectionFor(rules, target), actor, v) {
		return nil, nil, forge.Errorf(forge.ErrForbidden, "user should have a permission to write to this branch")
	}
	var ops []FileOp
	for _, f := range o.Files {
		p := strings.Trim(f.Path, "/")
		var cur *TreeEntry
		if parent != "" {
			if cur, err = s.git.Entry(ctx, v.Repo.ID, parent, p); err != nil && !errors.Is(err, forge.ErrNotFound) {
				return nil, nil, err
			}
		}
		switch f.Op {
		case "create":
			if cur != nil {
				return nil, nil, forge.Errorf(forge.ErrInvalid, "repository file already exists [path: %s]", p)
			}
		case "update", "delete":
			src := cur
			if f.Op == "update" && f.FromPath != "" && f.FromPath != p && parent != "" {
				if src, err = s.git.Entry(ctx, v.Repo.ID, parent, f.FromPath); err != nil && !errors.Is(err, forge.ErrNotFound) {
					return nil, nil, err
				}
			}
			if src == nil || src.Type != "blob" {
				return nil, nil, forge.Errorf(forge.ErrNotFound, "repository file does not exist [path: %s]", p)
			}
			if f.SHA != src.ID {
				return nil, nil, forge.Errorf(forge.ErrInvalid, "sha does not match [given: %s, expected: %s]", f.SHA, src.ID)
			}
		default:
			return nil, nil, forge.Errorf(forge.ErrInvalid, "unknown operation %q", f.Op)
		}
		ops = append(ops, FileOp{Op: f.Op, Path: p, Content: f.Content, FromPath: f.FromPath})
	}
	now := s.clock.Now()
	if o.Author.Name == "" {
		o.Author = Signature{Name: actor.User.Name, Email: actor.User.Email}
	}
	if o.Committer.Name == "" {
		o.Committer = o.Author
	}
	if o.Author.When.IsZero() {
		o.Author.When = now
	}
	if o.Committer.When.IsZero() {
		o.Committer.When = now
	}
	cs := ChangeSet{Parent: parent, Message: o.Message, Author: o.Author, Committer: o.Committer, Files: ops}
	if parent != "" {
		cs.Branch = o.Branch
	}
	if o.NewBranch != "" || parent == "" {
		cs.NewBranch = target
	}
	c, err := s.git.Apply(ctx, v.Repo.ID, cs)
	if err != nil {
		return nil, nil, err
	}
	if err := s.refresh(ctx, v.Repo.ID); err != nil {
		return nil, nil, err
	}
	return v, c, nil
}

// Commits lists commits of owner/name (o.Rev "" is the default branch) and
// the number of all of them.
func (s *Service) Commits(ctx context.Context, actor forge.Actor, owner, name string, o LogOptions) (*View, []*Commit, int, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	if v.Repo.Empty {
		return v, nil, 0, forge.Errorf(forge.ErrConflict, "Git Repository is empty.")
	}
	if o.Rev == "" {
		o.Rev = v.Repo.DefaultBranch
	}
	total, err := s.git.CountCommits(ctx, v.Repo.ID, o.Rev, o.Path)
	if err != nil {
		return nil, nil, 0, err
	}
	list, err := s.git.Log(ctx, v.Repo.ID, o)
	return v, list, total, err
}

// Commit returns one commit by revision, with its files if asked.
func (s *Service) Commit(ctx context.Context, actor forge.Actor, owner, name, rev string, files bool) (*View, *Commit, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	list, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: rev, Limit: 1, Files: files})
	if err != nil {
		return nil, nil, err
	}
	if len(list) == 0 {
		return nil, nil, forge.Errorf(forge.ErrNotFound, "commit does not exist [id: %s]", rev)
	}
	return v, list[0], nil
}

// Refs lists branches and tags.
func (s *Service) Refs(ctx context.Context, actor forge.Actor, owner, name string) (*View, []Ref, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	refs, err := s.git.Refs(ctx, v.Repo.ID)
	return v, refs, err
}

// Tree lists a tree by id or revision.
func (s *Service) Tree(ctx context.Context, actor forge.Actor, owner, name, rev string, recursive bool) (*View, string, []TreeEntry, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", nil, err
	}
	// A tree id is not a commit-ish: Git.Tree lists it directly.
	if typ, _, err := s.git.Object(ctx, v.Repo.ID, rev); err == nil && typ == "tree" {
		entries, err := s.git.Tree(ctx, v.Repo.ID, rev, "", recursive)
		return v, rev, entries, err
	}
	root, err := s.git.Entry(ctx, v.Repo.ID, rev, "")
	if err != nil {
		return nil, "", nil, err
	}
	entries, err := s.git.Tree(ctx, v.Repo.ID, rev, "", recursive)
	return v, root.ID, entries, err
}

// Blob returns a blob by id.
func (s *Service) Blob(ctx context.Context, actor forge.Actor, owner, name, oid string) (*View, []byte, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.git.Blob(ctx, v.Repo.ID, oid)
	return v, b, err
}

// Archive writes an archive ("zip" or "tar.gz") of ref to w.
func (s *Service) Archive(ctx context.Context, actor forge.Actor, owner, name, ref, format string, w io.Writer) error {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	return s.git.Archive(ctx, v.Repo.ID, ref, format, v.Repo.Name, w)
}

// Patch writes commit rev as a "diff" or "patch" to w.
func (s *Service) Patch(ctx context.Context, actor forge.Actor, owner, name, rev, kind string, w io.Writer) error {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	return s.git.Patch(ctx, v.Repo.ID, rev, kind, w)
}
