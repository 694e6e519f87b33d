package hooks

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// The transactional outbox: a domain appends an event (a kind and the JSON
// of its values) to the outbox in the transaction of the change that caused
// it (Tx.AppendOutbox), so that a change committed always has its event and
// a change rolled back has none. A Dispatcher claims the events, hands each
// to the handlers of its kind, which call the queueing methods of Ports
// (IssueChanged, Pushed, RepoCreated…), and stores the hook tasks those
// make in the transaction that marks the event processed: each event makes
// its tasks once, across crashes and across servers sharing the database.
//
// Other consequences of an event, outside the hook tasks (a repository's
// size after its refs moved, pull requests re-synchronised, push mirrors
// made due, the users' notifications of an issue event), are consumers
// (Dispatcher.Consume): each gets a copy of the event, appended in that
// same transaction, handled and retried on its own until it succeeds, so
// that a consumer failing repeats neither the webhooks nor another
// consumer's work. Consumers write, so they must be idempotent (see
// OutboxHandler).

// OutboxEvent is an event in the outbox.
type OutboxEvent struct {
	ID forge.ID
	// Kind tells the handlers that receive it ("issues", "repo.created"…).
	Kind string
	// Data is the event's JSON: ids and values, as the domain wrote it.
	Data    []byte
	Created time.Time
	// Claim names the dispatcher pass holding the event until ClaimUntil;
	// "" and the zero time when none ever did.
	Claim      string
	ClaimUntil time.Time
	// Done is when the event was processed; zero while it is pending.
	Done time.Time
}

// OutboxHandler handles the data of an outbox event of its kind by
// calling the queueing methods of Ports with ctx (IssueChanged,
// IssueCommented, Pushed, RepoCreated, Forked…): called by a Dispatcher, they
// store nothing themselves, and the dispatcher stores the tasks they make,
// and the default hooks RepoCreated and Forked copy, in the transaction
// that marks the event processed. A handler may read (the store, git) but
// must not write elsewhere: it may run again for the same event when a
// pass fails. An error leaves the event pending: it is tried again once
// its claim has ended. Data that can never be handled should be logged and
// answered with nil.
//
// A handler registered with Consume is a consumer: it may write elsewhere
// (refresh a repository, synchronise pull requests, push a mirror), and
// must then be idempotent and insensitive to order: it may run again for
// the same event (its pass failed, or the process stopped before the event
// was marked processed), and events of one repository may reach it out of
// order (one failed and was retried after a later one), so it acts on the
// state it reads (git's refs, the stored pull request heads), not on the
// event's values alone.
type OutboxHandler func(ctx context.Context, data []byte) error

// Defaults of DispatcherConfig's zero values.
const (
	DefaultLease       = time.Minute
	DefaultOutboxBatch = 16
	DefaultOutboxKeep  = 24 * time.Hour
)

// Wake is the signal a Dispatcher waits on besides its poll: domains call
// Signal after committing an event to the outbox.
type Wake chan struct{}

// NewWake returns a Wake.
func NewWake() Wake { return make(Wake, 1) }

// Signal wakes the dispatcher waiting on w; it never blocks.
func (w Wake) Signal() {
	select {
	case w <- struct{}{}:
	default:
	}
}

// DispatcherConfig configures a Dispatcher. Service is required.
type DispatcherConfig struct {
	// Service stores the tasks (its Store, its clock for the tasks).
	Service *Service
	// Clock times claims and marks events processed; nil means
	// forge.SystemClock.
	Clock forge.Clock
	// Logger receives a line per event not handled; nil discards.
	Logger *slog.Logger
	// Wake wakes Run; nil makes one (Dispatcher.Signal).
	Wake Wake
	// Lease is how long a claim lasts: an event claimed by a pass that
	// never finished it (a crash, a failed handler) is claimed again once
	// the lease has ended. 0 means DefaultLease.
	Lease time.Duration
	// PollInterval is how often Run looks for events when nothing woke
	// it; 0 means DefaultPollInterval.
	PollInterval time.Duration
	// Batch is how many events a pass claims; 0 means
	// DefaultOutboxBatch.
	Batch int
	// NewClaim names each pass's claim; nil means random UUIDs.
	NewClaim func() string
	// Keep is how long processed events stay in the outbox before Prune
	// (which Run calls at each poll) deletes them; 0 means
	// DefaultOutboxKeep.
	Keep time.Duration
}

// Dispatcher hands the outbox's events to their handlers and stores the
// hook tasks they make. Register handlers with Handle before Run; Run,
// DispatchOnce and Signal are safe for concurrent use, and several
// dispatchers (servers) may share a database.
type Dispatcher struct {
	cfg      DispatcherConfig
	svc      *Service
	clock    forge.Clock
	log      *slog.Logger
	handlers map[string][]OutboxHandler
	// consumers are the names of each kind's consumers (Consume).
	consumers map[string][]string
}

// NewDispatcher returns a Dispatcher for cfg; forge.ErrInvalid without
// Service.
func NewDispatcher(cfg DispatcherConfig) (*Dispatcher, error) {
	if cfg.Service == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "hooks: DispatcherConfig.Service is required")
	}
	cfg.Lease = cmp.Or(cfg.Lease, DefaultLease)
	cfg.PollInterval = cmp.Or(cfg.PollInterval, DefaultPollInterval)
	cfg.Batch = cmp.Or(cfg.Batch, DefaultOutboxBatch)
	cfg.Keep = cmp.Or(cfg.Keep, DefaultOutboxKeep)
	if cfg.NewClaim == nil {
		cfg.NewClaim = newUUID
	}
	if cfg.Wake == nil {
		cfg.Wake = NewWake()
	}
	d := &Dispatcher{cfg: cfg, svc: cfg.Service, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger,
		handlers: map[string][]OutboxHandler{}, consumers: map[string][]string{}}
	if d.log == nil {
		d.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return d, nil
}

// Handle registers h for the events of kind, after those registered
// before. Call it before Run and DispatchOnce. Events of a kind without
// handlers are marked processed with nothing stored.
func (d *Dispatcher) Handle(kind string, h OutboxHandler) {
	d.handlers[kind] = append(d.handlers[kind], h)
}

// ConsumerKind is the kind of the copies of kind's events that the
// consumer named name handles (Consume).
func ConsumerKind(kind, name string) string { return kind + "#" + name }

// Consume registers h as the consumer name of the events of kind: in the
// transaction that marks an event of kind processed (after its Handle
// handlers, the webhooks, made their tasks), the dispatcher appends one
// copy of the event per consumer (kind ConsumerKind(kind, name), its data
// unchanged), and each copy is handled and retried on its own: a consumer
// that fails repeats only its own work, never another consumer's nor the
// webhook tasks, and is tried again once its claim has ended, until it
// succeeds. h may write elsewhere and must be idempotent (see
// OutboxHandler). Call it before Run and DispatchOnce; a name is
// registered once per kind.
func (d *Dispatcher) Consume(kind, name string, h OutboxHandler) {
	d.consumers[kind] = append(d.consumers[kind], name)
	d.handlers[ConsumerKind(kind, name)] = []OutboxHandler{h}
}

// Signal wakes Run (a domain committed an event).
func (d *Dispatcher) Signal() { d.cfg.Wake.Signal() }

// DispatchOnce claims at most Batch pending events, oldest first, and
// processes each: its handlers run, then one transaction stores the tasks
// they made and marks the event processed, unless the claim was lost
// (the lease ended and another pass took the event: that pass stores the
// tasks). It returns how many events it claimed and the errors of those
// it could not process (they stay pending until their claim ends).
func (d *Dispatcher) DispatchOnce(ctx context.Context) (int, error) {
	claim := d.cfg.NewClaim()
	now := d.clock.Now()
	var evs []*OutboxEvent
	err := d.svc.store.Update(ctx, func(tx Tx) error {
		var err error
		evs, err = tx.ClaimOutbox(ctx, claim, now, now.Add(d.cfg.Lease), d.cfg.Batch)
		return err
	})
	if err != nil {
		return 0, err
	}
	var errs []error
	for _, e := range evs {
		if err := d.process(ctx, claim, e); err != nil {
			d.log.Info("outbox event not processed", "id", e.ID, "kind", e.Kind, "err", err)
			errs = append(errs, err)
		}
	}
	return len(evs), errors.Join(errs...)
}

// Drain dispatches until a pass claims nothing: every event pending now,
// and the consumers' copies and events their handlers appended meanwhile,
// is processed or, when its handler failed, left claimed until its lease
// ends. It returns the errors of the events not processed. Tests and
// tools use it to run the outbox to rest without Run.
func (d *Dispatcher) Drain(ctx context.Context) error {
	var errs []error
	for {
		n, err := d.DispatchOnce(ctx)
		if err != nil {
			errs = append(errs, err)
		}
		if n == 0 || ctx.Err() != nil {
			return errors.Join(errs...)
		}
	}
}

// op is what a handler asked the Service for: the tasks of ev, or the
// default hooks copied into a new repository.
type op struct {
	ev       Event
	defaults *forge.Repository
}

// collector gathers the ops of one event's handlers.
type collector struct{ ops []op }

type collectorKey struct{}

type handledKey struct{}

// HandledEvent returns the outbox event a handler's ctx was given with (a
// consumer's copy for a consumer: its own ID, its Kind, the original
// event's Created), without its data; ok is false outside a handler. A
// consumer that writes elsewhere keys its writes by the ID to stay
// idempotent (forge/feeds).
func HandledEvent(ctx context.Context) (e OutboxEvent, ok bool) {
	e, ok = ctx.Value(handledKey{}).(OutboxEvent)
	return e, ok
}

// collectorFrom returns the collector of a handler's ctx, nil outside one.
func collectorFrom(ctx context.Context) *collector {
	c, _ := ctx.Value(collectorKey{}).(*collector)
	return c
}

// process runs e's handlers and stores what they asked for, with e marked
// processed, in one transaction.
func (d *Dispatcher) process(ctx context.Context, claim string, e *OutboxEvent) error {
	c := &collector{}
	hctx := context.WithValue(context.WithValue(ctx, collectorKey{}, c), handledKey{},
		OutboxEvent{ID: e.ID, Kind: e.Kind, Created: e.Created})
	for _, h := range d.handlers[e.Kind] {
		if err := h(hctx, e.Data); err != nil {
			return err
		}
	}
	n, fanned := 0, false
	err := d.svc.store.Update(ctx, func(tx Tx) error {
		n, fanned = 0, false
		for _, name := range d.consumers[e.Kind] {
			if err := tx.AppendOutbox(ctx, ConsumerKind(e.Kind, name), e.Data, e.Created); err != nil {
				return err
			}
			fanned = true
		}
		for _, o := range c.ops {
			if o.defaults != nil {
				if err := d.svc.copyDefaultsTx(ctx, tx, o.defaults); err != nil {
					return err
				}
				continue
			}
			k, err := d.svc.enqueueTx(ctx, tx, o.ev)
			if err != nil {
				return err
			}
			n += k
		}
		return tx.FinishOutbox(ctx, e.ID, claim, d.clock.Now())
	})
	if errors.Is(err, forge.ErrConflict) {
		// The claim ended and another pass took the event: it stores the
		// tasks, this one stored nothing.
		d.log.Info("outbox event claimed by another pass", "id", e.ID, "kind", e.Kind)
		return nil
	}
	if err == nil && n > 0 {
		d.svc.signal()
	}
	if err == nil && fanned {
		d.Signal() // the consumers' copies wait
	}
	return err
}

// Prune deletes the events processed more than Keep ago and returns how
// many.
func (d *Dispatcher) Prune(ctx context.Context) (int64, error) {
	var n int64
	err := d.svc.store.Update(ctx, func(tx Tx) error {
		var err error
		n, err = tx.PruneOutbox(ctx, d.clock.Now().Add(-d.cfg.Keep))
		return err
	})
	return n, err
}

// Run dispatches events until ctx ends: whenever Signal is called, and
// every PollInterval, when it also prunes (Prune). It returns nil when ctx
// ends.
func (d *Dispatcher) Run(ctx context.Context) error {
	tick := time.NewTicker(d.cfg.PollInterval)
	defer tick.Stop()
	for {
		// A full batch may leave more events: take them at once.
		for {
			n, err := d.DispatchOnce(ctx)
			if err != nil && ctx.Err() == nil {
				d.log.Info("outbox dispatcher", "err", err)
			}
			if n < d.cfg.Batch || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-d.cfg.Wake:
		case <-tick.C:
			if _, err := d.Prune(ctx); err != nil && ctx.Err() == nil {
				d.log.Info("outbox prune", "err", err)
			}
		}
	}
}

// Transient returns the parts of err (joined errors are looked into) that
// a consumer's retry may cure: a failure of the store or of git, or a
// concurrent change (forge.ErrConflict). Refusals that will stay (an object
// not found or gone, forbidden, invalid, archived, an account that may not
// act) are dropped, so that a consumer returning Transient(err) is not
// retried for ever over them. Nil when nothing is left.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var keep []error
		for _, e := range j.Unwrap() {
			if t := Transient(e); t != nil {
				keep = append(keep, t)
			}
		}
		return errors.Join(keep...)
	}
	for _, final := range []error{forge.ErrNotFound, forge.ErrForbidden, forge.ErrInvalid, forge.ErrArchived,
		forge.ErrUnauthenticated, forge.ErrPrecondition} {
		if errors.Is(err, final) {
			return nil
		}
	}
	return err
}
