package feeds

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Repos answers what feeds asks of forge/repos (repos.Service implements
// it).
type Repos interface {
	// RepoAccess finds owner/name and the actor's permission on it; a
	// not-found error for repositories the actor may not see.
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
	// PermissionsByID returns the actor's permission on each repository
	// of ids that exists and is ready; others are absent.
	PermissionsByID(ctx context.Context, actor forge.Actor, ids []forge.ID) (map[forge.ID]forge.Permission, error)
}

// Accounts finds a user or organisation as the users' API does
// (auth.Service.Profile: a not-found error for one the actor may not see).
type Accounts interface {
	Profile(ctx context.Context, actor forge.Actor, name string) (*forge.User, error)
}

// Orgs tells who the actor is in an organisation (orgs.Service.MemberRole:
// a not-found error for one the actor may not see).
type Orgs interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// Teams lists a team's organisation and repositories for an actor who may
// see the team (Forgejo's reqTeamMembership: its members, the
// organisation's owners and site administrators; the orgs domain's
// errors otherwise).
type Teams interface {
	TeamRepoIDs(ctx context.Context, actor forge.Actor, team forge.ID) (org *forge.User, repoIDs []forge.ID, err error)
}

// Watchers lists who watches a repository (repos.Ports.WatcherIDs).
type Watchers interface {
	WatcherIDs(ctx context.Context, repoID forge.ID) ([]forge.ID, error)
}

// Config configures a Service. Store, Repos and Accounts are required;
// without Orgs or Teams the organisation or team feeds answer
// forge.ErrNotFound.
type Config struct {
	Store    Store
	Repos    Repos
	Accounts Accounts
	Orgs     Orgs
	Teams    Teams
	// Watchers nil: actions reach only their doer and the organisation.
	Watchers Watchers
	// Clock nil is forge.SystemClock.
	Clock forge.Clock
}

// Service serves activity feeds and heatmaps. Safe for concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
}

// New returns a Service for cfg; forge.ErrInvalid without Store, Repos or
// Accounts. The composition root calls NewWithPorts instead, for
// Ports.Record.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Repos == nil || cfg.Accounts == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "feeds: Config.Store, Config.Repos and Config.Accounts are required")
	}
	return &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock)}, nil
}

// Query selects a page of a feed.
type Query struct {
	// OnlyPerformedBy: only the actions the user did (the user feed's
	// `only-performed-by`).
	OnlyPerformedBy bool
	// Date is the `date` filter, YYYY-MM-DD (UTC): the actions of that
	// day. A date that does not parse is ignored, as Forgejo ignores it.
	Date string
	forge.ListOptions
}

// View is a page of a feed with the doers of its actions (redacted for
// the actor), by ID.
type View struct {
	Actions []*Action
	Users   map[forge.ID]*forge.User
	Total   int64
}

// UserFeed is GET /users/{username}/activities/feeds (read:user): the
// actions received by the user or organisation name, private ones only
// for the user itself and site administrators. Errors: the requirement's;
// Accounts' not-found error for a user the actor may not see.
func (s *Service) UserFeed(ctx context.Context, actor forge.Actor, name string, q Query) (*View, error) {
	u, f, err := s.received(ctx, actor, "userListActivityFeeds", name)
	if err != nil {
		return nil, err
	}
	if q.OnlyPerformedBy {
		f.ActUserID = u.ID
	}
	self := actor.IsSignedIn() && actor.User.ID == u.ID && !(actor.Scoped && actor.Scope.PublicOnly)
	f.ExcludePrivate = !(actor.IsSiteAdmin() || self)
	return s.list(ctx, actor, f, q)
}

// OrgFeed is GET /orgs/{org}/activities/feeds (read:organization): the
// actions received by the organisation, private ones for its members and
// site administrators. Errors: the requirement's; Orgs' not-found error.
func (s *Service) OrgFeed(ctx context.Context, actor forge.Actor, org string, q Query) (*View, error) {
	if err := start(actor, "orgListActivityFeeds"); err != nil {
		return nil, err
	}
	if s.cfg.Orgs == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "organization does not exist")
	}
	o, _, member, err := s.cfg.Orgs.MemberRole(ctx, actor, org)
	if err != nil {
		return nil, err
	}
	f := s.viewerFilter(actor, o)
	f.UserID = o.ID
	f.ExcludePrivate = !(actor.IsSiteAdmin() || member && !(actor.Scoped && actor.Scope.PublicOnly))
	return s.list(ctx, actor, f, q)
}

// TeamFeed is GET /teams/{id}/activities/feeds (read:organization, a
// signed-in member of the team, an owner of its organisation or a site
// administrator): the organisation's actions on the team's repositories.
// Errors: the requirement's; Teams' errors.
func (s *Service) TeamFeed(ctx context.Context, actor forge.Actor, team forge.ID, q Query) (*View, error) {
	if err := start(actor, "orgListTeamActivityFeeds"); err != nil {
		return nil, err
	}
	if s.cfg.Teams == nil {
		return nil, forge.Errorf(forge.ErrNotFound, "team does not exist")
	}
	o, repoIDs, err := s.cfg.Teams.TeamRepoIDs(ctx, actor, team)
	if err != nil {
		return nil, err
	}
	f := s.viewerFilter(actor, o)
	f.UserID, f.RepoIDs = o.ID, append([]forge.ID{}, repoIDs...)
	f.ExcludePrivate = actor.Scoped && actor.Scope.PublicOnly
	return s.list(ctx, actor, f, q)
}

// RepoFeed is GET /repos/{owner}/{repo}/activities/feeds
// (read:repository): the repository's actions (each once: the rows its
// doers received). Errors: the requirement's; Repos' not-found error.
func (s *Service) RepoFeed(ctx context.Context, actor forge.Actor, owner, name string, q Query) (*View, error) {
	if err := start(actor, "repoListActivityFeeds"); err != nil {
		return nil, err
	}
	r, _, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	f := s.viewerFilter(actor, nil)
	f.RepoID = r.ID
	f.OnlyDoerRows = true
	f.ExcludePrivate = actor.Scoped && actor.Scope.PublicOnly
	return s.list(ctx, actor, f, q)
}

// Heatmap is GET /users/{username}/heatmap (read:user): the actions a
// user did in the last year (for an organisation, those received by it),
// on the repositories the actor may see, per HeatmapBucketSeconds.
// Errors: the requirement's; Accounts' not-found error.
func (s *Service) Heatmap(ctx context.Context, actor forge.Actor, name string) ([]HeatmapBucket, error) {
	u, f, err := s.received(ctx, actor, "userGetHeatmapData", name)
	if err != nil {
		return nil, err
	}
	if !u.IsOrganization() {
		f.ActUserID = u.ID
	}
	f.From = s.clock.Now().Add(-365 * 24 * time.Hour)
	if f.RepoIDs, err = s.readable(ctx, actor, f); err != nil {
		return nil, err
	}
	out := []HeatmapBucket{}
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, err := tx.Heatmap(ctx, f)
		out = append(out, list...)
		return err
	})
	return out, err
}

// received checks op's requirement, finds the user or organisation name
// as the actor may see it (Accounts) and returns it with the filter of
// the actions it received as the actor may see them.
func (s *Service) received(ctx context.Context, actor forge.Actor, op, name string) (*forge.User, Filter, error) {
	if err := start(actor, op); err != nil {
		return nil, Filter{}, err
	}
	u, err := s.cfg.Accounts.Profile(ctx, actor, name)
	if err != nil {
		return nil, Filter{}, err
	}
	f := s.viewerFilter(actor, u)
	f.UserID = u.ID
	return u, f, nil
}

// viewerFilter is the part of Forgejo's activityQueryCondition that
// depends on the viewer: whose actions it may see (public doers to
// everyone; limited ones and itself to signed-in users; the requested
// organisation, or the organisations the requested user belongs to).
// Site administrators see every doer.
func (s *Service) viewerFilter(actor forge.Actor, requested *forge.User) Filter {
	var f Filter
	switch {
	case actor.IsSiteAdmin():
	case !actor.IsSignedIn():
		f.ActVisibilities = []forge.Visibility{forge.VisibilityPublic}
	default:
		f.ActVisibilities = []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited}
		f.ActUsers = []forge.ID{actor.User.ID}
		if requested != nil && requested.IsOrganization() {
			f.ActUsers = append(f.ActUsers, requested.ID)
		} else if requested != nil {
			f.ActOrgsOf = requested.ID
		}
	}
	return f
}

// readable returns the repositories of the actions f's UserID and RepoID
// select that the actor may see (Forgejo's AccessibleRepoIDsQuery),
// within f.RepoIDs when it is set. Never nil.
func (s *Service) readable(ctx context.Context, actor forge.Actor, f Filter) ([]forge.ID, error) {
	var ids []forge.ID
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		ids, err = tx.ActionRepos(ctx, f)
		return err
	}); err != nil {
		return nil, err
	}
	if f.RepoIDs != nil {
		ids = slices.DeleteFunc(ids, func(id forge.ID) bool { return !slices.Contains(f.RepoIDs, id) })
	}
	perms, err := s.cfg.Repos.PermissionsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := []forge.ID{}
	for _, id := range ids {
		if p, ok := perms[id]; ok && p.HasAccess() {
			out = append(out, id)
		}
	}
	return out, nil
}

// list reads one page of the actions f selects on the repositories the
// actor may see, with the date filter of q and its doers.
func (s *Service) list(ctx context.Context, actor forge.Actor, f Filter, q Query) (*View, error) {
	if day, err := time.ParseInLocation("2006-01-02", q.Date, time.UTC); q.Date != "" && err == nil {
		f.From, f.To = day, day.Add(24*time.Hour-time.Second)
	}
	var err error
	if f.RepoIDs, err = s.readable(ctx, actor, f); err != nil {
		return nil, err
	}
	v := &View{Users: map[forge.ID]*forge.User{}}
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, n, err := tx.ListActions(ctx, f, q.ListOptions.Normalize())
		if err != nil {
			return err
		}
		v.Actions, v.Total = list, n
		ids := make([]forge.ID, 0, len(list))
		for _, a := range list {
			ids = append(ids, a.ActUserID)
		}
		users, err := tx.UsersByID(ctx, ids)
		for id, u := range users {
			v.Users[id] = u.VisibleTo(actor)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
