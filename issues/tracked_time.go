package issues

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Timeline comment types of time tracking (Forgejo's CommentType values).
const (
	CommentStartTracking    CommentType = 12
	CommentStopTracking     CommentType = 13
	CommentAddTimeManual    CommentType = 14
	CommentCancelTracking   CommentType = 15
	CommentDeleteTimeManual CommentType = 26
)

// TimeView is a tracked time with what its JSON shows: its user and its
// issue (nil when the actor may no longer read it).
type TimeView struct {
	Time  *TrackedTime
	User  *forge.User
	Issue *IssueView
}

// AddTimeOption adds tracked time (Forgejo's AddTimeOption).
type AddTimeOption struct {
	// Seconds is the time spent.
	Seconds int64
	// Created dates the time; zero is now.
	Created time.Time
	// User names who spent it: honoured for repository administrators
	// naming someone else and for site administrators, ignored otherwise.
	User string
}

// TimeListOption filters tracked times.
type TimeListOption struct {
	// User names whose times to list ("": the actor's, or everyone's for
	// writers of the issues unit and site administrators).
	User string
	// Since and Before bound the creation date, inclusive (zero: no bound).
	Since, Before time.Time
	forge.ListOptions
}

// errTrackerDisabled is Forgejo's 400 `time tracking disabled`.
func errTrackerDisabled() error {
	return forge.Reasonf(forge.ErrInvalid, ErrBadRequest, "time tracking disabled")
}

// timeAccess opens issue index for time tracking (write:issue): the
// issue, else ErrIssueNotFound; Forgejo's CanUseTimetracker, else
// errTrackerDisabled when tracking is off and the bare 403 (ErrNotPoster)
// when the actor may not track time on it.
func (s *Service) timeAccess(ctx context.Context, tx Tx, a *access, index int64) (*Issue, error) {
	is, err := a.issue(ctx, tx, index)
	if err != nil {
		return nil, err
	}
	assigned, err := tx.Assignees(ctx, []forge.ID{is.ID})
	if err != nil {
		return nil, err
	}
	isAssignee := slices.Contains(assigned[is.ID], a.actor.UserID())
	if !CanUseTimetracker(a.repo, a.canWrite(is.IsPull), a.isPoster(is.PosterID), isAssignee) {
		if !TimetrackerEnabled(a.repo) {
			return nil, errTrackerDisabled()
		}
		return nil, notPoster()
	}
	return is, nil
}

// AddTime records time spent on issue index (POST /issues/{index}/times;
// write:issue) and returns it. The errors of timeAccess; forge.ErrNotFound
// for an unknown opt.User; forge.ErrInvalid for a negative time.
func (s *Service) AddTime(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt AddTimeOption) (*TimeView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if opt.Seconds < 0 {
		return nil, forge.Errorf(forge.ErrInvalid, "[Time]: time must not be negative")
	}
	now := s.clock.Now()
	var view *TimeView
	err = s.store.Update(ctx, func(tx Tx) error {
		is, err := s.timeAccess(ctx, tx, a, index)
		if err != nil {
			return err
		}
		user := actor.User
		if opt.User != "" && (a.isAdmin() && !strings.EqualFold(actor.User.Name, opt.User) || actor.IsSiteAdmin()) {
			if user, err = tx.UserByName(ctx, opt.User); err != nil {
				return err
			}
		}
		created := opt.Created
		if created.IsZero() {
			created = now
		}
		t := &TrackedTime{IssueID: is.ID, UserID: user.ID, Created: created, Seconds: opt.Seconds}
		if err := tx.CreateTrackedTime(ctx, t); err != nil {
			return err
		}
		if err := timeComment(ctx, tx, is, user.ID, CommentAddTimeManual, opt.Seconds, now); err != nil {
			return err
		}
		views, err := timeViews(ctx, tx, []*TrackedTime{t}, map[forge.ID]*access{a.repo.ID: a})
		if err == nil {
			view = views[0]
		}
		return err
	})
	return view, err
}

// timeComment records a time-tracking event on the timeline; its content
// is `|<seconds>` as Forgejo's.
func timeComment(ctx context.Context, tx Tx, is *Issue, userID forge.ID, typ CommentType, seconds int64, now time.Time) error {
	c := &Comment{IssueID: is.ID, Type: typ, PosterID: userID, Created: now, Updated: now}
	if typ != CommentStartTracking && typ != CommentCancelTracking {
		c.Content = fmt.Sprintf("|%d", seconds)
	}
	return tx.CreateComment(ctx, c)
}

// ListTimes lists the tracked times of issue index (GET
// /issues/{index}/times; read:issue, signed in), one page and their
// number. forge.ErrNotFound when time tracking is off; ErrIssueNotFound;
// forge.ErrNotFound for an unknown opt.User; forge.ErrForbidden `query by
// user not allowed; not enough rights` when someone who is neither writer
// nor site administrator asks for another user's times (without User they
// get their own).
func (s *Service) ListTimes(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt TimeListOption) ([]*TimeView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	if !actor.IsSignedIn() {
		return nil, 0, tokenRequired()
	}
	if !TimetrackerEnabled(a.repo) {
		return nil, 0, forge.Errorf(forge.ErrNotFound, "Timetracker is disabled")
	}
	return s.listTimes(ctx, a, &index, opt)
}

// ListRepoTimes lists the tracked times of the repository (GET
// /repos/{owner}/{repo}/times; signed in) with ListTimes'
// rules (but read:repository, as Forgejo's route sits in the repository
// group), and forge.ErrInvalid (ErrBadRequest) `time tracking disabled`
// when time tracking is off.
func (s *Service) ListRepoTimes(ctx context.Context, actor forge.Actor, owner, repo string, opt TimeListOption) ([]*TimeView, int64, error) {
	a, err := s.openRepoTimes(ctx, actor, owner, repo)
	if err != nil {
		return nil, 0, err
	}
	if !TimetrackerEnabled(a.repo) {
		return nil, 0, errTrackerDisabled()
	}
	return s.listTimes(ctx, a, nil, opt)
}

func (s *Service) listTimes(ctx context.Context, a *access, index *int64, opt TimeListOption) ([]*TimeView, int64, error) {
	o := opt.ListOptions.Normalize()
	var out []*TimeView
	var total int64
	err := s.store.View(ctx, func(tx Tx) error {
		f := TimeFilter{RepoID: a.repo.ID, CreatedSince: opt.Since, CreatedBefore: opt.Before}
		if index != nil {
			is, err := a.issue(ctx, tx, *index)
			if err != nil {
				return err
			}
			f.IssueID = is.ID
		}
		if opt.User != "" {
			u, err := tx.UserByName(ctx, opt.User)
			if errors.Is(err, forge.ErrNotFound) {
				return forge.Errorf(forge.ErrNotFound, "user does not exist [name: %s]", opt.User)
			} else if err != nil {
				return err
			}
			f.UserID = u.ID
		}
		if !a.actor.IsSiteAdmin() && f.UserID != a.actor.UserID() && !a.canWrite(false) {
			if f.UserID != 0 {
				return forge.Errorf(forge.ErrForbidden, "query by user not allowed; not enough rights")
			}
			f.UserID = a.actor.UserID()
		}
		list, n, err := tx.ListTrackedTimes(ctx, f, o)
		if err != nil {
			return err
		}
		total = n
		out, err = timeViews(ctx, tx, list, map[forge.ID]*access{a.repo.ID: a})
		return err
	})
	return out, total, err
}

// ListMyTimes lists the actor's tracked times in every repository (GET
// /user/times; read:user), one page and their number; the issue of a time
// in a repository the actor may no longer read is left out of its view.
func (s *Service) ListMyTimes(ctx context.Context, actor forge.Actor, opt TimeListOption) ([]*TimeView, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryUser); err != nil {
		return nil, 0, err
	}
	if !actor.IsSignedIn() {
		return nil, 0, tokenRequired()
	}
	o := opt.ListOptions.Normalize()
	var list []*TrackedTime
	var total int64
	var refs map[forge.ID]RepoRef
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		f := TimeFilter{UserID: actor.UserID(), CreatedSince: opt.Since, CreatedBefore: opt.Before}
		if list, total, err = tx.ListTrackedTimes(ctx, f, o); err != nil {
			return err
		}
		refs, err = timeRepos(ctx, tx, list)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	byRepo, err := s.accessByRepo(ctx, &access{actor: actor, repo: &forge.Repository{}}, refs)
	if err != nil {
		return nil, 0, err
	}
	var out []*TimeView
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = timeViews(ctx, tx, list, byRepo)
		return err
	})
	return out, total, err
}

// timeRepos names the repositories of the issues of list.
func timeRepos(ctx context.Context, tx Tx, list []*TrackedTime) (map[forge.ID]RepoRef, error) {
	ids := make([]forge.ID, 0, len(list))
	for _, t := range list {
		ids = append(ids, t.IssueID)
	}
	byID, err := tx.IssuesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var repoIDs []forge.ID
	for _, is := range byID {
		repoIDs = append(repoIDs, is.RepoID)
	}
	slices.Sort(repoIDs)
	return tx.RepoRefs(ctx, slices.Compact(repoIDs))
}

// timeViews loads the users and the issues of list with a fixed number of
// queries; an issue whose repository is not in byRepo or that the actor
// may not read is left out.
func timeViews(ctx context.Context, tx Tx, list []*TrackedTime, byRepo map[forge.ID]*access) ([]*TimeView, error) {
	out := make([]*TimeView, 0, len(list))
	if len(list) == 0 {
		return out, nil
	}
	var ids, userIDs []forge.ID
	for _, t := range list {
		ids = append(ids, t.IssueID)
		userIDs = append(userIDs, t.UserID)
	}
	slices.Sort(ids)
	byID, err := tx.IssuesByID(ctx, slices.Compact(ids))
	if err != nil {
		return nil, err
	}
	var readable []*Issue
	for _, is := range byID {
		if a := byRepo[is.RepoID]; a != nil && a.canRead(is.IsPull) {
			readable = append(readable, is)
		}
	}
	views, err := loadViews(ctx, tx, readable, byRepo)
	if err != nil {
		return nil, err
	}
	viewOf := map[forge.ID]*IssueView{}
	for _, v := range views {
		viewOf[v.Issue.ID] = v
	}
	slices.Sort(userIDs)
	users, err := tx.UsersByID(ctx, slices.Compact(userIDs))
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		u := users[t.UserID]
		if u == nil {
			u = Ghost()
		}
		out = append(out, &TimeView{Time: t, User: u, Issue: viewOf[t.IssueID]})
	}
	return out, nil
}

// DeleteTime deletes tracked time id of issue index (DELETE
// /issues/{index}/times/{id}; write:issue): the errors of timeAccess;
// forge.ErrNotFound if the issue has no such time or it is deleted; the
// bare 403 (ErrNotPoster) unless the actor spent it or is a site
// administrator.
func (s *Service) DeleteTime(ctx context.Context, actor forge.Actor, owner, repo string, index int64, id forge.ID) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := s.timeAccess(ctx, tx, a, index)
		if err != nil {
			return err
		}
		t, err := tx.TrackedTimeByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) || err == nil && t.IssueID != is.ID {
			return forge.Errorf(forge.ErrNotFound, "tracked_time does not exist [id: %d]", id)
		} else if err != nil {
			return err
		}
		if t.Deleted {
			return forge.Errorf(forge.ErrNotFound, "tracked time [%d] already deleted", t.ID)
		}
		if !actor.IsSiteAdmin() && t.UserID != actor.UserID() {
			return notPoster()
		}
		if err := tx.MarkTimesDeleted(ctx, []forge.ID{t.ID}); err != nil {
			return err
		}
		return timeComment(ctx, tx, is, actor.UserID(), CommentDeleteTimeManual, t.Seconds, now)
	})
}

// ResetTime deletes every tracked time of the actor on issue index
// (DELETE /issues/{index}/times; write:issue): the errors of timeAccess;
// forge.ErrNotFound if the actor has none there.
func (s *Service) ResetTime(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := s.timeAccess(ctx, tx, a, index)
		if err != nil {
			return err
		}
		list, _, err := tx.ListTrackedTimes(ctx, TimeFilter{IssueID: is.ID, UserID: actor.UserID()}, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return forge.Errorf(forge.ErrNotFound, "tracked_time does not exist")
		}
		ids := make([]forge.ID, 0, len(list))
		var sum int64
		for _, t := range list {
			ids = append(ids, t.ID)
			sum += t.Seconds
		}
		if err := tx.MarkTimesDeleted(ctx, ids); err != nil {
			return err
		}
		return timeComment(ctx, tx, is, actor.UserID(), CommentDeleteTimeManual, sum, now)
	})
}

// SecToTime is Forgejo's util.SecToTime: whole hours and minutes in
// words ("1 hour 5 minutes"), "" under a minute.
func SecToTime(seconds int64) string {
	var b strings.Builder
	for _, p := range []struct {
		n    int64
		name string
	}{{seconds / 3600, "hour"}, {seconds / 60 % 60, "minute"}} {
		switch {
		case p.n == 1:
			fmt.Fprintf(&b, "1 %s ", p.name)
		case p.n > 1:
			fmt.Fprintf(&b, "%d %ss ", p.n, p.name)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// ListUserRepoTimes lists every tracked time of user in the repository
// (GET /repos/{owner}/{repo}/times/{user}, deprecated; read:repository,
// signed in), unpaged. forge.ErrInvalid (ErrBadRequest) `time tracking disabled`
// when time tracking is off; forge.ErrNotFound for an unknown user;
// forge.ErrForbidden `query by user not allowed; not enough rights` unless
// the actor is that user, a repository administrator or a site
// administrator.
func (s *Service) ListUserRepoTimes(ctx context.Context, actor forge.Actor, owner, repo, user string) ([]*TimeView, error) {
	a, err := s.openRepoTimes(ctx, actor, owner, repo)
	if err != nil {
		return nil, err
	}
	if !TimetrackerEnabled(a.repo) {
		return nil, errTrackerDisabled()
	}
	var out []*TimeView
	err = s.store.View(ctx, func(tx Tx) error {
		u, err := tx.UserByName(ctx, user)
		if errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "user does not exist [uid: 0, name: %s]", user)
		} else if err != nil {
			return err
		}
		if !a.isAdmin() && !actor.IsSiteAdmin() && actor.UserID() != u.ID {
			return forge.Errorf(forge.ErrForbidden, "query by user not allowed; not enough rights")
		}
		list, _, err := tx.ListTrackedTimes(ctx, TimeFilter{RepoID: a.repo.ID, UserID: u.ID}, forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		out, err = timeViews(ctx, tx, list, map[forge.ID]*access{a.repo.ID: a})
		return err
	})
	return out, err
}

// openRepoTimes opens owner/repo for the repository's time lists: the
// repository token scope (Forgejo's repository group), a signed-in actor,
// and Forgejo's mustEnableIssues (not found unless the actor may read the
// issues unit).
func (s *Service) openRepoTimes(ctx context.Context, actor forge.Actor, owner, name string) (*access, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	repo, perm, err := s.repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	a := &access{actor: actor, repo: repo, perm: perm}
	if !a.canRead(false) {
		return nil, notFound()
	}
	if !actor.IsSignedIn() {
		return nil, tokenRequired()
	}
	return a, nil
}
