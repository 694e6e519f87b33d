package repos

import (
	"context"
	"io"
	"iter"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Git is the git storage the repository service consumes: bare repositories
// addressed by repository ID (so renames and transfers move no files).
// storage/gitstore implements it with the git command line. Every method
// returns forge.ErrNotFound for a repository, revision or path that does not
// exist.
type Git interface {
	// Create initialises an empty bare repository.
	Create(ctx context.Context, repo forge.ID, format forge.ObjectFormat, defaultBranch string) error
	// Fork creates repository to as a copy of every branch and tag of from.
	Fork(ctx context.Context, from, to forge.ID) error
	// Remove deletes the repository's files.
	Remove(ctx context.Context, repo forge.ID) error
	// Size is the size of the repository on disk, in bytes.
	Size(ctx context.Context, repo forge.ID) (int64, error)
	// Refs lists branches and tags.
	Refs(ctx context.Context, repo forge.ID) ([]Ref, error)
	// Resolve returns the commit id a revision (branch, tag, id) names.
	Resolve(ctx context.Context, repo forge.ID, rev string) (string, error)
	// Log lists commits reachable from o.Rev, newest first.
	Log(ctx context.Context, repo forge.ID, o LogOptions) ([]*Commit, error)
	// CountCommits counts the commits reachable from rev (touching path, if
	// set).
	CountCommits(ctx context.Context, repo forge.ID, rev, path string) (int, error)
	// Tree lists the entries of the directory path at rev; rev may also be
	// a tree id (with path "").
	Tree(ctx context.Context, repo forge.ID, rev, path string, recursive bool) ([]TreeEntry, error)
	// WalkTree streams the entries of the tree with id tree, as `git
	// ls-tree -l` lists them (with recursive, every entry below it, each
	// subtree before its entries, paths relative to tree), without holding
	// the listing in memory. A failure is yielded once, as the last pair:
	// forge.ErrNotFound for an id that names no tree. Breaking out of the
	// loop ends the listing.
	WalkTree(ctx context.Context, repo forge.ID, tree string, recursive bool) iter.Seq2[TreeEntry, error]
	// Languages is LanguageStats of the recursive listing of the tree with
	// id tree. Trees never change: an implementation may cache it by id.
	Languages(ctx context.Context, repo forge.ID, tree string) (map[string]int64, error)
	// Entry describes the entry at path in rev ("" is the root tree).
	Entry(ctx context.Context, repo forge.ID, rev, path string) (*TreeEntry, error)
	// Object returns the type and size of an object by id.
	Object(ctx context.Context, repo forge.ID, oid string) (typ string, size int64, err error)
	// Blob returns the content of a blob by id.
	Blob(ctx context.Context, repo forge.ID, oid string) ([]byte, error)
	// OpenBlob streams the content of a blob by id, with its size; the
	// caller closes the reader. It never holds the whole blob in memory.
	OpenBlob(ctx context.Context, repo forge.ID, oid string) (io.ReadCloser, int64, error)
	// LastCommits returns, for each name of an entry of directory dir at
	// rev, the id of the last commit reachable from rev that touched it, in
	// one history walk (names never touched are absent).
	LastCommits(ctx context.Context, repo forge.ID, rev, dir string, names []string) (map[string]string, error)
	// Apply commits c and moves its branch. Writes to one repository are
	// serialised. If the branch moved since c.Parent, Apply commits on the
	// branch's new tip when every file's precondition still holds there
	// (FileOp.SHA, checked with CheckFileOp), and fails with CheckFileOp's
	// error otherwise; it refuses (forge.ErrInvalid) a path CleanTreePath
	// refuses or would change.
	Apply(ctx context.Context, repo forge.ID, c ChangeSet) (*Commit, error)
	// SetRef points ref at newID (deleting it when newID is ""), only if it
	// still points at oldID ("" meaning it must not exist; "*" any value).
	SetRef(ctx context.Context, repo forge.ID, ref, newID, oldID string) error
	// Tag reads an annotated tag object; forge.ErrNotFound if oid is not one.
	Tag(ctx context.Context, repo forge.ID, oid string) (*AnnotatedTag, error)
	// CreateTag makes refs/tags/name point at target: an annotated tag when
	// message is not empty, a lightweight one otherwise. forge.ErrConflict
	// if the tag exists.
	CreateTag(ctx context.Context, repo forge.ID, name, target, message string, tagger Signature) error
	// Patch writes the change of commit rev as a "diff" (git diff-tree -p) or
	// a "patch" (git format-patch) to w.
	Patch(ctx context.Context, repo forge.ID, rev, kind string, w io.Writer) error
	// Archive writes a "zip" or "tar.gz" archive of rev to w.
	Archive(ctx context.Context, repo forge.ID, rev, format, prefix string, w io.Writer) error
}

// Ref is a branch or tag.
type Ref struct {
	Name   string // full name: refs/heads/main, refs/tags/v1
	Target string // object id the ref points at
	Type   string // "commit" or "tag" (annotated)
	// Commit is the commit a tag peels to (the target itself for branches).
	Commit string
}

// Signature is an author or committer.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// Commit is a git commit, with its changed files and line stats when asked.
type Commit struct {
	ID        string
	Tree      string
	Parents   []string
	Author    Signature
	Committer Signature
	Message   string
	// Files is nil unless the log was asked for files.
	Files []FileChangeStat
}

// FileChangeStat is one file of a commit: Forgejo's status (`added`,
// `removed`, `modified`; renames count as removed + added) and git's line
// counts.
type FileChangeStat struct {
	Filename  string
	Status    string
	Additions int
	Deletions int
	// PreviousFilename is the old path of a "renamed" file, which only
	// issues.PullGit's DiffFiles reports.
	PreviousFilename string
}

// LogOptions select commits.
type LogOptions struct {
	Rev   string
	Path  string // only commits touching path
	Skip  int
	Limit int // 0: no limit
	Files bool
}

// TreeEntry is an entry of a tree.
type TreeEntry struct {
	Path string
	Name string
	Mode string // "100644", "100755", "120000", "040000", "160000"
	Type string // "blob", "tree", "commit"
	ID   string
	Size int64
}

// FileOp is a change to one file.
type FileOp struct {
	// Op is "create", "update" or "delete".
	Op      string
	Path    string
	Content []byte
	// FromPath moves the file (update only).
	FromPath string
	// SHA is the blob id the file (FromPath, if set) has in the commit the
	// change was checked against (update and delete); a create requires
	// that Path does not exist. Apply re-checks it when the branch moved.
	SHA string
}

// ChangeSet is a commit to make on a branch.
type ChangeSet struct {
	// Branch is the branch to start from ("" for the first commit of an
	// empty repository).
	Branch string
	// NewBranch, if set, is created at the new commit instead of moving
	// Branch.
	NewBranch string
	// Parent is the commit the change was checked against ("" skips the
	// check); see Git.Apply for a branch that moved since.
	Parent    string
	Message   string
	Author    Signature
	Committer Signature
	Files     []FileOp
}

// AnnotatedTag is a tag object.
type AnnotatedTag struct {
	ID         string
	Name       string
	Object     string
	ObjectType string
	Tagger     Signature
	Message    string
}

// NotesRef is the reference git notes live under (git's default, and
// Forgejo's only one).
const NotesRef = "refs/notes/commits"

// NotesGit writes git notes on NotesRef; storage/gitstore implements it. A
// Git without it refuses note writes (the notes are read through Git).
type NotesGit interface {
	// SetNote makes message the note of commit (an object id), written by
	// by, and returns the move of NotesRef (no move, OldID == NewID, when
	// nothing changed: git removes a note set to an empty message).
	// forge.ErrNotFound if commit names no object.
	SetNote(ctx context.Context, repo forge.ID, commit, message string, by Signature) (RefUpdate, error)
	// RemoveNote removes the note of commit, as by, and returns the move
	// of NotesRef. forge.ErrNotFound if commit has no note.
	RemoveNote(ctx context.Context, repo forge.ID, commit string, by Signature) (RefUpdate, error)
}

// PatchGit applies patches as commits; storage/gitstore implements it. A
// Git without it refuses ApplyPatch.
type PatchGit interface {
	// ApplyPatch applies p.Patch (git apply --cached) to the tree of the
	// tip of p.Branch in a private index, commits the result and moves
	// p.Branch (or creates p.NewBranch) with a compare-and-swap: nothing
	// is written when the patch does not apply (forge.ErrInvalid `patch
	// does not apply: <git's reason>`) or touches a path CleanTreePath
	// refuses (forge.ErrInvalid). forge.ErrNotFound if p.Branch does not
	// exist; forge.ErrConflict if p.NewBranch does.
	ApplyPatch(ctx context.Context, repo forge.ID, p PatchSet) (*Commit, error)
}

// PatchSet is a patch to commit on a branch.
type PatchSet struct {
	// Branch is the branch whose tip the patch applies to.
	Branch string
	// NewBranch, if set, is created at the new commit instead of moving
	// Branch.
	NewBranch string
	// Patch is the diff, as `git diff` or `git format-patch` writes it.
	Patch     []byte
	Message   string
	Author    Signature
	Committer Signature
}
