package feeds

import (
	"context"
	"slices"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the feed service's trusted operations: they take no actor, so
// they are not on the published Service. Only the composition root
// (forge/site) receives them, from NewWithPorts: its outbox consumer
// records the domains' events with Record.
type Ports struct{ s *Service }

// NewWithPorts is New, also returning the service's Ports.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// Act is one action of an event, before it has receivers.
type Act struct {
	OpType    OpType
	CommentID forge.ID
	RefName   string
	Content   string
	// Update is, for an action of a push, the index of its reference
	// update in the event (the composition root reads its commits); not
	// stored.
	Update int
}

// Event is what a user did on a repository: one or more actions (a push
// moves several references), as an outbox event tells it.
type Event struct {
	// EventID is the outbox event it comes from: Record writes the rows
	// of an event once. 0: no such guard.
	EventID forge.ID
	Doer    forge.ID
	Repo    *forge.Repository
	Acts    []Act
	// At is when it happened. Zero: now (Config.Clock).
	At time.Time
}

// Record writes the feed rows of e, as Forgejo's NotifyWatchers: for
// each action one row for its doer, one for the organisation owning the
// repository (unless it is the doer), and one for each watcher who may
// read the unit the action is about (OpType.Unit), all in one
// transaction. It is idempotent: rows already written for e.EventID are
// not written again (an outbox consumer retried). It checks no actor: the
// doer acted and was checked by the domain that made the event.
func (p *Ports) Record(ctx context.Context, e Event) error {
	if e.Repo == nil || len(e.Acts) == 0 || e.Doer == 0 {
		return nil
	}
	if done, err := p.recorded(ctx, e.EventID); err != nil || done {
		return err
	}
	var watchers []forge.ID
	if p.s.cfg.Watchers != nil {
		var err error
		if watchers, err = p.s.cfg.Watchers.WatcherIDs(ctx, e.Repo.ID); err != nil {
			return err
		}
	}
	var users map[forge.ID]*forge.User
	if err := p.s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		users, err = tx.UsersByID(ctx, append([]forge.ID{e.Doer, e.Repo.OwnerID}, watchers...))
		return err
	}); err != nil {
		return err
	}
	if users[e.Doer] == nil {
		return nil // the doer's account is gone: nobody's feed shows it
	}
	// What each watcher may read of the repository, asked once.
	perms := map[forge.ID]forge.Permission{}
	for _, w := range watchers {
		if u := users[w]; u != nil && w != e.Doer {
			got, err := p.s.cfg.Repos.PermissionsByID(ctx, forge.Actor{User: u}, []forge.ID{e.Repo.ID})
			if err != nil {
				return err
			}
			perms[w] = got[e.Repo.ID]
		}
	}
	at := e.At
	if at.IsZero() {
		at = p.s.clock.Now()
	}
	var rows []*Action
	for _, a := range e.Acts {
		to := []forge.ID{e.Doer}
		if o := users[e.Repo.OwnerID]; o != nil && o.IsOrganization() && o.ID != e.Doer {
			to = append(to, o.ID)
		}
		unit, checked := a.OpType.Unit()
		for _, w := range watchers {
			perm, ok := perms[w]
			if !ok || slices.Contains(to, w) || checked && !perm.CanRead(unit) {
				continue
			}
			to = append(to, w)
		}
		for _, id := range to {
			rows = append(rows, &Action{UserID: id, OpType: a.OpType, ActUserID: e.Doer, RepoID: e.Repo.ID,
				CommentID: a.CommentID, RefName: a.RefName, IsPrivate: e.Repo.Private, Content: a.Content,
				Created: at, EventID: e.EventID})
		}
	}
	return p.s.cfg.Store.Update(ctx, func(tx Tx) error {
		if e.EventID != 0 {
			if done, err := tx.EventRecorded(ctx, e.EventID); err != nil || done {
				return err
			}
		}
		return tx.CreateActions(ctx, rows)
	})
}

// recorded reports whether the rows of outbox event id are written.
func (p *Ports) recorded(ctx context.Context, id forge.ID) (bool, error) {
	if id == 0 {
		return false, nil
	}
	var done bool
	err := p.s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		done, err = tx.EventRecorded(ctx, id)
		return err
	})
	return done, err
}
