package repos

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// StatusState is the state of a commit status, with Forgejo's names.
type StatusState string

// Commit status states.
const (
	StatusPending StatusState = "pending"
	StatusSuccess StatusState = "success"
	StatusError   StatusState = "error"
	StatusFailure StatusState = "failure"
	StatusWarning StatusState = "warning"
)

// statusRank orders states from worst to best, as Forgejo combines them.
var statusRank = map[StatusState]int{StatusError: 0, StatusFailure: 1, StatusWarning: 2, StatusPending: 3, StatusSuccess: 4}

// Valid reports whether s is a known state.
func (s StatusState) Valid() bool { _, ok := statusRank[s]; return ok }

// CommitStatus is a status a CI system reports on a commit.
type CommitStatus struct {
	ID          forge.ID
	RepoID      forge.ID
	SHA         string
	State       StatusState
	TargetURL   string
	Description string
	Context     string
	CreatorID   forge.ID
	Creator     *forge.User
	Created     time.Time
	Updated     time.Time
}

// StatusFilter narrows ListStatuses.
type StatusFilter struct {
	State StatusState // "" for all
	// Sort is "oldest" (first reported first) or anything else (newest first).
	Sort string
}

// CombineStatuses is Forgejo's combined state as a pure rule: the latest
// status of each context, and the worst of their states; pending when
// there is none.
func CombineStatuses(all []*CommitStatus) (StatusState, []*CommitStatus) {
	latest := map[string]*CommitStatus{}
	var order []string
	for _, st := range all {
		cur, ok := latest[st.Context]
		if !ok {
			order = append(order, st.Context)
		}
		if !ok || st.ID > cur.ID {
			latest[st.Context] = st
		}
	}
	state := StatusPending
	out := []*CommitStatus{}
	for i, ctx := range order {
		st := latest[ctx]
		out = append(out, st)
		if i == 0 || statusRank[st.State] < statusRank[state] {
			state = st.State
		}
	}
	return state, out
}

// CreateStatus reports a status on the commit rev names. Writers only.
// forge.ErrInvalid for an unknown state; forge.ErrNotFound for an unknown
// commit.
func (s *Service) CreateStatus(ctx context.Context, actor forge.Actor, owner, name, rev string, st CommitStatus) (*View, *CommitStatus, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	if !st.State.Valid() {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "invalid commit status state %q", st.State)
	}
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if err := requireWrite(v); err != nil {
		return nil, nil, err
	}
	rr, err := ResolveRef(ctx, s.git, v.Repo.ID, rev, true)
	if err != nil {
		return nil, nil, err
	}
	sha := rr.Commit
	now := s.clock.Now()
	st.RepoID, st.SHA, st.CreatorID, st.Creator, st.Created, st.Updated = v.Repo.ID, sha, actor.User.ID, actor.User.VisibleTo(actor), now, now
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := tx.CreateStatus(ctx, &st); err != nil {
			return err
		}
		return s.appendOutbox(ctx, tx, OutboxStatus, OutboxEvent{Actor: actor, Repo: v.Repo,
			Status: &StatusEvent{SHA: sha, Context: st.Context, State: st.State}})
	})
	if err != nil {
		return nil, nil, err
	}
	s.signalOutbox()
	return v, &st, nil
}

// ListStatuses lists the statuses of the commit rev names, with their
// creators; a rev that names no commit has none (Forgejo's 200 []).
func (s *Service) ListStatuses(ctx context.Context, actor forge.Actor, owner, name, rev string, f StatusFilter, o forge.ListOptions) (*View, string, []*CommitStatus, int64, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", nil, 0, err
	}
	rr, err := ResolveRef(ctx, s.git, v.Repo.ID, rev, true)
	if errors.Is(err, forge.ErrNotFound) {
		// Forgejo's ResolveRefOrSha reads a name that is no branch, tag or
		// commit as the commit id itself, which has no statuses: 200 [].
		return v, rev, []*CommitStatus{}, 0, nil
	} else if err != nil {
		return nil, "", nil, 0, err
	}
	sha := rr.Commit
	var (
		list  []*CommitStatus
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		if list, total, err = tx.ListStatuses(ctx, v.Repo.ID, sha, f, o.Normalize()); err != nil {
			return err
		}
		return withCreators(ctx, tx, actor, list)
	})
	return v, sha, list, total, err
}

// CombinedStatus returns the combined state of the commit rev names and the
// latest status per context; a rev that names no commit has none (as
// ListStatuses).
func (s *Service) CombinedStatus(ctx context.Context, actor forge.Actor, owner, name, rev string) (*View, string, StatusState, []*CommitStatus, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", "", nil, err
	}
	sha, state, latest, err := s.combinedStatus(ctx, actor, v, rev)
	if err != nil {
		return nil, "", "", nil, err
	}
	return v, sha, state, latest, nil
}

// combinedStatus is CombinedStatus in v, a view resolved for a reader of
// its code.
func (s *Service) combinedStatus(ctx context.Context, actor forge.Actor, v *View, rev string) (string, StatusState, []*CommitStatus, error) {
	rr, err := ResolveRef(ctx, s.git, v.Repo.ID, rev, true)
	if errors.Is(err, forge.ErrNotFound) {
		return rev, "", nil, nil
	} else if err != nil {
		return "", "", nil, err
	}
	sha := rr.Commit
	var all []*CommitStatus
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		if all, _, err = tx.ListStatuses(ctx, v.Repo.ID, sha, StatusFilter{Sort: "oldest"}, forge.ListOptions{Page: 1, Limit: 1 << 20}); err != nil {
			return err
		}
		return withCreators(ctx, tx, actor, all)
	})
	if err != nil {
		return "", "", nil, err
	}
	state, latest := CombineStatuses(all)
	return sha, state, latest, nil
}

// withCreators sets the creator of each status of list (as actor may see
// it; nil when deleted) in one query whatever its length.
func withCreators(ctx context.Context, tx Tx, actor forge.Actor, list []*CommitStatus) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]forge.ID, 0, len(list))
	for _, st := range list {
		ids = append(ids, st.CreatorID)
	}
	users, err := tx.UsersByID(ctx, ids)
	if err != nil {
		return err
	}
	for _, st := range list {
		st.Creator = users[st.CreatorID].VisibleTo(actor)
	}
	return nil
}
