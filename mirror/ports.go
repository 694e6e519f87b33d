package mirror

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the mirror service's trusted ports: what the outbox's
// consumers call on its behalf after a change another domain recorded,
// with no actor (the change was authorised when it was made). They are
// for the composition root (forge/site): Ports check nothing. Only
// NewWithPorts makes one.
type Ports Service

// NewWithPorts is New, with the service's trusted ports (the same
// service, seen through them), for the composition root. New(cfg) is the
// service without them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	return s, (*Ports)(s), err // nil, nil, err when New fails
}

// AfterPush is the push listener for sync_on_commit: every push mirror of
// repo with SyncOnCommit is made due now and the schedulers are woken
// (Forgejo queues them). Archived repositories push nowhere. It writes no
// git data, so it needs no permission beyond the push that called it.
func (p *Ports) AfterPush(ctx context.Context, repo *forge.Repository) error {
	s := (*Service)(p)
	if s.cfg.Disabled || repo.Archived {
		return nil
	}
	now := s.now()
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		ms, _, err := tx.PushMirrors(ctx, repo.ID, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.SyncOnCommit {
				m.NextUpdate = dueNow(m.NextUpdate, now) // a push running now leaves it due
				if err := tx.UpdatePushMirror(ctx, m); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		s.wake()
	}
	return err
}
