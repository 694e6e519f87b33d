package quota

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Owner is the account whose quota a write is charged to: the repository's
// owner (user or organisation), or a package's owner. Name is reported in
// the 413 body. RepoID is the repository the bytes are stored in, 0 for
// bytes that belong to the owner alone (a package linked to no
// repository): usage stored in a repository is counted per repository and
// belongs to whoever owns the repository now, so a transfer or a
// visibility change moves it with no counter write, and deleting the
// repository releases it.
type Owner struct {
	ID     forge.ID
	Name   string
	RepoID forge.ID
}

// OwnerOf returns the owner u (RepoID 0).
func OwnerOf(u *forge.User) Owner { return Owner{ID: u.ID, Name: u.Name} }

// RepoOwner returns the owner of r, who pays for everything stored in it,
// with RepoID r.ID.
func RepoOwner(r *forge.Repository) Owner {
	return Owner{ID: r.OwnerID, Name: r.OwnerName, RepoID: r.ID}
}

// UsageTx is what a domain's transaction needs to charge quota in the same
// transaction as its write. A domain Tx embeds it (issues.Tx does); every
// storage backend implements it once on its base transaction, so every
// domain Tx of that backend has it.
type UsageTx interface {
	// AddUsage adds delta (negative to release) to the counter of bucket b
	// of repository owner.RepoID, or of account owner.ID when RepoID is 0.
	// forge.ErrInvalid for an unknown bucket or a derived one (see
	// Bucket.Derived: the store keeps those itself); forge.ErrNotFound if
	// the repository or account does not exist. Counters start at 0 and
	// are deleted with their repository or account.
	AddUsage(ctx context.Context, owner Owner, b Bucket, delta int64) error
	// Usage returns the usage of account owner: the git size of the
	// repositories it owns now (public and private by each repository's
	// flag), the counters of those repositories, and its own counters.
	// Its cost grows with the owner's repositories, not with what they
	// hold. Zero Used for an account with nothing.
	Usage(ctx context.Context, owner forge.ID) (Used, error)
	// QuotaGroupsOf returns the groups owner is an explicit member of,
	// with their rules, ordered by group name then rule name. Never nil.
	QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]Group, error)
	// QuotaGroupsNamed returns the groups of names that exist, with their
	// rules, ordered by name; missing names are skipped. Never nil.
	QuotaGroupsNamed(ctx context.Context, names []string) ([]Group, error)
}

// ErrExceeded is the reason of every ExceededError: errors.Is(err,
// ErrExceeded) tells a quota refusal from other preconditions.
var ErrExceeded = errors.New("quota exceeded")

// ExceededError is the refusal of a write over quota. It is in category
// forge.ErrPrecondition (and ErrExceeded); httpapi answers it with 413
// {"message":"quota exceeded","user_id":UserID,"username":Username}.
// UserID and Username name the owner whose quota is exceeded, not the
// actor.
type ExceededError struct {
	UserID   forge.ID
	Username string
	// Subject is what was checked.
	Subject Subject
}

func (e *ExceededError) Error() string { return "quota exceeded" }

// Is reports forge.ErrPrecondition and ErrExceeded.
func (e *ExceededError) Is(target error) bool {
	return target == forge.ErrPrecondition || target == ErrExceeded
}

// GroupsFor returns the groups that apply to owner under cfg
// (SelectGroups over the transaction's rows) and whether they are real
// groups (false: the built-in default).
func GroupsFor(ctx context.Context, tx UsageTx, cfg Config, owner forge.ID) ([]Group, bool, error) {
	explicit, err := tx.QuotaGroupsOf(ctx, owner)
	if err != nil {
		return nil, false, err
	}
	var defaults []Group
	if len(explicit) == 0 && len(cfg.DefaultGroups) > 0 {
		if defaults, err = tx.QuotaGroupsNamed(ctx, cfg.DefaultGroups); err != nil {
			return nil, false, err
		}
	}
	gs, real := SelectGroups(cfg, explicit, defaults)
	return gs, real, nil
}

// Check reports whether owner may write delta bytes into bucket b, checked
// against subject s (the subject of the enforcement point: a push checks
// size:repos:all and grows size:repos:private or :public). It reads the
// owner's groups and counters in tx and applies EvaluateDelta; it writes
// nothing. With quota disabled, or delta < 0 (a write that frees space),
// it allows without reading. A refusal is *ExceededError naming owner.
func Check(ctx context.Context, tx UsageTx, cfg Config, owner Owner, s Subject, b Bucket, delta int64) error {
	if !cfg.Enabled || delta < 0 {
		return nil
	}
	groups, _, err := GroupsFor(ctx, tx, cfg, owner.ID)
	if err != nil {
		return err
	}
	used, err := tx.Usage(ctx, owner.ID)
	if err != nil {
		return err
	}
	if !EvaluateDelta(cfg, groups, used, s, b, delta) {
		return &ExceededError{UserID: owner.ID, Username: owner.Name, Subject: s}
	}
	return nil
}

// Charge is the one call every enforcement point makes inside the
// transaction of its write: Check, then, when allowed and b is not
// derived, AddUsage(owner, b, delta). On a refusal (*ExceededError)
// nothing is added and the caller returns the error, which rolls back its
// transaction: no row, no counter. A delta of 0 is Forgejo's check alone;
// a negative delta is never refused and releases the bytes. Counters
// change even when quota is disabled. For a derived bucket (git size,
// attachments) Charge only checks: the row the caller writes (the
// repository's size, the attachment) is the usage.
func Charge(ctx context.Context, tx UsageTx, cfg Config, owner Owner, s Subject, b Bucket, delta int64) error {
	if err := Check(ctx, tx, cfg, owner, s, b, delta); err != nil {
		return err
	}
	if delta == 0 || b.Derived() {
		return nil
	}
	return tx.AddUsage(ctx, owner, b, delta)
}
