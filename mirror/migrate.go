package mirror

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// MigrateOptions are Forgejo's MigrateRepoOptions as far as git data goes
// (issues, labels, releases… of other services are not imported).
type MigrateOptions struct {
	// The source: the clone address and its credentials (AuthToken is used
	// as the password, as Forgejo's git service does).
	CloneAddr, AuthUsername, AuthPassword, AuthToken string
	// Mirror makes the new repository a pull mirror of the source, synced
	// every MirrorInterval ("" is Config.DefaultInterval).
	Mirror         bool
	MirrorInterval string
	LFS            bool
	LFSEndpoint    string
	// The new repository: its owner ("" for the actor), name, description
	// and visibility.
	RepoOwner, RepoName, Description string
	Private                          bool
}

// Migration is a checked migration source: what Git.Clone gets and what
// the pull mirror records.
type Migration struct {
	Remote      Remote
	Mirror      bool
	Interval    time.Duration
	LFS         bool
	LFSEndpoint string
}

// NewRepository is the repository a migration creates.
type NewRepository struct {
	Name, Description string
	Private           bool
}

// Creation is a repository a Creator is creating for a migration: its row
// is written and shown to no one, its git directory not yet made.
type Creation interface {
	// Repository is the row: its ID names the git directory Migrate clones
	// into.
	Repository() *forge.Repository
}

// Creator is what Migrate needs of forge/repos to create the migration's
// repository in two steps around the clone (the wiring adapts
// repos.Service: AuthorizeMigrate, BeginMigration, FinishMigration,
// AbortMigration). A crash between the steps leaves a row being created,
// which forge/repos' recovery removes with the directory (and the pull
// mirror row, which goes with its repository).
type Creator interface {
	// AuthorizeMigrate runs, changing nothing, the checks Forgejo makes
	// before it reads the source: the owner (forge.ErrInvalid `user does
	// not exist …`), its size:repos:all quota (*quota.ExceededError), the
	// actor's right to create there (forge.ErrForbidden).
	AuthorizeMigrate(ctx context.Context, actor forge.Actor, owner string, private bool) error
	// BeginMigration writes the new repository's row, being created,
	// without a git directory (the creation's checks again, in its
	// transaction; forge.ErrConflict for a name taken).
	BeginMigration(ctx context.Context, actor forge.Actor, owner string, r NewRepository) (Creation, error)
	// FinishMigration makes the creation a repository once its directory
	// exists, in format (the clone's object format), and returns it with
	// OwnerName set. On failure it undoes the creation.
	FinishMigration(ctx context.Context, actor forge.Actor, c Creation, format forge.ObjectFormat) (*forge.Repository, error)
	// AbortMigration removes the creation's row and directory.
	AbortMigration(ctx context.Context, actor forge.Actor, c Creation) error
}

// ErrNoCreator refuses Migrate on a Service without Config.Creator
// (forge.ErrPrecondition).
var ErrNoCreator = forge.Errorf(forge.ErrPrecondition, "mirror: migrations are not configured (Config.Creator)")

// Migrate is Forgejo's POST /repos/migrate for git data: it creates
// o.RepoName for o.RepoOwner ("" for the actor) as a copy of the source,
// and, with o.Mirror, makes it a pull mirror of it. It checks, in
// Forgejo's order, the owner, its quota and the actor's right to create
// there (Creator.AuthorizeMigrate), then the source (the scheme: ssh is
// refused; the feature switches; the address and its credentials; local
// paths, for site administrators with Config.AllowLocalPaths only; the
// Policy after DNS resolution; the interval), before anything is created;
// then it creates the repository (Creator.BeginMigration), clones the
// source into it within Config.Timeout and under Config.MaxSize, records
// the pull mirror (credentials sealed apart from the address, enable_prune
// on, the first sync at now + interval) and finishes the creation. The
// actor must be signed in with write:repository.
//
// Nothing is left half-made: on any failure the repository's row, its
// directory and the pull mirror row are removed (and the quota, which
// counts stored repositories, is not charged); a crash leaves a row being
// created, which forge/repos' Recover removes.
//
// Errors: those of Creator.AuthorizeMigrate and BeginMigration; the
// address refusals (ErrAddrURL, ErrAddrCredentials, ErrAddrProtocol,
// ErrAddrBlocked, ErrAddrLocalPath: forge.ErrInvalid); ErrDisabled, or
// forge.ErrForbidden when DISABLE_NEW_PULL refuses a mirror; a failed
// transfer, forge.ErrInvalid with reason ErrTransferAuth (the remote
// refused the credentials) or ErrTransfer (anything else, a transfer past
// Config.Timeout included); forge.ErrPrecondition for credentials without
// Config.Secret; ErrNoCreator.
func (s *Service) Migrate(ctx context.Context, actor forge.Actor, o MigrateOptions) (*forge.Repository, error) {
	if s.cfg.Creator == nil {
		return nil, ErrNoCreator
	}
	if err := s.cfg.Creator.AuthorizeMigrate(ctx, actor, o.RepoOwner, o.Private); err != nil {
		return nil, err
	}
	m, err := s.checkMigration(ctx, actor, o)
	if err != nil {
		return nil, err
	}
	c, err := s.cfg.Creator.BeginMigration(ctx, actor, o.RepoOwner,
		NewRepository{Name: o.RepoName, Description: o.Description, Private: o.Private})
	if err != nil {
		return nil, err
	}
	r, err := s.populate(ctx, actor, c, m)
	if err != nil {
		// Nothing half-made: the repository goes with the failure.
		if aerr := s.cfg.Creator.AbortMigration(context.WithoutCancel(ctx), actor, c); aerr != nil {
			s.log.Error("mirror: undoing a failed migration", "repo", c.Repository().ID, "error", aerr)
		}
		return nil, err
	}
	return r, nil
}

// populate clones the source into the creation's directory, records the
// pull mirror of a mirror migration and finishes the creation.
func (s *Service) populate(ctx context.Context, actor forge.Actor, c Creation, m *Migration) (*forge.Repository, error) {
	id := c.Repository().ID
	cctx, cancel := context.WithTimeout(ctx, s.timeout())
	format, err := s.cfg.Git.Clone(cctx, id, m.Remote, CloneOptions{Mirror: m.Mirror})
	timedOut := errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	cancel()
	if err != nil && timedOut {
		err = forge.Reasonf(forge.ErrInvalid, ErrTransfer, "clone: the transfer took longer than %s", s.timeout())
	}
	if err != nil {
		return nil, err
	}
	if m.Mirror {
		if _, err := s.recordPullMirror(ctx, id, m); err != nil {
			return nil, err
		}
	}
	return s.cfg.Creator.FinishMigration(ctx, actor, c, format)
}

// checkMigration checks a migration source for actor before anything is
// created (Migrate's checks of the source, in Forgejo's order).
func (s *Service) checkMigration(ctx context.Context, actor forge.Actor, o MigrateOptions) (*Migration, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if o.Mirror && s.cfg.Disabled {
		return nil, ErrDisabled
	}
	if o.Mirror && s.cfg.DisableNewPull {
		return nil, forge.Errorf(forge.ErrForbidden, "the site administrator has disabled the creation of new pull mirrors")
	}
	if err := CheckMigrationProtocol(o.CloneAddr); err != nil {
		return nil, err
	}
	pass := o.AuthPassword
	if o.AuthToken != "" {
		pass = o.AuthToken
	}
	addr, err := s.checkAddress(ctx, actor, o.CloneAddr, o.AuthUsername, pass)
	if err != nil {
		return nil, err
	}
	m := &Migration{Remote: s.remote(addr), Mirror: o.Mirror, LFS: o.LFS, LFSEndpoint: o.LFSEndpoint}
	if o.Mirror {
		def, min := s.cfg.Intervals()
		if m.Interval, err = MigrationInterval(o.MirrorInterval, def, min); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// recordPullMirror makes repo a pull mirror of m's remote after a
// successful mirror clone: credentials sealed apart from the address,
// enable_prune on, the first scheduled sync at now + interval, Updated now.
// forge.ErrPrecondition if m has credentials and no Config.Secret is set;
// forge.ErrConflict if repo is already a mirror.
func (s *Service) recordPullMirror(ctx context.Context, repo forge.ID, m *Migration) (*PullMirror, error) {
	sealed, err := s.seal(m.Remote.Address.Creds)
	if err != nil {
		return nil, err
	}
	now := s.now()
	pm := &PullMirror{RepoID: repo, RemoteAddress: m.Remote.Address.URL, SealedCreds: sealed,
		Interval: m.Interval, EnablePrune: true, LFS: m.LFS, LFSEndpoint: m.LFSEndpoint,
		Updated: now, NextUpdate: NextUpdate(now, m.Interval)}
	err = s.cfg.Store.Update(ctx, func(tx Tx) error { return tx.CreatePullMirror(ctx, pm) })
	if err != nil {
		return nil, err
	}
	return pm, nil
}
