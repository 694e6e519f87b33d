package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

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
// for sync_on_commit push mirrors (mirror.Service.AfterPush makes them due
// now: idempotent); nil svc when mirrors are disabled. An error leaves the
// event pending, to be tried again.
type mirrorPushes struct {
	svc *mirror.Service
	log *slog.Logger
}

func (p *mirrorPushes) consume(ctx context.Context, data []byte) error {
	if p.svc == nil {
		return nil
	}
	e, err := repos.UnmarshalOutbox(data)
	if err != nil || e.Repo == nil {
		p.log.Warn("outbox: ref moves not read (push mirrors)", "err", err)
		return nil
	}
	return p.svc.AfterPush(ctx, e.Repo)
}

// startMirrors makes the mirror service over db's mirror store and runs its
// scheduler until the returned stop is called. A store without mirrors
// leaves the feature out (nil service, the routes then answer 501).
// allowLocal lets migrations and mirrors reach loopback addresses
// (-allow-local-migrations).
func startMirrors(ctx context.Context, db any, repoSvc *repos.Service, git *gitstore.Store, secret []byte,
	allowLocal bool, dataDir, listen string, log *slog.Logger) (*mirror.Service, func(), error) {
	ms, ok := db.(interface{ Mirrors() mirror.Store })
	if !ok {
		log.Warn("mirrors disabled: the database has no mirror store")
		return nil, func() {}, nil
	}
	holder, err := mirrorHolder(dataDir, listen)
	if err != nil {
		return nil, nil, err
	}
	svc, err := mirror.New(mirror.Config{Store: ms.Mirrors(), Repos: mirrorRepos{repoSvc}, Git: gitstore.Mirror{Store: git},
		Secret: secret, Logger: log, Policy: mirror.Policy{AllowLoopback: allowLocal}, Quota: repoSvc, Holder: holder})
	if err != nil {
		return nil, nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := svc.NewScheduler(holder, nil).Run(runCtx); err != nil && runCtx.Err() == nil {
			log.Error("mirror scheduler", "err", err)
		}
	}()
	return svc, func() { cancel(); <-done }, nil
}

// mirrorHolder is the mirror lease holder of the server listening on
// listen (its bound address) with data directory dataDir: stable across
// restarts of that server (a name kept in the data directory, the host
// name and the address), so that a restart after a crash releases the
// leases the crash left; distinct for every server sharing the data
// directory (two servers can't listen on one address of one host), so
// that neither takes nor releases the other's leases.
func mirrorHolder(dataDir, listen string) (string, error) {
	id, err := loadSecret(filepath.Join(dataDir, "mirror-holder"))
	if err != nil {
		return "", err
	}
	host, _ := os.Hostname()
	return host + "/" + listen + "/" + string(id[:16]), nil
}
