// Package cron is the registry of a forge's periodic background tasks,
// Forgejo's cron tasks (services/cron): each has a name, a schedule, the
// time it last ran and will next run and how many times it ran; Run
// drives them, and a site administrator lists them and runs one on
// demand (GET /admin/cron, POST /admin/cron/{task}). The composition root
// registers the tasks it really runs, so the list is true by construction.
package cron

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Task is a periodic task to register.
type Task struct {
	// Name is Forgejo's task name where one does the same work
	// (update_mirrors), a name of the same style otherwise.
	Name string
	// Every is the interval between runs (> 0).
	Every time.Duration
	// Run does the work once. Its error is logged; the task runs again
	// at its next time.
	Run func(ctx context.Context) error
	// AtStart runs the task as soon as Serve starts, then at its interval.
	AtStart bool
}

// State is a task as GET /admin/cron shows it (Forgejo's api.Cron).
type State struct {
	Name string
	// Schedule is Forgejo's form of the interval: "@every 1m0s".
	Schedule string
	// Next is when the task runs next; Prev when it last started (zero
	// when never).
	Next, Prev time.Time
	// ExecTimes counts the runs since the registry was built.
	ExecTimes int64
}

// Config configures a Registry.
type Config struct {
	Tasks []Task
	// Clock is forge.SystemClock when nil.
	Clock forge.Clock
	// After waits for a duration (time.After when nil): tests replace it.
	After func(time.Duration) <-chan time.Time
	// Logger receives the tasks' failures. Nil discards.
	Logger *slog.Logger
}

// Registry holds the tasks.
type Registry struct {
	cfg   Config
	tasks []*task
}

type task struct {
	Task
	running sync.Mutex // serialises the runs
	mu      sync.Mutex // guards the state
	prev    time.Time
	next    time.Time
	execs   int64
}

// New returns a registry of cfg.Tasks, each due one interval from now.
// forge.ErrInvalid for a task without a name, run or positive interval,
// or a name given twice.
func New(cfg Config) (*Registry, error) {
	cfg.Clock = cmp.Or[forge.Clock](cfg.Clock, forge.SystemClock{})
	if cfg.After == nil {
		cfg.After = time.After
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Registry{cfg: cfg}
	now := cfg.Clock.Now()
	for _, t := range cfg.Tasks {
		if t.Name == "" || t.Run == nil || t.Every <= 0 {
			return nil, forge.Errorf(forge.ErrInvalid, "cron: task %q needs a name, a run and an interval", t.Name)
		}
		if slices.ContainsFunc(r.tasks, func(o *task) bool { return o.Name == t.Name }) {
			return nil, forge.Errorf(forge.ErrInvalid, "cron: task %q registered twice", t.Name)
		}
		r.tasks = append(r.tasks, &task{Task: t, next: now.Add(t.Every)})
	}
	return r, nil
}

// List returns the tasks by name, for a site administrator (Requirements'
// adminCronList: the admin scope at read, a signed-in site
// administrator), paged by opt (forge.ListOptions.Bounds), with the
// total. Errors: the requirement's (forge.ErrUnauthenticated,
// forge.ErrForbidden).
func (r *Registry) List(ctx context.Context, actor forge.Actor, opt forge.ListOptions) ([]State, int64, error) {
	if err := requirements["adminCronList"].Check(actor); err != nil {
		return nil, 0, err
	}
	all := make([]State, 0, len(r.tasks))
	for _, t := range r.tasks {
		all = append(all, t.state())
	}
	slices.SortFunc(all, func(a, b State) int { return cmp.Compare(a.Name, b.Name) })
	return forge.Page(all, opt.Normalize()), int64(len(all)), nil
}

// Run runs the task named name now, in the caller's goroutine, after any
// run of it in progress, for a site administrator (adminCronRun: the
// admin scope at write). Errors: the requirement's; forge.ErrNotFound for
// an unknown name. The task's own failure is logged, not returned
// (Forgejo's answer is 204 either way).
func (r *Registry) Run(ctx context.Context, actor forge.Actor, name string) error {
	if err := requirements["adminCronRun"].Check(actor); err != nil {
		return err
	}
	i := slices.IndexFunc(r.tasks, func(t *task) bool { return t.Name == name })
	if i < 0 {
		return forge.Errorf(forge.ErrNotFound, "")
	}
	r.runTask(ctx, r.tasks[i])
	return nil
}

// Serve runs every task at its interval until ctx ends, then returns
// nil. Run it once per registry.
func (r *Registry) Serve(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, t := range r.tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if t.AtStart {
				r.runTask(ctx, t)
			}
			for {
				select {
				case <-ctx.Done():
					return
				case <-r.cfg.After(t.Every):
				}
				r.runTask(ctx, t)
			}
		}()
	}
	wg.Wait()
	return nil
}

// runTask runs t once and records it.
func (r *Registry) runTask(ctx context.Context, t *task) {
	t.running.Lock()
	defer t.running.Unlock()
	start := r.cfg.Clock.Now()
	t.mu.Lock()
	t.prev, t.next = start, start.Add(t.Every)
	t.mu.Unlock()
	if err := t.Task.Run(ctx); err != nil && ctx.Err() == nil {
		r.cfg.Logger.WarnContext(ctx, "cron task failed", "task", t.Name, "err", err)
	}
	t.mu.Lock()
	t.execs++
	t.mu.Unlock()
}

// state is t's State.
func (t *task) state() State {
	t.mu.Lock()
	defer t.mu.Unlock()
	return State{Name: t.Name, Schedule: fmt.Sprintf("@every %s", t.Every), Next: t.next, Prev: t.prev, ExecTimes: t.execs}
}
