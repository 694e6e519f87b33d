package repos

import (
	"cmp"
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Contents is what lies at a path: a file with its content, or a directory
// with its entries.
type Contents struct {
	Ref   string
	Entry *TreeEntry
	// Content of a file; nil for a file larger than Config.MaxBlobSize
	// (read it with OpenRaw).
	Content []byte
	Entries []TreeEntry // directories
	// LastCommit is the last commit touching the path.
	LastCommit string
	// LastCommitWhen is LastCommit's committer time (zero if none).
	LastCommitWhen time.Time
	// EntryCommits maps each entry name of a directory to the last commit
	// touching it (computed in one history walk), and EntryWhen to that
	// commit's committer time: no caller looks a commit up per entry.
	EntryCommits map[string]string
	EntryWhen    map[string]time.Time
}

// GetContents reads path at ref ("" is the default branch). Readers only
// (forge.ErrNotFound otherwise); a token needs read:repository.
func (s *Service) GetContents(ctx context.Context, actor forge.Actor, owner, name, path, ref string) (*View, *Contents, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if path, err = cleanReadPath(path); err != nil {
		return nil, nil, err
	}
	rr, err := s.resolveRef(ctx, v, ref, false)
	if err != nil {
		return nil, nil, err
	}
	ref, rev := cmp.Or(ref, v.Repo.DefaultBranch), rr.Commit
	c, err := s.contentsAt(ctx, v, ref, rev, path)
	if err != nil {
		return nil, nil, err
	}
	if log, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: rev, Path: path, Limit: 1}); err == nil && len(log) > 0 {
		c.LastCommit, c.LastCommitWhen = log[0].ID, log[0].Committer.When.UTC()
	}
	return v, c, nil
}

// contentsAt is what lies at path in commit rev of v's repository (named
// ref), without its last commit.
func (s *Service) contentsAt(ctx context.Context, v *View, ref, rev, path string) (*Contents, error) {
	e, err := s.git.Entry(ctx, v.Repo.ID, rev, path)
	if err != nil {
		return nil, err
	}
	c := &Contents{Ref: ref, Entry: e}
	switch e.Type {
	case "tree":
		if c.Entries, err = s.git.Tree(ctx, v.Repo.ID, rev, path, false); err != nil {
			return nil, err
		}
		names := make([]string, len(c.Entries))
		for i, en := range c.Entries {
			names[i] = en.Name
		}
		if c.EntryCommits, err = s.git.LastCommits(ctx, v.Repo.ID, rev, path, names); err != nil {
			return nil, err
		}
		if c.EntryWhen, err = s.commitTimes(ctx, v.Repo.ID, c.EntryCommits); err != nil {
			return nil, err
		}
	case "blob":
		if e.Size <= s.maxBlobSize() {
			if c.Content, err = s.git.Blob(ctx, v.Repo.ID, e.ID); err != nil {
				return nil, err
			}
			if c.Content == nil {
				c.Content = []byte{}
			}
		}
	}
	return c, nil
}

// commitTimes maps each name of commits to the committer time of its
// commit, reading each distinct commit once from git (no store query).
func (s *Service) commitTimes(ctx context.Context, repo forge.ID, commits map[string]string) (map[string]time.Time, error) {
	when := map[string]time.Time{}
	for _, id := range commits {
		if _, ok := when[id]; ok || id == "" {
			continue
		}
		log, err := s.git.Log(ctx, repo, LogOptions{Rev: id, Limit: 1})
		if err != nil {
			return nil, err
		}
		if len(log) > 0 {
			when[id] = log[0].Committer.When.UTC()
		}
	}
	out := make(map[string]time.Time, len(commits))
	for name, id := range commits {
		if t, ok := when[id]; ok {
			out[name] = t
		}
	}
	return out, nil
}

// OpenRaw streams the file at path in ref: its entry and a reader the
// caller closes. Without ref, a leading branch, tag or commit id in path is
// the revision, as Forgejo still reads /raw/{ref}/{path} (refInPath), and
// else the default branch is. Readers only; forge.ErrNotFound for a
// directory or a missing path.
func (s *Service) OpenRaw(ctx context.Context, actor forge.Actor, owner, name, path, ref string) (*View, *TreeEntry, io.ReadCloser, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if ref == "" {
		if ref, path, err = s.refInPath(ctx, v, path); err != nil {
			return nil, nil, nil, err
		}
	}
	if path, err = cleanReadPath(path); err != nil {
		return nil, nil, nil, err
	}
	rr, err := s.resolveRef(ctx, v, ref, false)
	if err != nil {
		return nil, nil, nil, err
	}
	ref = cmp.Or(ref, v.Repo.DefaultBranch)
	e, err := s.git.Entry(ctx, v.Repo.ID, rr.Commit, path)
	if err != nil {
		return nil, nil, nil, err
	}
	if e.Type != "blob" {
		return nil, nil, nil, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s, rel_path: %s]", ref, path)
	}
	r, size, err := s.git.OpenBlob(ctx, v.Repo.ID, e.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	e.Size = size
	return v, e, r, nil
}

// LastCommit returns the last commit touching path at ref ("" is the
// default branch) of owner/name. Readers only.
func (s *Service) LastCommit(ctx context.Context, actor forge.Actor, owner, name, ref, path string) (string, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return "", err
	}
	if path, err = cleanReadPath(path); err != nil {
		return "", err
	}
	rr, err := s.resolveRef(ctx, v, ref, false)
	if err != nil {
		return "", err
	}
	log, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: rr.Commit, Path: path, Limit: 1})
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
// branches need push rights (forge.ErrForbidden); a token needs
// write:repository. Every path (and from_path) is cleaned once with
// CleanTreePath (as Forgejo: `x/../docs/f` is `docs/f`), and the cleaned
// path is the one checked and written. Errors, with Forgejo's messages
// (all forge.ErrInvalid, 422, unless said): `path contains a malformed path
// component [path: p]`; `repository file already exists [path: p]` (a
// create over a file, or a move onto one); `a file exists where you’re
// trying to create a subdirectory [path: p]`; `a directory exists where
// you’re trying to create a file [path: p]`; `sha does not match [given: x,
// expected: y]`; forge.ErrNotFound `repository file does not exist [path:
// p]`; more than Config.MaxFilesPerCommit files; an author or committer
// CheckSignature refuses; forge.ErrConflict when NewBranch exists.
// Concurrent writes to one branch are serialised by Git.Apply: independent
// ones all succeed. Besides the repository (as stored after the commit)
// and the commit, it returns what each of o.Files holds at the commit, in
// their order (as GetContents at the commit reads it, the commit as
// LastCommit), read with the view the write resolved: nil for a deletion,
// and for a file that could not be read back (logged: the commit landed,
// and is never answered as a failure).
func (s *Service) ChangeFiles(ctx context.Context, actor forge.Actor, owner, name string, o ChangeFilesOptions) (*View, *Commit, []*Contents, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, nil, err
	}
	if len(o.Files) == 0 {
		return nil, nil, nil, forge.Errorf(forge.ErrInvalid, "no files to change")
	}
	if limit := cmp.Or(s.cfg.MaxFilesPerCommit, DefaultMaxFilesPerCommit); len(o.Files) > limit {
		return nil, nil, nil, forge.Errorf(forge.ErrInvalid, "too many files in one commit [files: %d, limit: %d]", len(o.Files), limit)
	}
	if err := CheckSignature("author", o.Author); err != nil {
		return nil, nil, nil, err
	}
	if err := CheckSignature("committer", o.Committer); err != nil {
		return nil, nil, nil, err
	}
	// Paths first: a NUL in a path reports the path (a default message
	// built from the path holds the NUL too).
	ops, err := cleanFileOps(o.Files)
	if err != nil {
		return nil, nil, nil, err
	}
	if strings.ContainsRune(o.Message, 0) {
		return nil, nil, nil, forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, nil, err
	}
	// The commit's bytes are held from the check until its size is
	// measured (refreshed, below), so concurrent writers of one owner
	// cannot all pass a check their sum fails.
	held, err := s.reserveQuota(ctx, v.Repo, contentsEstimate(ops))
	if err != nil {
		return nil, nil, nil, err
	}
	keep := false // a commit whose size was not measured keeps it until it expires
	defer func() {
		if !keep {
			s.releaseQuota(context.WithoutCancel(ctx), held)
		}
	}()
	bw, err := s.checkBranchWrite(ctx, actor, v, o.Branch, o.NewBranch)
	if err != nil {
		return nil, nil, nil, err
	}
	parent, target := bw.parent, bw.target
	for _, op := range ops {
		if err := CheckFileOp(ctx, s.git, v.Repo.ID, parent, op); err != nil {
			return nil, nil, nil, err
		}
	}
	o.Author, o.Committer = s.commitSignatures(actor, o.Author, o.Committer)
	cs := ChangeSet{Parent: parent, Message: o.Message, Author: o.Author, Committer: o.Committer, Files: ops}
	if parent != "" {
		cs.Branch = bw.branch
	}
	if o.NewBranch != "" || parent == "" {
		cs.NewBranch = target
	}
	c, err := s.git.Apply(ctx, v.Repo.ID, cs)
	if err != nil {
		return nil, nil, nil, err
	}
	fresh, ok := s.landed(ctx, actor, v, target, cs.NewBranch != "", c)
	keep = !ok
	return fresh, c, s.written(ctx, v, target, c, ops), nil
}

// branchWrite is the branch a commit made through the API (ChangeFiles,
// ApplyPatch) starts from and the one it moves or creates.
type branchWrite struct {
	branch string // the branch the commit starts from
	target string // the branch it moves (branch) or creates (a new branch)
	parent string // branch's tip; "" in an empty repository
}

// checkBranchWrite checks a commit of the actor on branch ("" is the
// default branch) of v, or on newBranch created from it, as every commit
// through the API is checked: branch must exist (forge.ErrNotFound `branch
// does not exist [name: b]`, unless the repository is empty), newBranch
// must be a valid name and not exist (forge.ErrConflict `branch already
// exists [name: b]`), and the branch rules (protection) must let the
// actor move or create the target (forge.ErrForbidden `user should have a
// permission to write to this branch`).
func (s *Service) checkBranchWrite(ctx context.Context, actor forge.Actor, v *View, branch, newBranch string) (branchWrite, error) {
	bw := branchWrite{branch: cmp.Or(branch, v.Repo.DefaultBranch)}
	if id, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+bw.branch); err == nil {
		bw.parent = id
	} else if !v.Repo.Empty {
		return bw, forge.Errorf(forge.ErrNotFound, "branch does not exist [name: %s]", bw.branch)
	}
	bw.target = bw.branch
	if newBranch != "" {
		if err := checkBranchName("NewBranch", newBranch); err != nil {
			return bw, err
		}
		bw.target = newBranch
		if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+newBranch); err == nil {
			return bw, forge.Errorf(forge.ErrConflict, "branch already exists [name: %s]", newBranch)
		}
	}
	// The one rule that guards every ref change: a content write moves
	// (or creates) the target branch.
	newID := "1" // a non-zero placeholder: the commit does not exist yet
	if _, err := s.checkRefChange(ctx, actor, v, false, RefUpdate{Ref: "refs/heads/" + bw.target, OldID: bw.parent, NewID: newID}); err != nil {
		var refused *RefChangeError
		if errors.As(err, &refused) {
			return bw, forge.Errorf(forge.ErrForbidden, "user should have a permission to write to this branch")
		}
		return bw, err
	}
	return bw, nil
}

// commitSignatures are the author and committer of a commit of the actor
// through the API: an author without a name is the actor, a committer
// without one the author, and a missing date now.
func (s *Service) commitSignatures(actor forge.Actor, author, committer Signature) (Signature, Signature) {
	now := s.clock.Now()
	if author.Name == "" {
		author = Signature{Name: actor.User.Name, Email: actor.User.Email, When: author.When}
	}
	if committer.Name == "" {
		committer = Signature{Name: author.Name, Email: author.Email, When: committer.When}
	}
	if author.When.IsZero() {
		author.When = now
	}
	if committer.When.IsZero() {
		committer.When = now
	}
	return author, committer
}

// landed follows a commit c made through the API on branch target
// (created: a new branch): it is recorded as a push of target would be
// (the branch's previous tip is the commit's parent: the write may have
// committed on a newer tip than the one checked), and the repository is
// read again as stored after it. A failure to record it or to refresh the
// cached state (size, emptiness) is logged, never reported as a failed
// write; ok is false when the repository could not be read again (v is
// returned, and the quota reservation of the commit is kept until it
// expires, since its size was not measured).
func (s *Service) landed(ctx context.Context, actor forge.Actor, v *View, target string, created bool, c *Commit) (fresh *View, ok bool) {
	u := RefUpdate{Ref: "refs/heads/" + target, NewID: c.ID}
	if !created && len(c.Parents) > 0 {
		u.OldID = c.Parents[0]
	}
	if err := s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID, updates: []RefUpdate{u}}); err != nil {
		s.log.ErrorContext(ctx, "ref move after commit", "repo", v.Repo.ID, "commit", c.ID, "err", err)
	}
	fresh, err := s.reloaded(ctx, v)
	if err != nil {
		s.log.ErrorContext(ctx, "reload after commit", "repo", v.Repo.ID, "commit", c.ID, "err", err)
		return v, false
	}
	return fresh, true
}

// written is what each of ops holds at commit c on branch ref, for
// ChangeFiles' answer: nil for a deletion or a file not read back.
func (s *Service) written(ctx context.Context, v *View, ref string, c *Commit, ops []FileOp) []*Contents {
	out := make([]*Contents, len(ops))
	for i, op := range ops {
		if op.Op == "delete" {
			continue
		}
		ct, err := s.contentsAt(ctx, v, ref, c.ID, op.Path)
		if err != nil {
			s.log.ErrorContext(ctx, "contents after commit", "repo", v.Repo.ID, "commit", c.ID, "path", op.Path, "err", err)
			continue
		}
		ct.LastCommit, ct.LastCommitWhen = c.ID, c.Committer.When.UTC()
		out[i] = ct
	}
	return out
}

// cleanFileOps checks every path of files once (CleanTreePath) and returns
// the operations with the paths as they will be written. Two operations on
// one path, or on a path and a path below it, are refused.
func cleanFileOps(files []FileChange) ([]FileOp, error) {
	ops := make([]FileOp, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		switch f.Op {
		case "create", "update", "delete":
		default:
			return nil, forge.Errorf(forge.ErrInvalid, "unknown operation %q", f.Op)
		}
		p, err := CleanTreePath(f.Path)
		if err != nil {
			return nil, err
		}
		from := ""
		if f.FromPath != "" && f.Op == "update" {
			if from, err = CleanTreePath(f.FromPath); err != nil {
				return nil, err
			}
			if from == p {
				from = ""
			}
		}
		for _, q := range []string{p, from} {
			if q == "" {
				continue
			}
			if seen[q] {
				return nil, forge.Errorf(forge.ErrInvalid, "path is invalid [path: %s]", q)
			}
			seen[q] = true
		}
		ops = append(ops, FileOp{Op: f.Op, Path: p, Content: f.Content, FromPath: from, SHA: f.SHA})
	}
	for q := range seen {
		for dir := q; strings.Contains(dir, "/"); {
			dir = dir[:strings.LastIndex(dir, "/")]
			if seen[dir] {
				return nil, forge.Errorf(forge.ErrInvalid, "a file exists where you’re trying to create a subdirectory [path: %s]", dir)
			}
		}
	}
	return ops, nil
}

// CheckFileOp checks op (paths from CleanTreePath) against the tree of
// commit rev ("" for an empty repository), as Forgejo does before a
// commit: a create or update must not write through a file (`a file exists
// where you’re trying to create a subdirectory [path: p]`) or over a
// directory (`a directory exists where you’re trying to create a file
// [path: p]`); a create, or a move, must not overwrite a file (`repository
// file already exists [path: p]`); an update or delete needs the file
// (forge.ErrNotFound `repository file does not exist [path: p]`) with the
// blob id op.SHA (`sha does not match [given: x, expected: y]`). Git.Apply
// implementations call it again when the branch moved.
func CheckFileOp(ctx context.Context, g Git, repo forge.ID, rev string, op FileOp) error {
	entry := func(p string) (*TreeEntry, error) {
		if rev == "" {
			return nil, nil
		}
		e, err := g.Entry(ctx, repo, rev, p)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, nil
		}
		return e, err
	}
	var cur *TreeEntry
	if op.Op != "delete" {
		parts := strings.Split(op.Path, "/")
		for i := range parts {
			sub := strings.Join(parts[:i+1], "/")
			e, err := entry(sub)
			if err != nil {
				return err
			}
			if e == nil {
				break
			}
			if i < len(parts)-1 {
				if e.Type != "tree" {
					return forge.Errorf(forge.ErrInvalid, "a file exists where you’re trying to create a subdirectory [path: %s]", sub)
				}
				continue
			}
			if e.Type != "blob" {
				return forge.Errorf(forge.ErrInvalid, "a directory exists where you’re trying to create a file [path: %s]", sub)
			}
			cur = e
		}
	}
	switch op.Op {
	case "create":
		if cur != nil {
			return forge.Errorf(forge.ErrInvalid, "repository file already exists [path: %s]", op.Path)
		}
	case "update", "delete":
		src := op.Path
		if op.FromPath != "" {
			src = op.FromPath
		}
		e, err := entry(src)
		if err != nil {
			return err
		}
		if e == nil || e.Type != "blob" {
			return forge.Errorf(forge.ErrNotFound, "repository file does not exist [path: %s]", src)
		}
		if op.SHA != e.ID {
			return forge.Errorf(forge.ErrInvalid, "sha does not match [given: %s, expected: %s]", op.SHA, e.ID)
		}
		if op.Op == "update" && op.FromPath != "" && cur != nil {
			return forge.Errorf(forge.ErrInvalid, "repository file already exists [path: %s]", op.Path)
		}
	default:
		return forge.Errorf(forge.ErrInvalid, "unknown operation %q", op.Op)
	}
	return nil
}

// contentReader loads owner/name for a read of its git data, after
// checking that the actor may act and its token may read repositories.
func (s *Service) contentReader(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	return s.reader(ctx, actor, owner, name)
}

// Commits lists commits of owner/name (o.Rev "" is the default branch) and
// the number of all of them.
func (s *Service) Commits(ctx context.Context, actor forge.Actor, owner, name string, o LogOptions) (*View, []*Commit, int, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	if v.Repo.Empty {
		return v, nil, 0, forge.Errorf(forge.ErrConflict, "Git Repository is empty.")
	}
	rr, err := s.resolveRef(ctx, v, o.Rev, true)
	if err != nil {
		return nil, nil, 0, err
	}
	o.Rev = rr.Commit
	if o.Path != "" {
		// A path filter is a path in the tree, cleaned as every contents
		// path (`../x` is `x`), never a pathspec with magic; one that
		// cleans to nothing or is refused matches no file.
		p, err := CleanTreePath(o.Path)
		if err != nil {
			return v, []*Commit{}, 0, nil
		}
		o.Path = p
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
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if rev == "" {
		return nil, nil, forge.Errorf(forge.ErrNotFound, "commit does not exist [id: %s]", rev)
	}
	rr, err := s.resolveRef(ctx, v, rev, true)
	if err != nil {
		return nil, nil, err
	}
	list, err := s.git.Log(ctx, v.Repo.ID, LogOptions{Rev: rr.Commit, Limit: 1, Files: files})
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
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	refs, err := s.git.Refs(ctx, v.Repo.ID)
	return v, refs, err
}

// Tree lists a tree by id or revision (see TreePage), whole.
func (s *Service) Tree(ctx context.Context, actor forge.Actor, owner, name, rev string, recursive bool) (*View, string, []TreeEntry, error) {
	v, sha, entries, _, err := s.TreePage(ctx, actor, owner, name, rev, recursive, 0, -1)
	return v, sha, entries, err
}

// ErrUnknownSHA is the reason (forge.Reasonf) of the forge.ErrInvalid that
// TreePage and Blob return for an object id or revision that names nothing:
// Forgejo answers those 400, where other invalid input is 422.
var ErrUnknownSHA = errors.New("unknown object")

// TreePage lists one page of a tree: rev is a full tree id, or a revision
// resolved by ResolveRef (short commit ids included, as Forgejo's
// GetTree). It returns the tree's id, the entries [offset, offset+limit)
// (limit < 0: all of them) and the number of all entries, reading the
// listing as it streams from Git.WalkTree: only the page is kept, never
// the whole listing. Readers only; an unknown rev is forge.ErrInvalid
// `sha not found [rev]` with reason ErrUnknownSHA (Forgejo's 400).
func (s *Service) TreePage(ctx context.Context, actor forge.Actor, owner, name, rev string, recursive bool, offset, limit int) (*View, string, []TreeEntry, int, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", nil, 0, err
	}
	tree := ""
	// A tree id is not a commit-ish: it is listed directly.
	if isObjectID(rev) {
		if typ, _, err := s.git.Object(ctx, v.Repo.ID, rev); err == nil && typ == "tree" {
			tree = rev
		}
	}
	if tree == "" {
		unknown := forge.Reasonf(forge.ErrInvalid, ErrUnknownSHA, "sha not found [%s]", rev)
		if rev == "" {
			return nil, "", nil, 0, unknown
		}
		rr, err := s.resolveRef(ctx, v, rev, true)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, "", nil, 0, unknown
		} else if err != nil {
			return nil, "", nil, 0, err
		}
		root, err := s.git.Entry(ctx, v.Repo.ID, rr.Commit, "")
		if errors.Is(err, forge.ErrNotFound) {
			return nil, "", nil, 0, unknown
		} else if err != nil {
			return nil, "", nil, 0, err
		}
		tree = root.ID
	}
	entries, total := []TreeEntry{}, 0
	for e, err := range s.git.WalkTree(ctx, v.Repo.ID, tree, recursive) {
		if err != nil {
			return nil, "", nil, 0, err
		}
		if total >= offset && (limit < 0 || total < offset+limit) {
			entries = append(entries, e)
		}
		total++
	}
	return v, tree, entries, total, nil
}

// Blob returns a blob by id with its size; the content is nil for a blob
// larger than Config.MaxBlobSize (as Forgejo's blob API). Readers only; an
// id that is no full object id of the repository's format, or no object,
// is forge.ErrInvalid `object does not exist [id: oid, rel_path: ]` with
// reason ErrUnknownSHA (Forgejo's 400).
func (s *Service) Blob(ctx context.Context, actor forge.Actor, owner, name, oid string) (*View, []byte, int64, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	b, size, err := s.blobAt(ctx, v, oid)
	if err != nil {
		return nil, nil, 0, err
	}
	return v, b, size, nil
}

// blobAt is Blob in v's repository.
func (s *Service) blobAt(ctx context.Context, v *View, oid string) ([]byte, int64, error) {
	unknown := forge.Reasonf(forge.ErrInvalid, ErrUnknownSHA, "object does not exist [id: %s, rel_path: ]", oid)
	if !isObjectID(oid) || len(oid) != v.Repo.ObjectFormat.HexLen() {
		return nil, 0, unknown
	}
	typ, size, err := s.git.Object(ctx, v.Repo.ID, oid)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, 0, unknown
	} else if err != nil {
		return nil, 0, err
	}
	if typ != "blob" {
		return nil, 0, forge.Errorf(forge.ErrNotFound, "object is not a blob [id: %s]", oid)
	}
	if size > s.maxBlobSize() {
		return nil, size, nil
	}
	b, err := s.git.Blob(ctx, v.Repo.ID, oid)
	return b, size, err
}

// BlobData is one blob of Blobs: its id, size and content (nil over
// Config.MaxBlobSize).
type BlobData struct {
	ID      string
	Size    int64
	Content []byte
}

// MaxBlobsPerRequest is how many ids Blobs reads: more are left out, as
// Forgejo's GetBlobsBySHA keeps the first [api] MAX_RESPONSE_ITEMS (50).
const MaxBlobsPerRequest = 50

// Blobs returns the blobs of ids, in their order, as Blob reads each: the
// first MaxBlobsPerRequest ids only. Readers only. No ids is
// forge.ErrInvalid `shas not provided`; the first id that is no blob of
// the repository fails the whole request with Blob's error (Forgejo's
// 400 for an unknown id).
func (s *Service) Blobs(ctx context.Context, actor forge.Actor, owner, name string, ids []string) (*View, []BlobData, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if len(ids) == 0 {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "shas not provided")
	}
	ids = ids[:min(len(ids), MaxBlobsPerRequest)]
	out := make([]BlobData, 0, len(ids))
	for _, id := range ids {
		b, size, err := s.blobAt(ctx, v, id)
		if errors.Is(err, forge.ErrNotFound) {
			// Another object than a blob: an id Forgejo answers 400 too.
			err = forge.Reasonf(forge.ErrInvalid, ErrUnknownSHA, "%v", err)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, BlobData{ID: id, Size: size, Content: b})
	}
	return v, out, nil
}

// Archive writes an archive ("zip" or "tar.gz") of ref to w.
func (s *Service) Archive(ctx context.Context, actor forge.Actor, owner, name, ref, format string, w io.Writer) error {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	rr, err := s.resolveRef(ctx, v, ref, true)
	if err != nil || ref == "" {
		return cmp.Or(err, forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", ref))
	}
	return s.git.Archive(ctx, v.Repo.ID, rr.Commit, format, v.Repo.Name, w)
}

// Patch writes commit rev as a "diff" or "patch" to w.
func (s *Service) Patch(ctx context.Context, actor forge.Actor, owner, name, rev, kind string, w io.Writer) error {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if rev == "" {
		return forge.Errorf(forge.ErrNotFound, "commit does not exist [id: %s]", rev)
	}
	rr, err := s.resolveRef(ctx, v, rev, true)
	if err != nil {
		return err
	}
	return s.git.Patch(ctx, v.Repo.ID, rr.Commit, kind, w)
}

// maxBlobSize is Config.MaxBlobSize or its default.
func (s *Service) maxBlobSize() int64 { return cmp.Or(s.cfg.MaxBlobSize, DefaultMaxBlobSize) }
