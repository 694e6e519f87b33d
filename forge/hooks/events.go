package hooks

import (
	"context"
	"encoding/json"
	"errors"

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

// Enqueue queues ev for every active hook that receives it: the
// repository's hooks, its owner's (organisation or user) hooks and the
// system hooks, whose events include ev.Word and whose branch filter
// passes ev.Branch. Hooks of a type Hearth does not deliver (see
// Deliverable) get nothing. It returns once the
// tasks are stored; Run delivers them, in the hook type's format. Called
// with the ctx of an OutboxHandler it stores nothing: the Dispatcher
// stores the tasks in the transaction that marks the event processed (as
// it does the default hooks RepoCreated and Forked copy).
func (s *Service) Enqueue(ctx context.Context, ev Event) error {
	if c := collectorFrom(ctx); c != nil {
		// Handling an outbox event: the dispatcher stores the tasks in
		// the transaction that marks the event processed.
		c.ops = append(c.ops, op{ev: ev})
		return nil
	}
	n := 0
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		n, err = s.enqueueTx(ctx, tx, ev)
		return err
	})
	if err == nil && n > 0 {
		s.signal()
	}
	return err
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

// users loads the accounts of payloads (missing ones are nil).
func (s *Service) users(ctx context.Context, ids ...forge.ID) []*forge.User {
	out := make([]*forge.User, len(ids))
	_ = s.store.View(ctx, func(tx Tx) error {
		for i, id := range ids {
			if u, err := tx.UserByID(ctx, id); err == nil {
				out[i] = u
			}
		}
		return nil
	})
	return out
}

// RefUpdate is one reference changed by a push (repos.RefUpdate's fields).
type RefUpdate struct{ Ref, OldID, NewID string }

// Pushed queues the events of a push: create for each new reference,
// delete for each removed one, push for each one not removed. Push
// payloads list the commits Config.Commits reads (at most
// MaxPayloadCommits, newest first; empty without a CommitReader).
func (s *Service) Pushed(ctx context.Context, actor forge.Actor, repo *forge.Repository, updates []RefUpdate) error {
	us := s.users(ctx, repo.OwnerID)
	prepo, sender := s.payloadRepo(repo, us[0]), s.payloadUser(actor.User)
	var errs []error
	for _, u := range updates {
		kind, short := RefKind(u.Ref)
		branch := ""
		if kind == "branch" {
			branch = short
		}
		if IsZeroID(u.OldID) && kind != "" {
			errs = append(errs, s.Enqueue(ctx, Event{Word: "create", Repo: repo, Branch: branch,
				Payload: CreatePayload{SHA: u.NewID, Ref: short, RefType: kind, Repo: prepo, Sender: sender}}))
		}
		if IsZeroID(u.NewID) {
			if kind != "" {
				errs = append(errs, s.Enqueue(ctx, Event{Word: "delete", Repo: repo, Branch: branch,
					Payload: DeletePayload{Ref: short, RefType: kind, PusherType: "user", Repo: prepo, Sender: sender}}))
			}
			continue
		}
		compare := ""
		if !IsZeroID(u.OldID) {
			compare = s.cfg.RootURL + prepo.FullName + "/compare/" + u.OldID + "..." + u.NewID
		}
		p := PushPayload{Ref: u.Ref, Before: u.OldID, After: u.NewID, CompareURL: compare, Commits: []*PayloadCommit{},
			Repo: prepo, Pusher: sender, Sender: sender}
		s.pushCommits(ctx, repo, prepo.FullName, u, &p)
		errs = append(errs, s.Enqueue(ctx, Event{Word: "push", Repo: repo, Branch: branch, Payload: p}))
	}
	return errors.Join(errs...)
}

// RepoCreated copies the default hooks into a new repository (as
// repository hooks) and queues the repository event "created" for the
// hooks of its owner and the system hooks.
func (s *Service) RepoCreated(ctx context.Context, actor forge.Actor, repo *forge.Repository) error {
	if err := s.copyDefaults(ctx, repo); err != nil {
		return err
	}
	return s.repoEvent(ctx, actor, repo, "created")
}

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

// RepoDeleted queues the repository event "deleted" for the hooks of the
// repository's owner and the system hooks (the repository's own hooks are
// gone with it).
func (s *Service) RepoDeleted(ctx context.Context, actor forge.Actor, repo *forge.Repository) error {
	return s.repoEvent(ctx, actor, repo, "deleted")
}

func (s *Service) repoEvent(ctx context.Context, actor forge.Actor, repo *forge.Repository, action string) error {
	us := s.users(ctx, repo.OwnerID)
	p := RepositoryPayload{Action: action, Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User)}
	if us[0] != nil && us[0].Type == forge.UserTypeOrganization {
		p.Organization = s.payloadUser(us[0])
	}
	return s.Enqueue(ctx, Event{Word: "repository", Repo: repo, Payload: p})
}

// Forked copies the default hooks into the new fork, as RepoCreated does
// (Forgejo creates forks through the same CreateRepositoryByExample),
// queues the fork event for the hooks of the repository forked (parent):
// forkee is the parent, repository the new fork, as Forgejo, and, for a
// fork into an organisation, the repository event "created" for the
// fork's hooks, its organisation's and the system hooks, as Forgejo's
// notifier.
func (s *Service) Forked(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) error {
	if err := s.copyDefaults(ctx, fork); err != nil {
		return err
	}
	us := s.users(ctx, parent.OwnerID, fork.OwnerID)
	err := s.Enqueue(ctx, Event{Word: "fork", Repo: parent, Payload: ForkPayload{
		Forkee: s.payloadRepo(parent, us[0]), Repo: s.payloadRepo(fork, us[1]), Sender: s.payloadUser(actor.User)}})
	if us[1] != nil && us[1].Type == forge.UserTypeOrganization {
		err = errors.Join(err, s.repoEvent(ctx, actor, fork, "created"))
	}
	return err
}

// Test queues a test delivery of hook id of owner/repo, whatever its
// events, as Forgejo's TestHook: a push of one commit, the head of ref (a
// branch, tag or commit id; "" means the default branch), with before and
// after both that commit, ref "refs/heads/<default branch>" (or ref as
// given), and the actor as pusher and sender. An inactive hook receives
// nothing, and neither does any hook of an empty repository (Forgejo
// answers 204 before looking the hook up). Errors: Get's; ErrHookNotFound;
// forge.ErrNotFound when ref names no commit.
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
	us := s.users(ctx, r.OwnerID)
	sender := s.payloadUser(actor.User)
	prepo := s.payloadRepo(r, us[0])
	p := PushPayload{Ref: ref, Commits: []*PayloadCommit{}, Repo: prepo, Pusher: sender, Sender: sender}
	if s.cfg.Commits != nil {
		list, _, err := s.cfg.Commits.PushCommits(ctx, r.ID, "", rev, 1)
		if errors.Is(err, forge.ErrNotFound) || err == nil && len(list) == 0 {
			return forge.Errorf(forge.ErrNotFound, "hooks: no commit %q in %s", rev, prepo.FullName)
		} else if err != nil {
			return err
		}
		head := s.payloadCommit(prepo.FullName, list[0])
		p.Before, p.After = head.ID, head.ID
		p.CompareURL = s.cfg.RootURL + prepo.FullName + "/compare/" + head.ID + "..." + head.ID
		p.Commits, p.HeadCommit, p.TotalCommits = []*PayloadCommit{head}, head, 1
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
