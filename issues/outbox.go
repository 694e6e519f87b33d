package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// OutboxKind is the kind of the issue events appended to the outbox.
const OutboxKind = "issues"

// EventVersion is the version of the stored form of Event that
// MarshalEvent writes; UnmarshalEvent reads it and every earlier one
// (version 0: the bare Event, before the envelope).
const EventVersion = 1

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

// eventSink gathers the events of one transaction.
type eventSink struct{ list []Event }

type sinkKey struct{}

// update runs fn in a write transaction and then, in the same
// transaction, events, whose emitted events are appended to the outbox
// (kind OutboxKind, MarshalEvent's record): a change and its events commit
// together or not at all. Config.Outbox is signalled once the transaction
// has committed. A nil events emits nothing.
func (s *Service) update(ctx context.Context, fn func(Tx) error, events func(ctx context.Context, tx Tx) error) error {
	var sink *eventSink
	err := s.store.Update(ctx, func(tx Tx) error {
		sink = &eventSink{} // a rerun transaction starts over
		if err := fn(tx); err != nil {
			return err
		}
		if events == nil {
			return nil
		}
		if err := events(context.WithValue(ctx, sinkKey{}, sink), tx); err != nil {
			return err
		}
		now := s.clock.Now()
		for i := range sink.list {
			sink.list[i].At = now
			data, err := MarshalEvent(sink.list[i])
			if err != nil {
				return err
			}
			if err := tx.AppendOutbox(ctx, OutboxKind, data, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(sink.list) > 0 && s.cfg.Outbox != nil {
		s.cfg.Outbox.Signal()
	}
	return nil
}

// MarshalEvent returns the stored form of e in the outbox: the
// EventVersion record (forge.MarshalEventRecord) of its explicitly named
// fields, the values of its issue, repository, comment, pull request,
// review and detail, and its actor with the credential's scope.
func MarshalEvent(e Event) ([]byte, error) { return forge.MarshalEventRecord(EventVersion, e) }

// UnmarshalEvent decodes a stored event of any version up to
// EventVersion. Errors: forge.ErrNewerEvent for a later version (leave it
// for a newer server); forge.ErrInvalid when data is no event.
func UnmarshalEvent(data []byte) (Event, error) {
	var e Event
	if _, err := forge.UnmarshalEventRecord(data, EventVersion, &e); err != nil {
		return Event{}, err
	}
	return e, nil
}
