package main

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/issues"
)

// startOutbox runs the outbox dispatcher (hooks.Dispatcher) until the
// returned stop is called: the events the domains appended to the outbox
// in the transactions of their changes (woken by wake) become webhook
// tasks, each once, in the transaction that marks them processed.
func startOutbox(ctx context.Context, svc *hooks.Service, wake hooks.Wake, issueHooks *hookIssues, log *slog.Logger) (stop func(), err error) {
	d, err := hooks.NewDispatcher(hooks.DispatcherConfig{Service: svc, Wake: wake, Logger: log})
	if err != nil {
		return nil, err
	}
	d.Handle(issues.OutboxKind, issueHooks.outboxEvent)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := d.Run(ctx); err != nil {
			log.Error("outbox dispatcher", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}

// outboxEvent is the outbox handler of issue events: the webhook events of
// an issues.Event (IssueEvent's).
func (h *hookIssues) outboxEvent(ctx context.Context, data []byte) error {
	e, err := issues.UnmarshalEvent(data)
	if err != nil {
		h.log.Warn("outbox: issue event not read", "err", err)
		return nil // it never will be
	}
	h.IssueEvent(ctx, e)
	return nil
}
