package repos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// CreateOptions are Forgejo's CreateRepoOption.
type CreateOptions struct {
	Name          string
	Description   string
	Private       bool
	AutoInit      bool
	Template      bool
	Gitignores    string
	License       string
	Readme        string
	DefaultBranch string
	// ObjectFormat "" means sha1.
	ObjectFormat forge.ObjectFormat
	// OwnerQuota checks size:repos:all of the new owner also when a site
	// administrator creates for another user (POST /repos/migrate checks
	// the quota of repo_owner, see BeginMigration; POST
	// /admin/users/{username}/repos does not).
	OwnerQuota bool
}

// Create makes a repository owned by the user called owner ("" for the
// actor). The actor must be that user (with a credential granting
// write:user and write:repository, as Forgejo's POST /user/repos) or a site
// administrator (write:admin, as POST /admin/users/{username}/repos). The
// creator watches the new repository (Forgejo's auto-watch). The returned
// view is the stored state after the initial commit: with AutoInit it is
// not empty.
//
// Creation is recoverable: the row is written with status
// forge.RepoCreating, the git directory made, and only then is the row
// marked ready. A failure removes both; a crash in between leaves a
// creating row that Recover (at start) or a retry of the same name after
// StaleCreation removes.
//
// Errors: forge.ErrForbidden (account state, token scope, another owner);
// forge.ErrNotFound for an unknown owner; forge.ErrInvalid for a bad name,
// object format, default branch or template; forge.ErrConflict `The
// repository with the same name already exists.`.
func (s *Service) Create(ctx context.Context, actor forge.Actor, owner string, o CreateOptions) (*View, error) {
	forOther, err := checkCreate(actor, owner)
	if err != nil {
		return nil, err
	}
	return s.create(ctx, actor, owner, forOther, false, o)
}

// checkCreate is Create's check of the actor: signed in, and the scopes of
// a creation for oneself (write:user, write:repository) or, for a named
// owner, the administrators' (write:admin). It reports whether owner is
// another user.
func checkCreate(actor forge.Actor, owner string) (forOther bool, err error) {
	if !actor.IsSignedIn() {
		return false, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	forOther = owner != "" && !strings.EqualFold(owner, actor.User.Name)
	// A named owner is the administrators' operation (write:admin), also
	// when an administrator names themself.
	asAdmin := owner != "" && actor.IsSiteAdmin() && actor.Allows(forge.CategoryAdmin, forge.AccessWrite)
	if forOther || asAdmin {
		return forOther, actor.Check(forge.AccessWrite, forge.CategoryAdmin)
	}
	return false, actor.Check(forge.AccessWrite, forge.CategoryUser, forge.CategoryRepository)
}

// CreateInOrg makes a repository owned by the organisation org (Forgejo's
// POST /orgs/{org}/repos). The credential must grant write:organization
// (the deprecated POST /org/{org}/repos also needs write:repository: its
// handler checks both first, as Forgejo's route). Site administrators,
// the organisation's owners and members of its teams that may create
// repositories (can_create_org_repo) may. The new repository joins every
// team of the organisation that includes all repositories; a creator who
// is not then an administrator of it becomes an admin collaborator
// (Forgejo's CreateRepositoryByExample). Otherwise as Create.
//
// Errors: forge.ErrInvalid `org does not exist [id: 0, name: x]` when org
// is no organisation (Forgejo answers 422); ErrOrgNotVisible when the
// actor may not see it; forge.ErrForbidden `Given user is not allowed to
// create repository in organization.`; and those of Create.
func (s *Service) CreateInOrg(ctx context.Context, actor forge.Actor, org string, o CreateOptions) (*View, error) {
	if err := checkCreateInOrg(actor); err != nil {
		return nil, err
	}
	return s.create(ctx, actor, org, false, true, o)
}

// checkCreateInOrg is CreateInOrg's check of the actor: signed in, with
// write:organization.
func checkCreateInOrg(actor forge.Actor) error {
	if !actor.IsSignedIn() {
		return forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	return actor.Check(forge.AccessWrite, forge.CategoryOrganization)
}

// ErrOrgNotVisible refuses to create a repository in an organisation the
// actor may not see: Forgejo's 404 `{"message": "HasOrgOrUserVisible",
// "errors": []}`.
var ErrOrgNotVisible = forge.Errorf(forge.ErrNotFound, "HasOrgOrUserVisible")

// orgForCreate resolves the organisation named org for a repository's
// creation by the actor, inside tx (CreateInOrg's rules).
func orgForCreate(ctx context.Context, tx Tx, actor forge.Actor, org string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, org)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !u.IsOrganization() {
		return nil, forge.Errorf(forge.ErrInvalid, "org does not exist [id: 0, name: %s]", org)
	} else if err != nil {
		return nil, err
	}
	member, err := isMember(ctx, tx, actor, u)
	if err != nil {
		return nil, err
	}
	if !OwnerVisibleTo(actor, u, member) {
		return nil, ErrOrgNotVisible
	}
	if actor.IsSiteAdmin() {
		return u, nil
	}
	if ok, err := canCreateOrgRepo(ctx, tx, actor, u.ID); err != nil || !ok {
		if err == nil {
			err = forge.Errorf(forge.ErrForbidden, "Given user is not allowed to create repository in organization.")
		}
		return nil, err
	}
	return u, nil
}

// canCreateOrgRepo is Forgejo's CanCreateOrgRepo: is the actor in a team
// of the organisation that owns it or may create repositories?
func canCreateOrgRepo(ctx context.Context, tx Tx, actor forge.Actor, orgID forge.ID) (bool, error) {
	if !actor.IsSignedIn() {
		return false, nil
	}
	teams, err := tx.OrgTeams(ctx, orgID, actor.User.ID)
	if err != nil {
		return false, err
	}
	for _, t := range teams {
		if t.IsOwners() || t.CanCreateOrgRepo {
			return true, nil
		}
	}
	return false, nil
}

// joinOrgTeams gives r, a new repository of the organisation org, to the
// teams that include all repositories, and makes its creator an admin
// collaborator unless a site administrator or already an administrator
// through those teams.
func joinOrgTeams(ctx context.Context, tx Tx, actor forge.Actor, r *forge.Repository) error {
	teams, err := tx.OrgTeams(ctx, r.OwnerID, 0)
	if err != nil {
		return err
	}
	var all []forge.ID
	for _, t := range teams {
		if t.IncludesAllRepos {
			all = append(all, t.ID)
		}
	}
	if err := tx.AddRepoTeams(ctx, r.ID, all); err != nil {
		return err
	}
	if actor.User.IsAdmin {
		return nil
	}
	grants, err := tx.TeamGrants(ctx, actor.User.ID, []forge.ID{r.ID})
	if err != nil {
		return err
	}
	for _, g := range grants[r.ID] {
		if g.Mode >= forge.AccessModeAdmin {
			return nil
		}
	}
	return tx.SetCollaborator(ctx, r.ID, actor.User.ID, forge.AccessModeAdmin)
}

func (s *Service) create(ctx context.Context, actor forge.Actor, owner string, forOther, inOrg bool, o CreateOptions) (*View, error) {
	c, err := s.begin(ctx, actor, owner, forOther, inOrg, o)
	if err != nil {
		return nil, err
	}
	if err := s.initGit(ctx, actor, c.Repo, o); err != nil {
		s.abort(ctx, c)
		return nil, err
	}
	return s.finish(ctx, c)
}

// Creation is a repository being created whose git directory its creator
// makes (BeginMigration): its row is stored in the forge.RepoCreating
// state, which no read shows and which holds the name; nothing else of
// it exists yet. FinishMigration makes it a repository, AbortMigration
// removes it; a crash in between leaves a creating row that Recover (at
// start) or a creation of the same name after StaleCreation removes, with
// whatever directory was made.
type Creation struct {
	// Repo is the row as written: its ID names the git directory to make.
	Repo  *forge.Repository
	actor forge.Actor
	inOrg bool
}

// begin validates o and writes the row of a new repository in the
// forge.RepoCreating state (Create's and CreateInOrg's rules of the
// owner, its quota, the name).
func (s *Service) begin(ctx context.Context, actor forge.Actor, owner string, forOther, inOrg bool, o CreateOptions) (*Creation, error) {
	if err := ValidateName(o.Name); err != nil {
		return nil, err
	}
	if o.ObjectFormat == "" {
		o.ObjectFormat = forge.SHA1
	}
	if !o.ObjectFormat.Valid() || (o.ObjectFormat == forge.SHA256 && s.cfg.DisableSHA256) {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid object format: %s", o.ObjectFormat)
	}
	branch := o.DefaultBranch
	if branch == "" {
		branch = s.cfg.DefaultBranch
	}
	if !ValidBranchName(branch) || len(branch) > 100 {
		return nil, forge.Errorf(forge.ErrInvalid, "[DefaultBranch]: GitRefName")
	}
	if o.AutoInit {
		// Refuse unknown templates before anything is written.
		if _, err := initFiles(&forge.Repository{Name: o.Name, OwnerName: actor.User.Name}, o, actor.User.Email, s.clock.Now().Year()); err != nil {
			return nil, err
		}
	}
	now := s.clock.Now()
	var r *forge.Repository
	err := s.store.Update(ctx, func(tx Tx) error {
		u := actor.User
		if inOrg {
			var err error
			if u, err = orgForCreate(ctx, tx, actor, owner); err != nil {
				return err
			}
		} else if forOther {
			var err error
			if u, err = tx.UserByName(ctx, owner); err != nil {
				if errors.Is(err, forge.ErrNotFound) {
					return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(owner))
				}
				return err
			}
			if !actor.IsSiteAdmin() {
				return forge.Errorf(forge.ErrForbidden, "user should be the site admin")
			}
		}
		// Forgejo checks the quota of POST /user/repos and
		// /orgs/{org}/repos, not of the administrator's creation.
		if !forOther || o.OwnerQuota {
			if err := s.checkOwnerQuota(ctx, tx, u, o.Private, 0); err != nil {
				return err
			}
		}
		if err := s.clearStaleCreation(ctx, tx, u.ID, o.Name, now); err != nil {
			return err
		}
		r = &forge.Repository{
			OwnerID: u.ID, OwnerName: u.Name, Name: o.Name, Description: o.Description, Private: o.Private,
			Template: o.Template, DefaultBranch: branch, ObjectFormat: o.ObjectFormat, Empty: true,
			Status:    forge.RepoCreating,
			HasIssues: true, HasWiki: true, HasPullRequests: true, HasProjects: true, HasReleases: true,
			HasPackages: true, HasActions: !s.cfg.DisableActions,
			AllowMerge: true, AllowRebase: true, AllowRebaseExplicit: true, AllowSquash: true,
			AllowFastForwardOnly: true, AllowRebaseUpdate: true, DefaultMergeStyle: "merge", DefaultUpdateStyle: "merge",
			InternalTracker: &forge.InternalTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true},
			Topics:          []string{}, Created: now, Updated: now,
		}
		if err := tx.CreateRepo(ctx, r); err != nil {
			if errors.Is(err, forge.ErrConflict) {
				return forge.Errorf(forge.ErrConflict, "The repository with the same name already exists.")
			}
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Creation{Repo: r, actor: actor, inOrg: inOrg}, nil
}

// finish makes a creation whose git directory exists a repository: the
// stored state refreshed from git (size, emptiness, default branch), the
// row marked ready with the object format c.Repo names, the organisation's
// teams, the creator's watch, the outbox's creation event. A creation no
// longer in forge.RepoCreating (a creation of the same name took it as
// stale) is forge.ErrConflict. On failure the creation is undone.
func (s *Service) finish(ctx context.Context, c *Creation) (*View, error) {
	actor, r := c.actor, c.Repo
	if err := s.refresh(ctx, r.ID); err != nil {
		s.abort(ctx, c)
		return nil, err
	}
	var v *View
	if err := s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.RepoByID(ctx, r.ID)
		if err != nil {
			return err
		}
		if cur.Status != forge.RepoCreating {
			return forge.Errorf(forge.ErrConflict, "The repository with the same name already exists.")
		}
		cur.Status = forge.RepoReady
		cur.ObjectFormat = r.ObjectFormat
		if err := tx.UpdateRepo(ctx, cur); err != nil {
			return err
		}
		if c.inOrg {
			if err := joinOrgTeams(ctx, tx, actor, cur); err != nil {
				return err
			}
		}
		// The creator watches the repository (Forgejo's WatchRepo in
		// CreateRepository).
		if !s.cfg.DisableAutoWatch {
			if err := tx.SetWatch(ctx, r.ID, actor.User.ID, WatchNormal, s.clock.Now()); err != nil {
				return err
			}
		}
		owner, err := tx.UserByID(ctx, cur.OwnerID)
		if err != nil {
			return err
		}
		v = &View{Repo: cur, Owner: owner}
		if err := reread(ctx, tx, actor, v); err != nil {
			return err
		}
		return s.appendOutbox(ctx, tx, OutboxRepoCreated, OutboxEvent{Actor: actor, Repo: v.Repo})
	}); err != nil {
		// Undo: a repository left in RepoCreating would hold its name
		// until Recover or StaleCreation.
		s.abort(ctx, c)
		return nil, err
	}
	s.signalOutbox()
	s.notifyCreated(ctx, actor, v.Repo)
	return v, nil
}

// abort undoes a creation: neither a row without files nor files without a
// row remain (removeRepo). Its own failure is logged: Recover finishes it.
func (s *Service) abort(ctx context.Context, c *Creation) {
	if err := s.removeRepo(context.WithoutCancel(ctx), c.Repo.ID); err != nil && !errors.Is(err, forge.ErrNotFound) {
		s.log.Error("repos: undoing a failed creation", "repo", c.Repo.ID, "err", err)
	}
}

// StaleCreation is how long a repository may stay in forge.RepoCreating
// before a new creation of the same name removes it as the remains of a
// crash.
const StaleCreation = 10 * time.Minute

// clearStaleCreation moves aside, inside tx, a row of owner's repository
// name that is being deleted, or was left in forge.RepoCreating for longer
// than StaleCreation. Recover removes it and its git directory; a new
// creation gets a new ID.
func (s *Service) clearStaleCreation(ctx context.Context, tx Tx, owner forge.ID, name string, now time.Time) error {
	r, err := tx.RepoByName(ctx, owner, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	// A row being deleted never blocks its name; one being created does
	// until it is stale.
	stale := r.Status == forge.RepoCreating && now.Sub(r.Created) >= StaleCreation
	if r.Status != forge.RepoDeleting && !stale {
		return nil
	}
	// Leave the git directory to Recover: removing it here, inside the
	// transaction, could race with a creation still in progress. Mark the
	// row as being deleted under a free name so that Recover finds it.
	r.Status = forge.RepoDeleting
	r.Name = fmt.Sprintf("%s.deleted-%d", r.Name, r.ID)
	return tx.UpdateRepo(ctx, r)
}

// removeRepo deletes a repository in the recoverable order: the row is
// marked forge.RepoDeleting, the git directory removed, then the row.
func (s *Service) removeRepo(ctx context.Context, id forge.ID, then ...func(context.Context, Tx) error) error {
	var forkOf forge.ID
	if err := s.store.Update(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, id)
		if err != nil {
			return err
		}
		forkOf = r.ForkID
		r.Status = forge.RepoDeleting
		return tx.UpdateRepo(ctx, r)
	}); err != nil {
		return err
	}
	if err := s.git.Remove(ctx, id); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if err := tx.DeleteRepo(ctx, id); err != nil {
			return err
		}
		if forkOf != 0 {
			if err := tx.RecountForks(ctx, forkOf); err != nil && !errors.Is(err, forge.ErrNotFound) {
				return err
			}
		}
		for _, fn := range then {
			if err := fn(ctx, tx); err != nil {
				return err
			}
		}
		return nil
	})
}

// Recover finishes what a crash interrupted: repositories left in
// forge.RepoCreating or forge.RepoDeleting lose their git directory and
// then their row. Hosts call it once at start, before serving; it is safe
// to call again. It returns the number of repositories removed.
func (s *Service) Recover(ctx context.Context) (int, error) {
	var stuck []forge.ID
	if err := s.store.View(ctx, func(tx Tx) error {
		for page := 1; ; page++ {
			list, _, err := tx.ListRepos(ctx, RepoFilter{AllVisible: true, AnyStatus: true}, forge.ListOptions{Page: page, Limit: 100})
			if err != nil {
				return err
			}
			for _, r := range list {
				if r.Status != forge.RepoReady {
					stuck = append(stuck, r.ID)
				}
			}
			if len(list) < 100 {
				return nil
			}
		}
	}); err != nil {
		return 0, err
	}
	for i, id := range stuck {
		if err := s.removeRepo(ctx, id); err != nil && !errors.Is(err, forge.ErrNotFound) {
			return i, err
		}
	}
	return len(stuck), nil
}

// initGit makes the git directory of a new repository: empty, or with
// AutoInit's initial commit.
func (s *Service) initGit(ctx context.Context, actor forge.Actor, r *forge.Repository, o CreateOptions) error {
	var files []FileOp
	if o.AutoInit {
		var err error
		if files, err = initFiles(r, o, actor.User.Email, s.clock.Now().Year()); err != nil {
			return err
		}
	}
	if err := s.git.Create(ctx, r.ID, r.ObjectFormat, r.DefaultBranch); err != nil {
		return err
	}
	if len(files) > 0 {
		sig := Signature{Name: actor.User.Name, Email: actor.User.Email, When: s.clock.Now()}
		if _, err := s.git.Apply(ctx, r.ID, ChangeSet{NewBranch: r.DefaultBranch, Message: "Initial commit\n",
			Author: sig, Committer: sig, Files: files}); err != nil {
			return err
		}
	}
	return nil
}

// refresh records what the git repository says: its size, whether it is
// empty and, after the first push, its default branch. It reads git at the
// time it runs and writes only what it read, so it may run any number of
// times, in any order (recordRefMoves runs it in the request, and the
// outbox's consumer HandleRefMoves again until it succeeds).
func (s *Service) refresh(ctx context.Context, id forge.ID) error {
	size, err := s.git.Size(ctx, id)
	if err != nil {
		return err
	}
	refs, err := s.git.Refs(ctx, id)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		r, err := tx.RepoByID(ctx, id)
		if err != nil {
			return err
		}
		r.Size = size
		hasBranch, hasDefault := "", false
		for _, ref := range refs {
			if b, ok := strings.CutPrefix(ref.Name, "refs/heads/"); ok {
				if hasBranch == "" {
					hasBranch = b
				}
				hasDefault = hasDefault || b == r.DefaultBranch
			}
		}
		r.Empty = hasBranch == ""
		if !hasDefault && hasBranch != "" {
			r.DefaultBranch = hasBranch // the first push names the default branch
		}
		r.Updated = now
		return tx.UpdateRepo(ctx, r)
	})
}

// AfterPush records a push through smart HTTP (or a merge, which the
// issues package makes) that moved the refs of updates: see recordRefMoves.
// The actor is the pusher and must be able to push: its account may act,
// its credential grants write:repository (forge.Actor.Check's errors), it
// may write to the repository (forge.ErrForbidden), which is not archived
// (forge.ErrArchived); a repository it cannot read is ErrRepoNotFound, as
// a missing one. Nothing is recorded when it may not.
func (s *Service) AfterPush(ctx context.Context, actor forge.Actor, repo forge.ID, updates []RefUpdate) error {
	return s.afterPush(ctx, actor, false, repo, updates)
}

// AfterMirrorSync is AfterPush for a pull mirror's sync, run by actor (the
// mirror scheduler, a site administrator): the event names the
// repository's owner as the pusher, as Forgejo's mirror sync does.
func (s *Service) AfterMirrorSync(ctx context.Context, actor forge.Actor, repo forge.ID, updates []RefUpdate) error {
	return s.afterPush(ctx, actor, true, repo, updates)
}

func (s *Service) afterPush(ctx context.Context, actor forge.Actor, asOwner bool, repo forge.ID, updates []RefUpdate) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	if err := s.store.View(ctx, func(tx Tx) error {
		v, err := loadByID(ctx, tx, actor, repo)
		if err != nil {
			return err
		}
		if err := requireWrite(v); err != nil {
			return err
		}
		return checkWritable(v.Repo)
	}); err != nil {
		return err
	}
	// A deploy key is no user: the owner pushed, as Forgejo's serv names it.
	asOwner = asOwner || actor.DeployKey != nil
	return s.recordRefMoves(ctx, refMoves{actor: actor, asOwner: asOwner, repo: repo, updates: updates})
}

// Delete removes owner/name and its files. Only its owners (Access's
// owner mode: the owner, an organisation's owners, site administrators)
// may (forge.ErrForbidden `user should be the owner of the repo`), with a
// credential granting write:user, or write:organization for an
// organisation's repository (Forgejo's tokenRequiresRepoOwnerScope,
// checked once the repository is found, as Forgejo's route does).
// Deletion is recoverable: see removeRepo and Recover.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, name string) error {
	var repo *forge.Repository
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := resolve(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		cat := forge.CategoryUser
		if v.Owner.IsOrganization() {
			cat = forge.CategoryOrganization
		}
		if err := actor.RequireScope(forge.AccessWrite, cat); err != nil {
			return err
		}
		if !v.IsOwner() {
			return forge.Errorf(forge.ErrForbidden, "user should be the owner of the repo")
		}
		repo = v.Repo
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.removeRepo(ctx, repo.ID, func(ctx context.Context, tx Tx) error {
		return s.appendOutbox(ctx, tx, OutboxRepoDeleted, OutboxEvent{Actor: actor, Repo: repo})
	}); err != nil {
		return err
	}
	s.signalOutbox()
	s.notifyDeleted(ctx, actor, repo)
	return nil
}

// List returns one page of the repositories matching f that the actor may
// see, with the actor's permission on each.
//
// The actor's account must be able to act, and its credential must grant
// read:repository or read:user (Forgejo lists a user's starred and watched
// repositories under the user scope): forge.ErrForbidden otherwise.
func (s *Service) List(ctx context.Context, actor forge.Actor, f RepoFilter, o forge.ListOptions) ([]*View, int64, error) {
	if err := actor.CheckState(); err != nil {
		return nil, 0, err
	}
	if !actor.Allows(forge.CategoryUser, forge.AccessRead) {
		if err := actor.RequireScope(forge.AccessRead, forge.CategoryRepository); err != nil {
			return nil, 0, err
		}
	}
	return s.list(ctx, actor, f, o)
}

// list is List without the checks of the account and the credential.
func (s *Service) list(ctx context.Context, actor forge.Actor, f RepoFilter, o forge.ListOptions) ([]*View, int64, error) {
	f.VisibleTo, f.AllVisible = actor.UserID(), actor.IsSiteAdmin()
	f.Restricted = actor.IsSignedIn() && actor.User.Restricted
	if actor.Scoped && actor.Scope.PublicOnly {
		f.VisibleTo, f.AllVisible = 0, false
	}
	var (
		out   []*View
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		f.AnyStatus = false // being created or deleted: not listed
		list, n, err := tx.ListRepos(ctx, f, o.Normalize())
		if err != nil {
			return err
		}
		total = n
		out, err = viewsOf(ctx, tx, actor, list)
		redactOwners(actor, out)
		return err
	})
	if out == nil {
		out = []*View{}
	}
	return out, total, err
}

// ListOrgRepos returns one page of the repositories of the organisation
// called org that the actor may see, oldest first, with the actor's
// permission on each (Forgejo's GET /orgs/{org}/repos, listUserRepos).
// An unknown name, a name of no organisation, and an organisation the
// actor may not see (OwnerVisibleTo) are all OrgNotFoundError. The
// credential must grant read:organization (the route's category).
func (s *Service) ListOrgRepos(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*View, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryOrganization); err != nil {
		return nil, 0, err
	}
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, org)
		if errors.Is(err, forge.ErrNotFound) || err == nil && !u.IsOrganization() {
			return &OrgNotFoundError{Name: org}
		} else if err != nil {
			return err
		}
		member, err := isMember(ctx, tx, actor, u)
		if err != nil {
			return err
		}
		if !OwnerVisibleTo(actor, u, member) {
			return &OrgNotFoundError{Name: org}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return s.list(ctx, actor, RepoFilter{OwnerID: u.ID}, o)
}

// OrgNotFoundError is Forgejo's ErrOrgNotExist for a name of no
// organisation (or of one the actor may not see): a forge.ErrNotFound
// whose message is `org does not exist [id: 0, name: x]`.
type OrgNotFoundError struct{ Name string }

func (e *OrgNotFoundError) Error() string {
	return "org does not exist [id: 0, name: " + e.Name + "]"
}

// Is makes it a forge.ErrNotFound.
func (e *OrgNotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

// OwnerByName resolves a user for listings of their repositories, as the
// actor may see it: users the actor may not see (OwnerVisible) are
// forge.ErrNotFound exactly like missing ones (`user redirect does not
// exist [name: x]`). forge.ErrForbidden when the actor's account may not
// act.
func (s *Service) OwnerByName(ctx context.Context, actor forge.Actor, name string) (*forge.User, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	var u *forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByName(ctx, name)
		if errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(name))
		} else if err != nil {
			return err
		}
		member, err := isMember(ctx, tx, actor, u)
		if err != nil {
			return err
		}
		if !OwnerVisible(actor, u) && !OwnerVisibleTo(actor, u, member) {
			return forge.Errorf(forge.ErrNotFound, "user redirect does not exist [name: %s]", strings.ToLower(name))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// now is the service clock, for callers in this package.
func (s *Service) now() time.Time { return s.clock.Now() }
