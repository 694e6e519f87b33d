package repos

import (
	"context"
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
	// OutboxWikiPush is a move of the refs of a repository's wiki (a
	// page written through the API): the event of an OutboxPush, about the
	// wiki (Forgejo's wiki webhook events would consume it; no consumer
	// is registered yet, so it is marked processed).
	OutboxWikiPush = "wiki.push"
	// OutboxStatus is a commit status created (CreateStatus): the
	// pull requests scheduled to merge when their checks succeed are
	// looked at again.
	OutboxStatus = "status"
)

// OutboxVersion is the version of the stored form of OutboxEvent that
// MarshalOutbox writes; UnmarshalOutbox reads it and every earlier one
// (version 0: the bare OutboxEvent, before the envelope).
const OutboxVersion = 1

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

// OutboxEvent is a repository event as the outbox keeps it: the values
// its consumers need, under explicit JSON names (MarshalOutbox).
type OutboxEvent struct {
	Actor forge.Actor `json:"actor"`
	// Repo is the repository created, deleted (as it was), forked into
	// (the fork), released in or pushed to.
	Repo *forge.Repository `json:"repo"`
	// Parent is the repository forked (OutboxRepoForked).
	Parent *forge.Repository `json:"parent"`
	// Release is the release change (OutboxRelease).
	Release *ReleaseEvent `json:"release"`
	// Updates are the refs a push (any ref move: recordRefMoves) changed
	// (OutboxPush).
	Updates []RefUpdate `json:"updates,omitempty"`
	// Rename is set when Updates are a branch renamed (OutboxPush).
	Rename *BranchRename `json:"rename,omitempty"`
	// Status is the commit status created (OutboxStatus).
	Status *StatusEvent `json:"status,omitempty"`
}

// StatusEvent is a commit status as the outbox keeps it.
type StatusEvent struct {
	SHA     string      `json:"sha"`
	Context string      `json:"context"`
	State   StatusState `json:"state"`
}

// MarshalOutbox returns the stored form of e: the OutboxVersion record
// of forge.MarshalEventRecord.
func MarshalOutbox(e OutboxEvent) ([]byte, error) { return forge.MarshalEventRecord(OutboxVersion, e) }

// UnmarshalOutbox decodes a stored event of any version up to
// OutboxVersion. Errors: forge.ErrNewerEvent for a later version (leave
// it for a newer server); forge.ErrInvalid when data is no event.
func UnmarshalOutbox(data []byte) (OutboxEvent, error) {
	var e OutboxEvent
	if _, err := forge.UnmarshalEventRecord(data, OutboxVersion, &e); err != nil {
		return OutboxEvent{}, err
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
