package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Repos answers what notify asks of forge/repos (repos.Service implements
// it).
type Repos interface {
	// RepoAccess finds owner/name and the actor's permission on it; a
	// not-found error for repositories the actor may not see.
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
	// PermissionsByID returns the actor's permission on each repository
	// of ids that exists and is ready; others are absent. It checks no
	// scope.
	PermissionsByID(ctx context.Context, actor forge.Actor, ids []forge.ID) (map[forge.ID]forge.Permission, error)
}

// Watchers lists who watches a repository (repos.Ports.WatcherIDs, a
// trusted port the composition root hands over).
type Watchers interface {
	WatcherIDs(ctx context.Context, repoID forge.ID) ([]forge.ID, error)
}

// Participants lists who takes part in an issue: its poster, commenters,
// assignees and subscribers (issues.Ports.Participants).
type Participants interface {
	Participants(ctx context.Context, issueID forge.ID) ([]forge.ID, error)
}

// Config configures a Service. Store and Repos are required.
type Config struct {
	Store Store
	Repos Repos
	// Watchers nil: no repository watcher gets a thread.
	Watchers Watchers
	// Participants nil: no participant gets a thread.
	Participants Participants
	// Clock nil is forge.SystemClock.
	Clock forge.Clock
	// Logger receives debug lines. Nil discards.
	Logger *slog.Logger
}

// Service creates and serves notification threads. Safe for concurrent
// use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger
}

// New returns a Service for cfg; forge.ErrInvalid without Store or Repos.
// The composition root calls NewWithPorts instead, for Ports.Notify.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Repos == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "notify: Config.Store and Config.Repos are required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// Event is something a user did on an issue: opened it, commented on it,
// closed or reopened it.
type Event struct {
	// Doer is the user who acted; never notified.
	Doer   forge.ID
	RepoID forge.ID
	// IssueID is the issue or pull request; IsPull tells which.
	IssueID forge.ID
	IsPull  bool
	// CommentID is the comment the event made, 0 if none.
	CommentID forge.ID
	// Mentioned are users the event's text mentions: recipients besides
	// the watchers and participants (Forgejo's issue notification with a
	// receiver), under the same read check.
	Mentioned []forge.ID
	// At is when the event happened: the time of the threads it creates
	// or updates. Zero: now (Config.Clock).
	At time.Time
}

// View is a thread with what its JSON shows of its issue.
type View struct {
	Thread  *Thread
	Subject Subject
}

// Query selects the actor's threads for List and Mark.
type Query struct {
	// Owner and Repo name one repository ("" for every repository).
	Owner, Repo string
	// All: every status (Statuses ignored).
	All bool
	// Statuses: the `status-types` filter. Nil is Forgejo's default:
	// unread and pinned for List, unread for Mark; a non-nil empty slice
	// matches nothing.
	Statuses []Status
	// Sources: the `subject-type` filter (nil any).
	Sources []Source
	// Since and Before bound the update time strictly (zero: no bound).
	Since, Before time.Time
	forge.ListOptions
}

// start checks what the notification operations at level require
// (requirementOf, the table the API derives its routes from): an account
// that may act and a token granting the notification scope
// (forge.Requirement.Check: forge.Actor.Check's errors), a signed-in user
// (forge.ErrUnauthenticated `token is required`).
func start(actor forge.Actor, level forge.AccessLevel) error {
	return requirementOf(level).Check(actor)
}

// filter builds the store filter of the actor's threads it may still see:
// those of repositories whose issues (or pull requests) it may read.
func (s *Service) filter(ctx context.Context, actor forge.Actor, q Query, defaults ...Status) (Filter, error) {
	f := Filter{UserID: actor.User.ID, Sources: q.Sources, UpdatedAfter: q.Since, UpdatedBefore: q.Before}
	if !q.All {
		f.Statuses = q.Statuses
		if f.Statuses == nil {
			f.Statuses = defaults
		}
	}
	if q.Owner != "" || q.Repo != "" {
		r, _, err := s.cfg.Repos.RepoAccess(ctx, actor, q.Owner, q.Repo)
		if err != nil {
			return f, err
		}
		f.RepoID = r.ID
	}
	var repoIDs []forge.ID
	if err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		repoIDs, err = tx.ThreadRepos(ctx, actor.User.ID)
		return err
	}); err != nil {
		return f, err
	}
	perms, err := s.cfg.Repos.PermissionsByID(ctx, actor, repoIDs)
	if err != nil {
		return f, err
	}
	f.IssueRepos, f.PullRepos = []forge.ID{}, []forge.ID{}
	for _, id := range repoIDs {
		p, ok := perms[id]
		if ok && p.CanRead(forge.UnitIssues) {
			f.IssueRepos = append(f.IssueRepos, id)
		}
		if ok && p.CanRead(forge.UnitPulls) {
			f.PullRepos = append(f.PullRepos, id)
		}
	}
	return f, nil
}

// List returns one page of the actor's threads matching q, the most
// recently updated first, and their number (read:notification). Threads of
// repositories the actor may no longer read are left out. Errors:
// forge.ErrUnauthenticated `token is required`; forge.ErrForbidden for a
// token without the scope or an account that may not act; the
// repository's not-found error when q names one the actor may not see.
func (s *Service) List(ctx context.Context, actor forge.Actor, q Query) ([]*View, int64, error) {
	if err := start(actor, forge.AccessRead); err != nil {
		return nil, 0, err
	}
	f, err := s.filter(ctx, actor, q, StatusUnread, StatusPinned)
	if err != nil {
		return nil, 0, err
	}
	var views []*View
	var total int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		list, n, err := tx.ListThreads(ctx, f, q.ListOptions.Normalize())
		if err != nil {
			return err
		}
		total = n
		views, err = viewsOf(ctx, tx, list)
		return err
	})
	return views, total, err
}

// CountUnread is the number of the actor's unread threads it may still see
// (GET /notifications/new; read:notification).
func (s *Service) CountUnread(ctx context.Context, actor forge.Actor) (int64, error) {
	if err := start(actor, forge.AccessRead); err != nil {
		return 0, err
	}
	f, err := s.filter(ctx, actor, Query{Statuses: []Status{StatusUnread}})
	if err != nil {
		return 0, err
	}
	var n int64
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		_, n, err = tx.ListThreads(ctx, f, forge.ListOptions{Page: 1, Limit: 0})
		return err
	})
	return n, err
}

// Mark sets every thread of the actor matching q (paging ignored; Since
// ignored, Before is Forgejo's last_read_at) to status to and returns them
// (write:notification). Errors as List.
func (s *Service) Mark(ctx context.Context, actor forge.Actor, q Query, to Status) ([]*View, error) {
	if err := start(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	if _, ok := ParseStatus(string(to)); !ok {
		return nil, forge.Errorf(forge.ErrInvalid, "unknown notification status %q", to)
	}
	q.Since, q.Sources = time.Time{}, nil
	f, err := s.filter(ctx, actor, q, StatusUnread)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var views []*View
	err = s.cfg.Store.Update(ctx, func(tx Tx) error {
		list, _, err := tx.ListThreads(ctx, f, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for i, t := range list {
			m := Mark(*t, to, now)
			if err := tx.UpdateThread(ctx, &m); err != nil {
				return err
			}
			list[i] = &m
		}
		views, err = viewsOf(ctx, tx, list)
		return err
	})
	return views, err
}

// Thread returns thread id (read:notification). forge.ErrNotFound if there
// is none or it is of a repository the actor may no longer read;
// forge.ErrForbidden `only user itself and admin are allowed to read/change
// this thread <id>` if it is another user's and the actor is no site
// administrator.
func (s *Service) Thread(ctx context.Context, actor forge.Actor, id forge.ID) (*View, error) {
	if err := start(actor, forge.AccessRead); err != nil {
		return nil, err
	}
	t, err := s.thread(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	var v *View
	err = s.cfg.Store.View(ctx, func(tx Tx) error {
		vs, err := viewsOf(ctx, tx, []*Thread{t})
		if err == nil {
			v = vs[0]
		}
		return err
	})
	return v, err
}

// MarkThread sets thread id to status to and returns it
// (write:notification); errors as Thread, and forge.ErrInvalid for an
// unknown status.
func (s *Service) MarkThread(ctx context.Context, actor forge.Actor, id forge.ID, to Status) (*View, error) {
	if err := start(actor, forge.AccessWrite); err != nil {
		return nil, err
	}
	if _, ok := ParseStatus(string(to)); !ok {
		return nil, forge.Errorf(forge.ErrInvalid, "unknown notification status %q", to)
	}
	if _, err := s.thread(ctx, actor, id); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var v *View
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		t, err := tx.ThreadByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) {
			return threadNotFound(id)
		} else if err != nil {
			return err
		}
		m := Mark(*t, to, now)
		if err := tx.UpdateThread(ctx, &m); err != nil {
			return err
		}
		vs, err := viewsOf(ctx, tx, []*Thread{&m})
		if err == nil {
			v = vs[0]
		}
		return err
	})
	return v, err
}

// thread loads thread id for the actor: the owner check, then whether the
// thread's owner may still read its repository's unit. It runs no
// transaction of its own around the permission lookup (which reads the
// repository store), so that callers call it before theirs.
func (s *Service) thread(ctx context.Context, actor forge.Actor, id forge.ID) (*Thread, error) {
	var t *Thread
	who := actor
	err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		t, err = tx.ThreadByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) {
			return threadNotFound(id)
		} else if err != nil {
			return err
		}
		if t.UserID != actor.User.ID && !actor.IsSiteAdmin() {
			return forge.Errorf(forge.ErrForbidden, "only user itself and admin are allowed to read/change this thread %d", id)
		}
		if t.UserID != actor.User.ID {
			users, err := tx.UsersByID(ctx, []forge.ID{t.UserID})
			if err != nil {
				return err
			}
			if users[t.UserID] == nil {
				return threadNotFound(id)
			}
			who = forge.Actor{User: users[t.UserID]}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	perms, err := s.cfg.Repos.PermissionsByID(ctx, who, []forge.ID{t.RepoID})
	if err != nil {
		return nil, err
	}
	if p, ok := perms[t.RepoID]; !ok || !p.CanRead(t.Source.Unit()) {
		return nil, threadNotFound(id)
	}
	return t, nil
}

func threadNotFound(id forge.ID) error {
	return forge.Errorf(forge.ErrNotFound, "%s", fmt.Sprintf("notification does not exist [id: %d]", id))
}

// viewsOf loads the subjects of a page of threads in one query.
func viewsOf(ctx context.Context, tx Tx, list []*Thread) ([]*View, error) {
	ids := make([]forge.ID, 0, len(list))
	for _, t := range list {
		if t.IssueID != 0 {
			ids = append(ids, t.IssueID)
		}
	}
	subjects, err := tx.Subjects(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*View, len(list))
	for i, t := range list {
		out[i] = &View{Thread: t, Subject: subjects[t.IssueID]}
	}
	return out, nil
}
