package repos

import (
	"context"
	"errors"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Ports are the repository service's trusted ports: the methods other
// domains and the host's transports call on the service's behalf, with no
// actor, because the caller has already decided who acts (notify asks
// whom to tell, the git transport reserves the quota of a push CheckPush
// allowed, mirror checks an owner's quota, the outbox consumes ref moves).
// They are for the composition root (forge/site), which hands each to the
// adapter or consumer that needs it: Ports check nothing. Only
// NewWithPorts makes one.
type Ports struct{ s *Service }

// NewWithPorts is New, with the service's trusted ports (a value
// only the caller receives), for the composition root. New(cfg) is the
// service without them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// WatcherIDs returns the ids of the users watching repository repoID
// (normal or automatic watches), ascending. It does no authorisation:
// notify asks it whom to tell of an event, and checks each user's
// permission itself.
func (p *Ports) WatcherIDs(ctx context.Context, repoID forge.ID) ([]forge.ID, error) {
	s := p.s
	var ids []forge.ID
	err := s.store.View(ctx, func(tx Tx) error {
		for page := 1; ; page++ {
			users, total, err := tx.ListWatchers(ctx, repoID, forge.ListOptions{Page: page, Limit: forge.MaxPageSize})
			if err != nil {
				return err
			}
			for _, u := range users {
				ids = append(ids, u.ID)
			}
			if len(users) == 0 || int64(len(ids)) >= total {
				return nil
			}
		}
	})
	slices.Sort(ids)
	return ids, err
}

// ReservePush reserves n bytes, the size of the objects a push accepted
// by CheckPush brings (known at git's pre-receive step), of the quota of
// the owner of plan's repository: the reservation's id (0 when quota is
// disabled) or a *quota.ExceededError, when the push must be refused
// before any reference moves. The host calls ReleasePush with the id
// once the push ended: after AfterPush measured the size when references
// moved, at once when none did.
func (p *Ports) ReservePush(ctx context.Context, plan *PushPlan, n int64) (forge.ID, error) {
	s := p.s
	if n > 0 { // a push of no objects (a new reference to a commit stored) is Forgejo's check
		n = gitEstimate(n, 0)
	}
	return s.reserveQuota(ctx, plan.View.Repo, n)
}

// ReleasePush releases a reservation of ReservePush (0: none).
func (p *Ports) ReleasePush(ctx context.Context, id forge.ID) { p.s.releaseQuota(ctx, id) }

// CheckGitQuota is Forgejo's EnforceQuotaAPI(size:git:all) for the owner
// of r, for the git writes of other domains (mirror sync): nil when quota
// is disabled or allows it, else a *quota.ExceededError naming the owner.
func (p *Ports) CheckGitQuota(ctx context.Context, r *forge.Repository) error {
	return p.s.checkQuota(ctx, r, quota.SubjectGitAll)
}

// CheckReposQuota is the size:repos:all check of the owner of r for the
// git writes of other domains (a scheduled pull-mirror sync is skipped
// when it refuses): nil when quota is disabled or allows it, else a
// *quota.ExceededError naming the owner.
func (p *Ports) CheckReposQuota(ctx context.Context, r *forge.Repository) error {
	return p.s.checkQuota(ctx, r, quota.SubjectReposAll)
}

// HandleRefMoves is the outbox consumer of OutboxPush events (a
// hooks.OutboxHandler, registered with the dispatcher's Consume) that
// brings the repository's stored state (size, emptiness, default branch)
// up to date with git. It is idempotent: it reads git when it runs. An
// error (git or the store failing) leaves the event pending, to be tried
// again, as does an event of a newer version (forge.ErrNewerEvent); data
// that is not an event, and a repository deleted since, are done with
// (nil).
func (p *Ports) HandleRefMoves(ctx context.Context, data []byte) error {
	s := p.s
	e, err := UnmarshalOutbox(data)
	if err != nil || e.Repo == nil {
		s.log.WarnContext(ctx, "outbox: ref moves not read", "err", err)
		if errors.Is(err, forge.ErrNewerEvent) {
			return err // for a server that reads it
		}
		return nil
	}
	err = s.refresh(ctx, e.Repo.ID)
	if errors.Is(err, forge.ErrNotFound) {
		return nil
	}
	return err
}

// RecordRefMoves records ref moves that another domain made in repo on
// actor's behalf, after authorising them by a rule of its own that this
// package cannot check: a base repository's maintainer updating a fork's
// head branch when the pull request allows maintainer edits (Forgejo's
// allow_maintainer_edit). It is recordRefMoves with no permission check
// of actor on repo (the actor is the pusher the event names); every other
// ref move goes through a method that checks the actor itself.
func (p *Ports) RecordRefMoves(ctx context.Context, actor forge.Actor, repo forge.ID, updates []RefUpdate) error {
	return p.s.recordRefMoves(ctx, refMoves{actor: actor, repo: repo, updates: updates})
}
