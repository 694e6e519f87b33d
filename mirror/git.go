package mirror

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Remote is what the git layer needs to reach a remote: the address without
// userinfo, the credentials apart (the git layer passes them to git without
// putting them on a command line, in a config file, or in an error), the
// policy to check every connection and redirect with, the time-out and the
// size cap.
type Remote struct {
	Address RemoteAddress
	Policy  Policy
	// MaxSize caps the repository's size after the transfer (bytes; 0: none).
	// Past it the transfer fails with forge.ErrInvalid and leaves the
	// repository as it was (a clone leaves nothing).
	MaxSize int64
}

// RefUpdate is one reference a fetch changed: OldID "" created it, NewID ""
// deleted it (prune).
type RefUpdate struct {
	Ref, OldID, NewID string
}

// CloneOptions say how to clone.
type CloneOptions struct {
	// Mirror makes a mirror clone (every ref, refs/heads and refs/tags as
	// on the remote); false clones once with branches and tags only.
	Mirror bool
	// Format is the object format to expect; "" takes the remote's.
	Format forge.ObjectFormat
}

// Git is what the mirror service needs of the git layer
// (storage/gitstore implements it). Every method honours ctx's deadline
// (the service sets Config.Timeout), reaches remotes only through
// r.Policy (Control on every dial, CheckRedirect on every redirect; git
// over HTTP with redirects off or checked, names pinned to checked
// addresses), and returns errors whose text carries no credential.
// A failed transfer (an unreachable, refusing or non-git remote, the size
// cap, git's failure) is forge.ErrInvalid with git's sanitised message and
// reason ErrTransfer, or ErrTransferAuth when the remote refused the
// credentials (forge.Reasonf): the git layer types the failure where it
// knows it.
type Git interface {
	// Clone creates repo's git directory from r and returns its object
	// format (the remote's). On any error it leaves no directory behind.
	// forge.ErrConflict if the directory exists.
	Clone(ctx context.Context, repo forge.ID, r Remote, o CloneOptions) (forge.ObjectFormat, error)
	// Fetch updates a mirror from r (`fetch --tags [--prune]`: refs/heads
	// and refs/tags mirrored) and returns the references it changed.
	Fetch(ctx context.Context, repo forge.ID, r Remote, prune bool) ([]RefUpdate, error)
	// Push pushes every reference to r (`push --mirror`), or only branches
	// matching branchFilter (comma-separated globs) when not "".
	Push(ctx context.Context, repo forge.ID, r Remote, branchFilter string) error
}
