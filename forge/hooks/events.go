package hooks

import (
	"context"
	"encoding/json"

	"github.com/hearthforge/hearth/forge"
)

// Event is something that happened in a repository, for the hooks that
// subscribe to it.
type Event struct {
	// Word is the event word hooks subscribe to ("push", "create",
	// "issues_only", "issue_comment"…).
	Word string
	// Name and Type are the X-Forgejo-Event and X-Forgejo-Event-Type
	// headers ("issues" and "issues" for Word "issues_only"); empty means
	// Word.
	Name, Type string
	// Repo is where it happened: its hooks, its owner's hooks and the
	// system hooks receive it.
	Repo *forge.Repository
	// Branch is the branch it concerns, for branch filters ("" for none).
	Branch string
	// Payload is marshalled as the JSON body.
	Payload any
}

// enqueueTx stores the tasks of ev in tx and returns how many.
func (s *Service) enqueueTx(ctx context.Context, tx Tx, ev Event) (int, error) {
	body, err := json.Marshal(ev.Payload)
	if err != nil {
		return 0, forge.Errorf(forge.ErrInvalid, "hooks: payload: %v", err)
	}
	name := ev.Name
	if name == "" {
		name = ev.Word
	}
	typ := ev.Type
	if typ == "" {
		typ = name
	}
	now := s.clock.Now()
	all := forge.ListOptions{Limit: -1}
	var hooks []*Hook
	for _, f := range []Filter{{RepoID: ev.Repo.ID}, {OwnerID: ev.Repo.OwnerID}, {System: true}} {
		f.ActiveOnly = true
		list, _, err := tx.ListHooks(ctx, f, all)
		if err != nil {
			return 0, err
		}
		hooks = append(hooks, list...)
	}
	n := 0
	for _, h := range hooks {
		if !Deliverable(h.Type) || !Subscribes(h.Events, ev.Word) || !MatchBranchFilter(h.BranchFilter, ev.Branch) {
			continue
		}
		t := &Task{HookID: h.ID, UUID: s.cfg.NewUUID(), Event: name, EventType: typ, Payload: body, NextAttempt: now, Created: now}
		if err := tx.CreateTask(ctx, t); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// RefUpdate is one reference changed by a push (repos.RefUpdate's fields).
type RefUpdate struct{ Ref, OldID, NewID string }

// copyDefaults copies the default hooks into repo as repository hooks, in
// one transaction (Forgejo's CopyDefaultWebhooksToRepo).
func (s *Service) copyDefaults(ctx context.Context, repo *forge.Repository) error {
	if c := collectorFrom(ctx); c != nil {
		c.ops = append(c.ops, op{defaults: repo})
		return nil
	}
	return s.store.Update(ctx, func(tx Tx) error { return s.copyDefaultsTx(ctx, tx, repo) })
}

func (s *Service) copyDefaultsTx(ctx context.Context, tx Tx, repo *forge.Repository) error {
	now := s.clock.Now()
	defaults, _, err := tx.ListHooks(ctx, Filter{}, forge.ListOptions{Limit: -1})
	if err != nil {
		return err
	}
	for _, d := range defaults {
		h := d.Clone()
		h.ID, h.RepoID, h.OwnerID, h.IsSystem, h.Created, h.Updated = 0, repo.ID, 0, false, now, now
		if err := tx.CreateHook(ctx, h); err != nil {
			return err
		}
	}
	return nil
}

// Test queues a test delivery of hook id of owner/repo, whatever its
// events, as Forgejo's TestHook: a push of one commit, the head of ref (a
// branch, tag or commit id; "" means the default branch), with before and
// after both that commit, ref "refs/heads/<default branch>" (or ref as
// given), and the actor as pusher and sender. An inactive hook receives
// nothing, and neither does any hook of an empty repository (Forgejo
// answers 204 before looking the hook up). Config.Payloads builds the
// payload. Errors: Get's; ErrHookNotFound; forge.ErrNotFound when ref names
// no commit; forge.ErrPrecondition without Config.Payloads.
func (s *Service) Test(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID, ref string) error {
	sc, err := s.resolve(ctx, actor, RepoHooks(owner, repo), forge.AccessWrite)
	if err != nil {
		return err
	}
	r := sc.repo
	if r.Empty {
		return nil
	}
	rev := ref
	if rev == "" {
		rev = r.DefaultBranch
		ref = "refs/heads/" + r.DefaultBranch
	}
	if s.cfg.Payloads == nil {
		return forge.Errorf(forge.ErrPrecondition, "hooks: no Config.Payloads to build the test payload")
	}
	p, err := s.cfg.Payloads.TestPush(ctx, actor, r, ref, rev)
	if err != nil {
		return err
	}
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	queued := false
	err = s.store.Update(ctx, func(tx Tx) error {
		h, err := ownHook(ctx, tx, sc, id)
		if err != nil || !h.Active {
			queued = false
			return err
		}
		queued = true
		return tx.CreateTask(ctx, &Task{HookID: id, UUID: s.cfg.NewUUID(), Event: "push", EventType: "push",
			Payload: body, NextAttempt: now, Created: now})
	})
	if err == nil && queued {
		s.signal()
	}
	return err
}
