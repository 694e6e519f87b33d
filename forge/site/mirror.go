package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
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

// mirrorPushes is the outbox consumer of ref moves (repos.OutboxPush)
// for sync_on_commit push mirrors (mirror.Ports.AfterPush makes them due
// now: idempotent). An error leaves the event pending, to be tried again.
type mirrorPushes struct {
	ports *mirror.Ports
	log   *slog.Logger
}

func (p *mirrorPushes) consume(ctx context.Context, data []byte) error {
	e, err := repos.UnmarshalOutbox(data)
	if err != nil || e.Repo == nil {
		p.log.Warn("outbox: ref moves not read (push mirrors)", "err", err)
		return nil
	}
	return p.ports.AfterPush(ctx, e.Repo)
}

// newMirrors makes the mirror service over store, with its trusted ports
// (Site.Run runs its scheduler under holder). The repository ports check
// the owners' quota before a sync. allowLocal lets migrations and mirrors
// reach loopback addresses.
func newMirrors(store mirror.Store, repoSvc *repos.Service, repoPorts *repos.Ports, git *gitstore.Store, secret []byte,
	allowLocal bool, holder string, clock forge.Clock, log *slog.Logger) (*mirror.Service, *mirror.Ports, error) {
	return mirror.NewWithPorts(mirror.Config{Store: store, Repos: mirrorRepos{repoSvc}, Git: gitstore.Mirror{Store: git},
		Secret: secret, Logger: log, Policy: mirror.Policy{AllowLoopback: allowLocal}, Quota: repoPorts, Holder: holder, Clock: clock})
}
