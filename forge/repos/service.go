package repos

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Config configures a Service. Store and Git are required; every other zero
// value is a working default.
type Config struct {
	Store Store
	Git   Git
	// Clock stamps changes. Nil means forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
	// DefaultBranch of new repositories; "" means "main".
	DefaultBranch string
	// Blobs stores release assets. Nil refuses uploads (external links
	// still work).
	Blobs Blobs
	// PushListeners are told of every ref move after the repository's
	// state is refreshed (push mirrors with sync_on_commit, pull-request
	// updates), in the request, when there is no Outbox. With an Outbox the
	// consequences of ref moves are the outbox's consumers of OutboxPush
	// (refmoves.go), so that none is lost: New refuses both.
	PushListeners []PushListener
	// RepoListeners are told of repositories created, forked and deleted,
	// after the change is committed (see RepoListener).
	RepoListeners []RepoListener
	// ReleaseListeners are told of releases created, edited and deleted,
	// after the change is committed (see ReleaseListener).
	ReleaseListeners []ReleaseListener
	// Outbox, when set, makes the events of repositories created, forked
	// and deleted, releases and pushes also appended to the outbox
	// (outbox.go) in the transaction of the change, and signalled after
	// it: the webhooks' dispatcher reads them there. The repository and
	// release listeners are still told. Nil appends nothing.
	Outbox Outbox
	// DisableAutoWatch stops creators and forkers watching their new
	// repositories (Forgejo's [service] AUTO_WATCH_NEW_REPOS = false).
	DisableAutoWatch bool
	// MaxFilesPerCommit caps the files of one ChangeFiles call (more are
	// refused with forge.ErrInvalid); 0 means DefaultMaxFilesPerCommit.
	MaxFilesPerCommit int
	// MaxBlobSize is the largest file whose content the contents and blob
	// reads include (larger files are described without content; raw and
	// media downloads stream any size); 0 means DefaultMaxBlobSize.
	MaxBlobSize int64
	// DisableActions gives new repositories no Actions unit (has_actions
	// false): Forgejo's [actions] ENABLED = false, which takes repo.actions
	// out of its default units. By default Actions are enabled and the
	// unit is one of the defaults (Forgejo's unit.DefaultRepoUnits).
	DisableActions bool
	// DisableSHA256 refuses object_format_name "sha256" (Forgejo refuses it
	// with git older than 2.42; Hearth leaves the choice to the host).
	DisableSHA256 bool
	// Quota is the [quota] configuration: repository creation, forks,
	// transfers, branches, tags, releases, contents, release assets and
	// pushes are checked against the owner's quota (quota.go). The zero
	// value is disabled.
	Quota quota.Config
	// IssueCounts and PullMirrors are the ports the presentation reads
	// (Present, PresentAll) take the issue counters and the pull-mirror
	// fields from; nil shows zero counters and no mirror fields.
	IssueCounts IssueCounter
	PullMirrors PullMirrorReader
}

// PushListener reacts to ref moves when the service has no Outbox. It runs
// after the move, in the request that made it: long work belongs in a
// queue of the listener's own.
type PushListener interface {
	AfterPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, updates []RefUpdate)
}

// Service is the repository service. It is safe for concurrent use.
type Service struct {
	cfg   Config
	store Store
	git   Git
	clock forge.Clock
	log   *slog.Logger
	// views caches GetRelated when the store has Generations.
	views viewCache
}

// New returns a Service for cfg. It refuses a Config without Store or Git
// (forge.ErrInvalid) rather than failing later.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "repos: Config.Store is required")
	}
	if cfg.Git == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "repos: Config.Git is required")
	}
	if cfg.Outbox != nil && len(cfg.PushListeners) > 0 {
		return nil, forge.Errorf(forge.ErrInvalid, "repos: Config.PushListeners run only without an Outbox: consume OutboxPush events instead")
	}
	cfg.DefaultBranch = cmp.Or(cfg.DefaultBranch, "main")
	s := &Service{cfg: cfg, store: cfg.Store, git: cfg.Git, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// View is a repository as one actor sees it.
type View struct {
	Repo  *forge.Repository
	Owner *forge.User
	// Perm is the actor's access (Access).
	Perm forge.Permission
}

// CanRead and CanWrite test the actor's access to the repository's code
// (Forgejo's reqRepoReader / reqRepoWriter of the code unit; repository
// administrators pass); IsAdmin and IsOwner test the overall mode.
func (v *View) CanRead() bool  { return v.Perm.CanRead(forge.UnitCode) }
func (v *View) CanWrite() bool { return v.Perm.CanWrite(forge.UnitCode) }
func (v *View) IsAdmin() bool  { return v.Perm.Mode >= forge.AccessModeAdmin }
func (v *View) IsOwner() bool  { return v.Perm.Mode >= forge.AccessModeOwner }

// load resolves owner/name for the actor inside tx. It checks first that
// the actor's account may act and that its token grants read:repository
// (forge.ErrForbidden, see forge.Actor.Check). Repositories the actor
// cannot read (including private ones for public-only tokens) are
// forge.ErrNotFound, exactly like missing ones. An unknown owner's error
// names it (Forgejo's `user redirect does not exist`); an owner the actor
// may not see (OwnerVisible) is answered exactly like a missing one, before
// any repository is looked up, so the answer is the same whatever the
// repository name. View.Owner is redacted for the actor
// (forge.User.VisibleTo).
func load(ctx context.Context, tx Tx, actor forge.Actor, owner, name string) (*View, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	return resolve(ctx, tx, actor, owner, name)
}

// resolve is load without the token-scope check, for the operations whose
// scope is another category (deleting a repository needs write:user, as
// Forgejo's route): the caller checks the scope. It checks the account
// state.
func resolve(ctx context.Context, tx Tx, actor forge.Actor, owner, name string) (*View, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	u, err := tx.UserByName(ctx, owner)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, &OwnerNotFoundError{Name: strings.ToLower(owner)}
	} else if err != nil {
		return nil, err
	}
	// An owner the actor may not see answers like a missing one, whatever
	// the repository name, so the answer tells nothing of which names
	// exist. Only a collaborator of one of its repositories may get past
	// it (Forgejo's GetUserRepoPermission lets collaborators of a private
	// owner's repository in), so anonymous actors stop here.
	member, err := isMember(ctx, tx, actor, u)
	if err != nil {
		return nil, err
	}
	var hidden error
	if !OwnerVisible(actor, u) && !OwnerVisibleTo(actor, u, member) {
		hidden = &OwnerNotFoundError{Name: strings.ToLower(owner)}
		if !actor.IsSignedIn() {
			return nil, hidden
		}
	}
	notFound := cmp.Or(hidden, ErrRepoNotFound)
	name = strings.TrimSuffix(name, ".git")
	r, err := tx.RepoByName(ctx, u.ID, name)
	if errors.Is(err, forge.ErrNotFound) || err == nil && r.Status != forge.RepoReady {
		// Repositories being created or deleted are not there yet, or
		// any more.
		return nil, notFound
	} else if err != nil {
		return nil, err
	}
	r.OwnerName = u.Name
	g, err := grantsOn(ctx, tx, actor, r, u, member)
	if err != nil {
		return nil, err
	}
	v := &View{Repo: r, Owner: u.VisibleTo(actor), Perm: Access(actor, r, u, g)}
	if !v.Perm.HasAccess() {
		return nil, notFound
	}
	return v, nil
}

// resolveView is resolve in a read transaction of its own.
func (s *Service) resolveView(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = resolve(ctx, tx, actor, owner, name)
		return err
	})
	return v, err
}

// isMember reports whether the actor is a member of u, an organisation
// (false for users and anonymous actors, without a query).
func isMember(ctx context.Context, tx Tx, actor forge.Actor, u *forge.User) (bool, error) {
	if !actor.IsSignedIn() || !u.IsOrganization() {
		return false, nil
	}
	m, err := tx.OrgMemberships(ctx, actor.User.ID, []forge.ID{u.ID})
	return m[u.ID], err
}

// grantsOn reads the actor's grants on r, owned by owner, of whom the
// actor is a member or not: the collaborator mode and, for an
// organisation's repository, the teams' grants.
func grantsOn(ctx context.Context, tx Tx, actor forge.Actor, r *forge.Repository, owner *forge.User, member bool) (Grants, error) {
	g := Grants{Member: member}
	if !actor.IsSignedIn() {
		return g, nil
	}
	var err error
	if g.Collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID); err != nil {
		return g, err
	}
	if owner.IsOrganization() {
		teams, err := tx.TeamGrants(ctx, actor.User.ID, []forge.ID{r.ID})
		if err != nil {
			return g, err
		}
		g.Teams = teams[r.ID]
	}
	return g, nil
}

// accessOf is the actor's permission on r, owned by owner, read inside tx.
func accessOf(ctx context.Context, tx Tx, actor forge.Actor, r *forge.Repository, owner *forge.User) (forge.Permission, error) {
	member, err := isMember(ctx, tx, actor, owner)
	if err != nil {
		return forge.Permission{}, err
	}
	g, err := grantsOn(ctx, tx, actor, r, owner, member)
	if err != nil {
		return forge.Permission{}, err
	}
	return Access(actor, r, owner, g), nil
}

// OwnerVisible reports whether the actor may know that the user or
// organisation u exists (as a profile: Forgejo's IsUserVisibleToViewer
// without follows): public ones to everyone, limited ones to signed-in
// actors, private ones to themselves and site administrators; tokens
// restricted to public resources see public owners only. A pure rule.
// Repository access uses OwnerVisibleTo, which knows memberships.
func OwnerVisible(actor forge.Actor, u *forge.User) bool {
	switch {
	case isPublic(u):
		return true
	case actor.Scoped && actor.Scope.PublicOnly:
		return false
	case u.Visibility == forge.VisibilityLimited:
		return actor.IsSignedIn()
	}
	return actor.IsSiteAdmin() || actor.UserID() == u.ID
}

// OwnerVisibleTo reports whether the actor may know that the user or
// organisation u exists, given whether the actor is a member of u (an
// organisation): public ones to everyone, limited ones to signed-in
// actors, private ones to themselves, their members and site
// administrators; restricted users see only themselves and the
// organisations they are members of; tokens restricted to public
// resources see public owners only. A pure rule (Forgejo's
// HasOrgOrUserVisible).
func OwnerVisibleTo(actor forge.Actor, u *forge.User, member bool) bool {
	switch {
	case actor.Scoped && actor.Scope.PublicOnly:
		return isPublic(u)
	case !actor.IsSignedIn():
		return isPublic(u)
	case actor.IsSiteAdmin() || actor.UserID() == u.ID:
		return true
	case u.Visibility == forge.VisibilityPrivate || actor.User.Restricted:
		return member
	}
	return true
}

// ErrRepoNotFound is returned for repositories that do not exist or that
// the actor may not see (the two are indistinguishable, as in Forgejo).
var ErrRepoNotFound = forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")

// OwnerNotFoundError is the 404 of an unknown owner in /repos/{owner}/...
// (Forgejo: message `GetUserByName`, errors [`user redirect does not exist
// [name: x]`]).
type OwnerNotFoundError struct{ Name string }

func (e *OwnerNotFoundError) Error() string {
	return "user redirect does not exist [name: " + e.Name + "]"
}

// Is makes it a forge.ErrNotFound.
func (e *OwnerNotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

// Get returns the repository owner/name as the actor sees it.
func (s *Service) Get(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	// load's rule: the token scope first, then resolve.
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	return s.resolveView(ctx, actor, owner, name)
}

// GetByID returns the repository with that id as the actor sees it.
func (s *Service) GetByID(ctx context.Context, actor forge.Actor, id forge.ID) (*View, error) {
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = loadByID(ctx, tx, actor, id)
		return err
	})
	return v, err
}

// loadByID is load by repository id: ErrRepoNotFound for missing and
// invisible repositories alike.
func loadByID(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*View, error) {
	r, err := tx.RepoByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
			return nil, err
		}
		return nil, ErrRepoNotFound
	} else if err != nil {
		return nil, err
	}
	u, err := tx.UserByID(ctx, r.OwnerID)
	if err != nil {
		return nil, err
	}
	v, err := load(ctx, tx, actor, u.Name, r.Name)
	if _, ok := err.(*OwnerNotFoundError); ok {
		return nil, ErrRepoNotFound
	}
	return v, err
}

// requireWrite is Forgejo's reqRepoWriter.
func requireWrite(v *View) error {
	return requireUnitWrite(v, forge.UnitCode)
}

// requireUnitWrite is Forgejo's reqRepoWriter(unit): write access to the
// unit, or repository administration.
func requireUnitWrite(v *View, u forge.Unit) error {
	if !v.Perm.CanWrite(u) && !v.IsAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should have a permission to write to a repo")
	}
	return nil
}

// requireUnitRead is Forgejo's reqRepoReader(unit): read access to the
// unit, or repository administration.
func requireUnitRead(v *View, u forge.Unit) error {
	if !v.Perm.CanRead(u) && !v.IsAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should have specific read permission or be a repo admin or a site admin")
	}
	return nil
}

// requireAdmin is Forgejo's reqAdmin.
func requireAdmin(v *View) error {
	if !v.IsAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	}
	return nil
}

// adminTx runs fn in a transaction for a repository administrator. With
// writable, the credential must grant write:repository and the repository
// must not be archived; without, read:repository suffices: it is for
// administrators' reads (listing protection rules). Writes allowed on
// archived repositories use adminWrite.
func (s *Service) adminTx(ctx context.Context, actor forge.Actor, owner, name string, writable bool, fn func(Tx, *View) error) error {
	level := forge.AccessRead
	if writable {
		level = forge.AccessWrite
	}
	return s.admin(ctx, actor, owner, name, level, writable, fn)
}

// adminWrite runs fn in a transaction for a repository administrator
// whose credential grants write:repository, archived or not (removing a
// collaborator or a rule).
func (s *Service) adminWrite(ctx context.Context, actor forge.Actor, owner, name string, fn func(Tx, *View) error) error {
	return s.admin(ctx, actor, owner, name, forge.AccessWrite, false, fn)
}

func (s *Service) admin(ctx context.Context, actor forge.Actor, owner, name string, level forge.AccessLevel, notArchived bool, fn func(Tx, *View) error) error {
	if err := actor.Check(level, forge.CategoryRepository); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if err := requireAdmin(v); err != nil {
			return err
		}
		if notArchived {
			if err := checkWritable(v.Repo); err != nil {
				return err
			}
		}
		return fn(tx, v)
	})
}

// reader loads owner/name for a read of its code outside any transaction:
// Forgejo's reqRepoReader(code), forge.ErrForbidden for an actor who may
// see the repository but not its code.
func (s *Service) reader(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	v, err := s.Get(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if err := requireUnitRead(v, forge.UnitCode); err != nil {
		return nil, err
	}
	return v, nil
}

// writer loads owner/name for a write of its code: write:repository
// scope, reqRepoWriter(code) and mustNotBeArchived.
func (s *Service) writer(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	return s.unitWriter(ctx, actor, owner, name, forge.UnitCode)
}

// unitWriter is writer for the unit u (releases for releases).
func (s *Service) unitWriter(ctx context.Context, actor forge.Actor, owner, name string, u forge.Unit) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	v, err := s.Get(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if err := requireUnitWrite(v, u); err != nil {
		return nil, err
	}
	if err := checkWritable(v.Repo); err != nil {
		return nil, err
	}
	return v, nil
}

// RepoAccess returns the repository owner/name and the actor's full
// permission on it (Access: the overall mode and the access per unit, with
// organisations' teams), for the other domains (issues, pull requests, hooks) that declare
// it as a one-method interface. It checks the actor's account state but no
// token scope: the caller checks the scope of its own category (read:issue
// for issues). Repositories the actor may not see are ErrRepoNotFound (or
// *OwnerNotFoundError), exactly as in Get.
func (s *Service) RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	v, err := s.resolveView(ctx, actor, owner, name)
	if err != nil {
		return nil, forge.Permission{}, err
	}
	return v.Repo, v.Perm, nil
}
