package repos

import (
	"cmp"
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Every change of a branch or tag, whoever makes it (a git push, a merge,
// update-branch, the contents API, the branch, tag and release APIs,
// sync_fork, a pull mirror's sync), ends in recordRefMoves: the one place
// where a ref move is recorded and its consequences start. With
// Config.Outbox it appends one OutboxPush event (the refs with their old
// and new ids, the actor, the repository) in one transaction and signals
// the dispatcher; the consequences (the stored size, emptiness and default
// branch: HandleRefMoves; webhooks push, create and delete; pull requests
// re-synchronised; push mirrors with sync_on_commit) are the outbox's
// consumers, retried until done. Nothing after a ref move lives only in
// memory. Without an Outbox (a library user with no dispatcher) the
// repository is refreshed and Config.PushListeners are told in the
// request, as the only path there is.

// BranchRename tells the consumers of an OutboxPush event that its updates
// are a branch renamed (RenameBranch): the deletion of From and the
// creation of To at the same commit, not a branch gone.
type BranchRename struct {
	From, To string
}

// refMoves is what a ref-moving operation records.
type refMoves struct {
	actor forge.Actor
	// asOwner names the repository's owner as the pusher (a mirror sync,
	// as Forgejo's).
	asOwner bool
	repo    forge.ID
	updates []RefUpdate
	rename  *BranchRename
	// wiki: the refs moved are those of the repository's wiki
	// (WikiGitID): the repository itself is not refreshed, the event is an
	// OutboxWikiPush, and Config.PushListeners (about code) are not told.
	wiki bool
}

// recordRefMoves records m after git moved its refs: the repository is
// refreshed (size, emptiness, default branch; a failure is logged, since
// the outbox's HandleRefMoves does it again), then one OutboxPush event is
// appended in a transaction of its own and the outbox signalled. Without
// Config.Outbox, the refresh's error is returned and Config.PushListeners
// are told. An operation with no update records nothing.
func (s *Service) recordRefMoves(ctx context.Context, m refMoves) error {
	if len(m.updates) == 0 {
		return nil
	}
	// The event carries the repository as refreshed (the first push names
	// the default branch the webhooks' payloads show).
	var rerr error
	if !m.wiki {
		rerr = s.refresh(ctx, m.repo)
	}
	if s.cfg.Outbox == nil {
		if m.wiki {
			return nil
		}
		if rerr != nil {
			return rerr
		}
		return s.tellListeners(ctx, m)
	}
	if rerr != nil {
		s.log.WarnContext(ctx, "refresh after a ref move (the outbox retries it)", "repo", m.repo, "err", rerr)
	}
	if err := s.store.Update(ctx, func(tx Tx) error { return s.appendRefMoves(ctx, tx, m) }); err != nil {
		return err
	}
	s.signalOutbox()
	return nil
}

// appendRefMoves appends m's OutboxPush event in tx (nothing without
// Config.Outbox or updates): for operations that record the move in the
// transaction of their own change (a release creating its tag), followed
// by signalOutbox once committed, and by refresh.
func (s *Service) appendRefMoves(ctx context.Context, tx Tx, m refMoves) error {
	if s.cfg.Outbox == nil || len(m.updates) == 0 {
		return nil
	}
	r, actor, err := refMovesRepo(ctx, tx, m)
	if err != nil {
		return err
	}
	kind := OutboxPush
	if m.wiki {
		kind = OutboxWikiPush
	}
	return s.appendOutbox(ctx, tx, kind, OutboxEvent{Actor: actor, Repo: r, Updates: zeroIDs(r, m.updates), Rename: m.rename})
}

// zeroIDs returns updates with a missing id ("": a ref created or deleted)
// written as git's push writes it, all zeros in the repository's hash
// length, so that every ref move's event reads as a push's.
func zeroIDs(r *forge.Repository, updates []RefUpdate) []RefUpdate {
	n := cmp.Or(r.ObjectFormat, forge.SHA1).HexLen()
	zero := strings.Repeat("0", n)
	out := make([]RefUpdate, len(updates))
	for i, u := range updates {
		out[i] = RefUpdate{Ref: u.Ref, OldID: cmp.Or(u.OldID, zero), NewID: cmp.Or(u.NewID, zero)}
	}
	return out
}

// refMovesRepo reads m's repository, its owner's name set, and the actor
// the event names.
func refMovesRepo(ctx context.Context, tx Tx, m refMoves) (*forge.Repository, forge.Actor, error) {
	r, err := tx.RepoByID(ctx, m.repo)
	if err != nil {
		return nil, forge.Actor{}, err
	}
	owner, err := tx.UserByID(ctx, r.OwnerID)
	if err != nil {
		return nil, forge.Actor{}, err
	}
	r.OwnerName = owner.Name
	actor := m.actor
	if m.asOwner {
		actor = forge.Actor{User: owner}
	}
	return r, actor, nil
}

// tellListeners tells Config.PushListeners of m in the request (no
// Outbox).
func (s *Service) tellListeners(ctx context.Context, m refMoves) error {
	if len(s.cfg.PushListeners) == 0 {
		return nil
	}
	var (
		r     *forge.Repository
		actor forge.Actor
	)
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		r, actor, err = refMovesRepo(ctx, tx, m)
		return err
	}); err != nil {
		return err
	}
	updates := zeroIDs(r, m.updates)
	for _, l := range s.cfg.PushListeners {
		l.AfterPush(ctx, actor, r, updates)
	}
	return nil
}

// refValue is the object ref points at, unpeeled (an annotated tag's own
// id, as a push reports it); "" when it does not exist.
func (s *Service) refValue(ctx context.Context, repo forge.ID, ref string) (string, error) {
	refs, err := s.git.Refs(ctx, repo)
	if err != nil {
		return "", err
	}
	for _, r := range refs {
		if r.Name == ref {
			return r.Target, nil
		}
	}
	return "", nil
}

// tellAppended follows appendRefMoves once its transaction committed:
// without an Outbox, where nothing was appended, Config.PushListeners are
// told in the request (a failure to read the repository is logged: the
// change it follows is committed).
func (s *Service) tellAppended(ctx context.Context, m refMoves) {
	if s.cfg.Outbox != nil || len(m.updates) == 0 || m.wiki {
		return
	}
	if err := s.tellListeners(ctx, m); err != nil {
		s.log.WarnContext(ctx, "push listeners after a ref move", "repo", m.repo, "err", err)
	}
}
