package repos

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Kinds of the repository events appended to the outbox (Config.Outbox).
const (
	OutboxRepoCreated = "repo.created"
	OutboxRepoDeleted = "repo.deleted"
	OutboxRepoForked  = "repo.forked"
	OutboxRelease     = "release"
	OutboxPush        = "push"
)

// OutboxTx appends events to the transactional outbox (hooks.Tx's
// AppendOutbox; the same table for every domain).
type OutboxTx interface {
	// AppendOutbox appends an event, its kind and JSON data, created at.
	AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error
}

// Outbox is told, after a commit, that events were appended to the
// outbox (hooks.Dispatcher.Signal).
type Outbox interface {
	Signal()
}

// OutboxEvent is a repository event as the outbox keeps it (JSON): the
// listener calls' values.
type OutboxEvent struct {
	Actor forge.Actor
	// Repo is the repository created, deleted (as it was), forked into
	// (the fork), released in or pushed to.
	Repo *forge.Repository
	// Parent is the repository forked (OutboxRepoForked).
	Parent *forge.Repository
	// Release is the release change (OutboxRelease).
	Release *ReleaseEvent
	// Updates are the refs a push (any ref move: recordRefMoves) changed
	// (OutboxPush).
	Updates []RefUpdate `json:",omitempty"`
	// Rename is set when Updates are a branch renamed (OutboxPush).
	Rename *BranchRename `json:",omitempty"`
}

// MarshalOutbox returns the JSON of e.
func MarshalOutbox(e OutboxEvent) ([]byte, error) { return json.Marshal(e) }

// UnmarshalOutbox decodes MarshalOutbox's JSON; forge.ErrInvalid when it
// is not.
func UnmarshalOutbox(data []byte) (OutboxEvent, error) {
	var e OutboxEvent
	if err := json.Unmarshal(data, &e); err != nil {
		return OutboxEvent{}, forge.Errorf(forge.ErrInvalid, "repos: outbox event: %v", err)
	}
	return e, nil
}

// appendOutbox appends e of kind to the outbox in tx when Config.Outbox
// is set (nothing otherwise).
func (s *Service) appendOutbox(ctx context.Context, tx Tx, kind string, e OutboxEvent) error {
	if s.cfg.Outbox == nil {
		return nil
	}
	data, err := MarshalOutbox(e)
	if err != nil {
		return err
	}
	return tx.AppendOutbox(ctx, kind, data, s.clock.Now())
}

// signalOutbox tells Config.Outbox that events were committed.
func (s *Service) signalOutbox() {
	if s.cfg.Outbox != nil {
		s.cfg.Outbox.Signal()
	}
}
