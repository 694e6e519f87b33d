package issues

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// OutboxKind is the kind of the issue events appended to the outbox.
const OutboxKind = "issues"

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
// when Config.Outbox is set (kind OutboxKind, MarshalEvent's JSON): a
// change and its events commit together or not at all. The listeners are
// told of the events once the transaction has committed. A nil events
// emits nothing.
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
		if s.cfg.Outbox == nil {
			return nil
		}
		now := s.clock.Now()
		for _, e := range sink.list {
			data, err := MarshalEvent(e)
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
	for _, e := range sink.list {
		s.tell(ctx, e)
	}
	return nil
}

// MarshalEvent returns the JSON of e as the outbox keeps it: the values of
// its issue, repository, comment, pull request, review and detail, and
// its actor with the credential's scope.
func MarshalEvent(e Event) ([]byte, error) { return json.Marshal(e) }

// UnmarshalEvent decodes MarshalEvent's JSON; forge.ErrInvalid when it
// is not.
func UnmarshalEvent(data []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(data, &e); err != nil {
		return Event{}, forge.Errorf(forge.ErrInvalid, "issues: outbox event: %v", err)
	}
	return e, nil
}
