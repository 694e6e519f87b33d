package site

import (
	"context"
	"log/slog"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// mirrorRepos adapts repos.Service to mirror.Repos. The scheduler acts as
// the system: a site administrator that no request can be.
type mirrorRepos struct{ s *repos.Service }

var mirrorSystem = forge.Actor{User: &forge.User{ID: -1, Name: "mirror-scheduler", IsAdmin: true, IsActive: true}}

func (m mirrorRepos) RepoAccess(ctx context.Context, a forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	return m.s.RepoAccess(ctx, a, owner, name)
}

func (m mirrorRepos) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	r, _, err := m.s.RepoAccessByID(ctx, mirrorSystem, id)
	return r, err
}

// Refresh records the sync's reference updates as a push by the
// repository's owner (as Forgejo names the pusher of a mirror sync):
// repos.Service.AfterMirrorSync, whose outbox event's consumers refresh
// the size, send the webhooks and synchronise pull requests and push
// mirrors.
func (m mirrorRepos) Refresh(ctx context.Context, id forge.ID, updates []mirror.RefUpdate) error {
	return m.s.AfterMirrorSync(ctx, mirrorSystem, id, mirrorUpdates(updates))
}

// mirrorUpdates converts a sync's updates to the push listeners' (nil for
// none).
func mirrorUpdates(updates []mirror.RefUpdate) []repos.RefUpdate {
	var out []repos.RefUpdate
	for _, u := range updates {
		out = append(out, repos.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID})
	}
	return out
}

// MirrorCreator is mirror.Creator over the repository service, as New
// wires migrations (exported for hosts and tests that build the services
// one by one; package mirror reaches repositories through values only, so
// the adapter lives here): repos.Service.AuthorizeMigrate, then
// BeginMigration, FinishMigration or AbortMigration around the clone.
// Each checks the actor itself.
type MirrorCreator struct{ Repos *repos.Service }

var _ mirror.Creator = MirrorCreator{}

// migration is a repos.Creation as package mirror holds it.
type migration struct{ c *repos.Creation }

func (m migration) Repository() *forge.Repository { return m.c.Repo }

// AuthorizeMigrate implements mirror.Creator.
func (m MirrorCreator) AuthorizeMigrate(ctx context.Context, actor forge.Actor, owner string, private bool) error {
	return m.Repos.AuthorizeMigrate(ctx, actor, owner, private)
}

// BeginMigration implements mirror.Creator.
func (m MirrorCreator) BeginMigration(ctx context.Context, actor forge.Actor, owner string, r mirror.NewRepository) (mirror.Creation, error) {
	c, err := m.Repos.BeginMigration(ctx, actor, owner, repos.MigrationTarget{Name: r.Name, Description: r.Description, Private: r.Private})
	if err != nil {
		return nil, err
	}
	return migration{c}, nil
}

// FinishMigration implements mirror.Creator.
func (m MirrorCreator) FinishMigration(ctx context.Context, actor forge.Actor, c mirror.Creation, format forge.ObjectFormat) (*forge.Repository, error) {
	v, err := m.Repos.FinishMigration(ctx, actor, creationOf(c), format)
	if err != nil {
		return nil, err
	}
	return v.Repo, nil
}

// AbortMigration implements mirror.Creator.
func (m MirrorCreator) AbortMigration(ctx context.Context, actor forge.Actor, c mirror.Creation) error {
	return m.Repos.AbortMigration(ctx, actor, creationOf(c))
}

// creationOf is the repos.Creation BeginMigration returned (nil for any
// other value: the repository service refuses it).
func creationOf(c mirror.Creation) *repos.Creation {
	if m, ok := c.(migration); ok {
		return m.c
	}
	return nil
}

// mirrorPushes is the outbox consumer of ref moves (repos.OutboxPush)
// for sync_on_commit push mirrors (mirror.Ports.AfterPush makes them due
// now: idempotent). An error leaves the event pending, to be tried again.
type mirrorPushes struct {
	ports *mirror.Ports
	log   *slog.Logger
}

func (p *mirrorPushes) consume(ctx context.Context, e repos.OutboxEvent) error {
	// Only branches and tags, as Forgejo's pushUpdates: a move of
	// refs/notes/commits (the notes API) syncs no mirror.
	if !slices.ContainsFunc(e.Updates, func(u repos.RefUpdate) bool { k, _ := hooks.RefKind(u.Ref); return k != "" }) {
		return nil
	}
	return p.ports.AfterPush(ctx, e.Repo)
}

// newMirrors makes the mirror service over store, migrations creating
// repositories through repoSvc, and its trusted ports (Site.Run runs its
// scheduler under holder; the outbox's consumer of ref moves makes push
// mirrors due). allowLocal lets migrations and mirrors reach loopback
// addresses. The repository ports check the owners' quota before a sync.
func newMirrors(store mirror.Store, repoSvc *repos.Service, repoPorts *repos.Ports, git *gitstore.Store, secret []byte,
	allowLocal bool, holder string, clock forge.Clock, log *slog.Logger) (*mirror.Service, *mirror.Ports, error) {
	return mirror.NewWithPorts(mirror.Config{Store: store, Repos: mirrorRepos{repoSvc}, Creator: MirrorCreator{repoSvc},
		Git: gitstore.Mirror{Store: git}, Secret: secret, Logger: log, Policy: mirror.Policy{AllowLoopback: allowLocal},
		Quota: repoPorts, Holder: holder, Clock: clock})
}
