package issues

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Create opens an issue in owner/repo for the actor (write:issue; any
// signed-in actor who may read the issues unit). Labels, milestone,
// assignees and deadline are applied only for writers of the issues unit
// (ignored otherwise, as Forgejo); labels of other repositories and unknown
// label ids are ignored, and of the labels of one exclusive scope the
// alphabetically last stays. Returns forge.ErrInvalid `[Title]: Required`
// for an empty title; ErrMilestoneNotFound for an unknown milestone;
// forge.ErrInvalid `Assignee does not exist: …` or `user doesn't have
// access to repo …` for a bad assignee (see assignable); a not-found error for a
// repository the actor may not see or without issues; forge.ErrArchived
// for an archived repository. The index is reserved in the same
// transaction as the issue is written, so concurrent creations get
// distinct indexes.
func (s *Service) Create(ctx context.Context, actor forge.Actor, owner, repo string, opt CreateIssueOption) (*IssueView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.notArchived(); err != nil {
		return nil, err
	}
	if !a.canRead(false) {
		return nil, notFound()
	}
	if strings.TrimSpace(opt.Title) == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Title]: Required")
	}
	writer := a.canWrite(false)
	var assignees []*forge.User
	if writer {
		if assignees, err = s.assignable(ctx, a, opt.Assignees); err != nil {
			return nil, err
		}
	}
	targets, err := s.refTargets(ctx, a, opt.Title, opt.Body)
	if err != nil {
		return nil, err
	}
	mentions, err := s.mentionTargets(ctx, a, opt.Body)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var view *IssueView
	var mentioned []forge.ID
	var created *change
	err = s.update(ctx, func(tx Tx) error {
		if err := checkBlocked(ctx, tx, actor, a.repo.OwnerID); err != nil {
			return err
		}
		idx, err := tx.NextIssueIndex(ctx, a.repo.ID)
		if err != nil {
			return err
		}
		is := &Issue{RepoID: a.repo.ID, Index: idx, PosterID: actor.UserID(), Title: opt.Title,
			Body: opt.Body, Ref: opt.Ref, Created: now, Updated: now}
		if writer {
			if opt.Deadline != nil && !opt.Deadline.IsZero() {
				is.Deadline = opt.Deadline.UTC()
			}
			if opt.Milestone != 0 {
				if _, err := tx.MilestoneByID(ctx, a.repo.ID, opt.Milestone); errors.Is(err, forge.ErrNotFound) {
					return milestoneNotFound(a.repo.ID, "id: "+strconv.FormatInt(opt.Milestone, 10))
				} else if err != nil {
					return err
				}
				is.MilestoneID = opt.Milestone
			}
		}
		if opt.Closed {
			is.IsClosed, is.Closed = true, now
		}
		if err := tx.CreateIssue(ctx, is); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		ch.before = Placement{}
		created = ch
		if writer && len(opt.Labels) > 0 {
			labels, err := a.labelsByID(ctx, tx, opt.Labels)
			if err != nil {
				return err
			}
			labels = DedupExclusive(labels)
			if err := ch.setLabels(ctx, labels, labels, nil); err != nil {
				return err
			}
		}
		if is.MilestoneID != 0 {
			if err := ch.comment(ctx, &Comment{Type: CommentMilestone, MilestoneID: is.MilestoneID}); err != nil {
				return err
			}
		}
		if err := ch.setAssignees(ctx, assignees); err != nil {
			return err
		}
		if is.IsClosed {
			if err := ch.comment(ctx, &Comment{Type: CommentClose}); err != nil {
				return err
			}
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
		if err := xref(ctx, tx, actor, is, nil, targets, false, now, now, false); err != nil {
			return err
		}
		if mentioned, err = recordMentions(ctx, tx, is, mentions); err != nil {
			return err
		}
		view, err = a.view(ctx, tx, is)
		return err
	}, func(ctx context.Context, _ Tx) error {
		s.emitCreateAssignees(ctx, nil, actor, view, created)
		s.emitView(ctx, nil, EventCreate, actor, view, nil, mentioned...)
		return nil
	})
	return view, err
}

// Get returns issue index of owner/repo (read:issue). ErrIssueNotFound if
// there is none or the actor may not read it.
func (s *Service) Get(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*IssueView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var view *IssueView
	err = s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		view, err = a.view(ctx, tx, is)
		return err
	})
	return view, err
}

// List returns one page of owner/repo's issues matching opt, newest first,
// and their number (read:issue). Pull requests are listed only where the
// actor may read them; label names and milestone names unknown to the
// repository match nothing. The page costs a fixed number of queries.
func (s *Service) List(ctx context.Context, actor forge.Actor, owner, repo string, opt ListIssuesOption) ([]*IssueView, int64, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		views []*IssueView
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		f := IssueFilter{RepoIDs: []forge.ID{a.repo.ID}, State: opt.State, Keyword: opt.Keyword,
			UpdatedSince: opt.Since, UpdatedBefore: opt.Before}
		if f.State == "" {
			f.State = StateOpen
		}
		pulls, iss := a.canRead(true), a.canRead(false)
		switch {
		case opt.Type == TypePulls || !iss:
			if !pulls {
				return nil
			}
			f.IsPull = ptr(true)
		case opt.Type == TypeIssues || !pulls:
			f.IsPull = ptr(false)
		}
		if len(opt.Labels) > 0 {
			ls, _, err := tx.ListLabels(ctx, LabelFilter{RepoID: a.repo.ID, OrgID: a.orgID(), Names: opt.Labels}, all)
			if err != nil {
				return err
			}
			f.LabelIDs, f.LabelSets = labelSets(opt.Labels, ls)
		}
		if len(opt.Milestones) > 0 {
			ms, _, err := tx.ListMilestones(ctx, MilestoneFilter{RepoID: a.repo.ID}, all)
			if err != nil {
				return err
			}
			f.MilestoneIDs = milestoneIDs(opt.Milestones, ms)
		}
		for _, u := range []struct {
			name string
			id   *forge.ID
		}{{opt.CreatedBy, &f.PosterID}, {opt.AssignedTo, &f.AssigneeID}, {opt.MentionedBy, &f.MentionedID}} {
			if u.name == "" {
				continue
			}
			usr, err := tx.UserByName(ctx, u.name)
			if errors.Is(err, forge.ErrNotFound) {
				return nil // nobody: nothing matches
			} else if err != nil {
				return err
			}
			*u.id = usr.ID
		}
		list, n, err := tx.ListIssues(ctx, f, opt.ListOptions.Normalize())
		if err != nil {
			return err
		}
		total = n
		views, err = a.views(ctx, tx, list)
		return err
	})
	if views == nil && err == nil {
		views = []*IssueView{}
	}
	return views, total, err
}

// milestoneIDs resolves the milestones filter of a repository's issue list
// against its milestones, in memory (one query however many names are
// given), as Forgejo's ListIssues: each name is a title, or else an id
// (decimal) of the repository; the others are dropped. Never nil: no
// milestone left matches nothing.
func milestoneIDs(names []string, ms []*Milestone) []forge.ID {
	byTitle, byID := map[string]forge.ID{}, map[forge.ID]bool{}
	for _, m := range ms {
		if _, ok := byTitle[m.Title]; !ok {
			byTitle[m.Title] = m.ID
		}
		byID[m.ID] = true
	}
	out := []forge.ID{}
	for _, n := range names {
		if id, ok := byTitle[n]; ok {
			out = append(out, id)
		} else if id, err := strconv.ParseInt(n, 10, 64); err == nil && byID[forge.ID(id)] {
			out = append(out, forge.ID(id))
		}
	}
	return out
}

// labelSets is the filter of issues carrying every label named (Forgejo's
// ListIssues: one join per label): for each name, the labels of that name
// (of the repository or its organisation), the first name's as ids (the
// store's quicker path when only one name is asked), the others' as sets.
// Names no label has are dropped (as Forgejo's GetLabelIDsInRepoByNames
// drops them); when none is left, nothing matches.
func labelSets(names []string, labels []*Label) ([]forge.ID, [][]forge.ID) {
	byName := map[string][]forge.ID{}
	for _, l := range labels {
		byName[l.Name] = append(byName[l.Name], l.ID)
	}
	var sets [][]forge.ID
	for _, n := range names {
		if ids := byName[n]; ids != nil {
			sets = append(sets, ids)
			delete(byName, n) // a name twice is one set
		}
	}
	switch len(sets) {
	case 0:
		return []forge.ID{}, nil
	case 1:
		return sets[0], nil
	}
	return sets[0], sets[1:]
}

// all lists everything (a negative limit).
var all = forge.ListOptions{Page: 1, Limit: -1}

func ptr[T any](v T) *T { return &v }

// orgID is the repository's owner when labels of an organisation may apply
// to its issues: the store's labels of that owner are organisation labels
// only, so the owner's id is safe to pass for a user too.
func (a *access) orgID() forge.ID { return a.repo.OwnerID }

// Edit changes issue index (write:issue) and returns it as re-read.
// Posters may change title, body, ref and state; writers of the issues unit
// also deadline, assignees and milestone (silently ignored for others).
// Returns ErrNotPoster (a bare forge.ErrForbidden) when the actor is
// neither poster nor writer; the errors of CheckUpdatedAt (checked before
// any change); forge.ErrInvalid with ErrBadRequest `The due_date cannot be
// empty`; ErrMilestoneNotFound for an unknown milestone; forge.ErrInvalid
// for an unknown or unassignable assignee. Nothing is changed when it
// fails. Issue edits have no archived-repository check (as Forgejo).
func (s *Service) Edit(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt EditIssueOption) (*IssueView, error) {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	var assignees []*forge.User
	if opt.Assignees != nil && a.canWriteAny() {
		// Resolved before the transaction: whether each user may be
		// assigned is the repository service's answer.
		if assignees, err = s.assignable(ctx, a, opt.Assignees); err != nil {
			return nil, err
		}
	}
	targets, err := s.editRefTargets(ctx, a, index, opt)
	if err != nil {
		return nil, err
	}
	var mentions []mentionTarget
	if opt.Body != nil {
		if mentions, err = s.mentionTargets(ctx, a, *opt.Body); err != nil {
			return nil, err
		}
	}
	now := s.clock.Now()
	var view *IssueView
	wasClosed := false
	var edit *change
	var oldTitle, oldBody string
	err = s.update(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		wasClosed = is.IsClosed
		writer := a.canWrite(is.IsPull)
		if !a.isPoster(is.PosterID) && !writer {
			return notPoster()
		}
		stamp, given, err := CheckUpdatedAt(a.perm, is.Created, opt.UpdatedAt, now)
		if err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, stamp, given)
		title, body := is.Title, is.Body
		edit, oldTitle, oldBody = ch, title, body
		if err := ch.edit(ctx, a, opt, writer, assignees); err != nil {
			return err
		}
		if err := ch.commit(ctx); err != nil {
			return err
		}
		if targets != nil && (is.Title != title || is.Body != body) {
			if err := xref(ctx, tx, actor, is, nil, targets, true, now, stamp, given); err != nil {
				return err
			}
		}
		if is.Body != body {
			if _, err := recordMentions(ctx, tx, is, mentions); err != nil {
				return err
			}
		}
		view, err = a.view(ctx, tx, is)
		return err
	}, func(ctx context.Context, _ Tx) error {
		s.emitChanges(ctx, nil, actor, view, edit, oldTitle, oldBody)
		s.emitState(ctx, nil, actor, view, wasClosed)
		return nil
	})
	return view, err
}

// edit applies opt to the issue in Forgejo's order.
func (c *change) edit(ctx context.Context, a *access, opt EditIssueOption, writer bool, assignees []*forge.User) error {
	is := c.issue
	if opt.Title != nil && *opt.Title != "" && *opt.Title != is.Title {
		if err := checkBlocked(ctx, c.tx, c.actor, is.PosterID, a.repo.OwnerID); err != nil {
			return err
		}
		if err := c.comment(ctx, &Comment{Type: CommentTitle, OldTitle: is.Title, NewTitle: *opt.Title}); err != nil {
			return err
		}
		is.Title = *opt.Title
	}
	if opt.Body != nil && *opt.Body != is.Body {
		is.Body = *opt.Body
		is.ContentVersion++
		c.dirty = true
	}
	if opt.Ref != nil && *opt.Ref != is.Ref {
		if err := c.comment(ctx, &Comment{Type: CommentChangeRef, OldRef: is.Ref, NewRef: *opt.Ref}); err != nil {
			return err
		}
		is.Ref = *opt.Ref
	}
	if writer && (opt.Deadline != nil || opt.UnsetDeadline != nil) {
		var dl time.Time
		if opt.UnsetDeadline == nil || !*opt.UnsetDeadline {
			if opt.Deadline == nil {
				return forge.Reasonf(forge.ErrInvalid, ErrBadRequest, "The due_date cannot be empty")
			}
			dl = EndOfDay(*opt.Deadline)
		}
		if !dl.Equal(is.Deadline) {
			typ := CommentModifiedDeadline
			switch {
			case is.Deadline.IsZero():
				typ = CommentDeadline
			case dl.IsZero():
				typ = CommentRemovedDeadline
			}
			if err := c.comment(ctx, &Comment{Type: typ}); err != nil {
				return err
			}
			is.Deadline = dl
		}
	}
	if writer && opt.Assignees != nil {
		if err := c.setAssignees(ctx, assignees); err != nil {
			return err
		}
	}
	if writer && opt.Milestone != nil && *opt.Milestone != is.MilestoneID {
		if *opt.Milestone != 0 {
			if _, err := c.tx.MilestoneByID(ctx, is.RepoID, *opt.Milestone); errors.Is(err, forge.ErrNotFound) {
				return milestoneNotFound(is.RepoID, "id: "+strconv.FormatInt(*opt.Milestone, 10))
			} else if err != nil {
				return err
			}
		}
		if err := c.comment(ctx, &Comment{Type: CommentMilestone, OldMilestoneID: is.MilestoneID, MilestoneID: *opt.Milestone}); err != nil {
			return err
		}
		is.MilestoneID = *opt.Milestone
	}
	if opt.State != nil {
		if closed := *opt.State == StateClosed; closed != is.IsClosed {
			if closed {
				if err := noDependenciesLeft(ctx, c.tx, a.repo, is); err != nil {
					return err
				}
			}
			typ := CommentReopen
			is.IsClosed, is.Closed = closed, time.Time{}
			if closed {
				typ, is.Closed = CommentClose, c.stamp
			}
			if err := c.comment(ctx, &Comment{Type: typ}); err != nil {
				return err
			}
		}
	}
	return nil
}

// EndOfDay is the deadline Forgejo stores for a due date: 23:59:59 of its
// calendar day in its own location (in UTC); the zero time stays zero.
func EndOfDay(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 23, 59, 59, 0, t.Location()).UTC()
}

// Delete removes issue index with its comments, labels and attachments
// (write:issue; repository admins and site administrators, else
// forge.ErrForbidden `user should be an owner or a collaborator with admin
// write of a repository`). Milestone counters follow in the same
// transaction; attachment blobs are deleted after the commit.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	if !a.isAdmin() {
		return forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	}
	now := s.clock.Now()
	var blobs []string
	err = s.store.Update(ctx, func(tx Tx) error {
		blobs = nil // a store may run this function again (PostgreSQL retries conflicts)
		is, err := a.issue(ctx, tx, index)
		if err != nil {
			return err
		}
		cs, _, err := tx.ListComments(ctx, CommentFilter{IssueID: is.ID}, all)
		if err != nil {
			return err
		}
		f := AttachmentFilter{IssueIDs: []forge.ID{is.ID}}
		for _, c := range cs {
			f.CommentIDs = append(f.CommentIDs, c.ID)
		}
		assets, err := tx.Attachments(ctx, f)
		if err != nil {
			return err
		}
		for _, at := range assets {
			blobs = append(blobs, at.UUID)
		}
		ch := newChange(tx, actor, is, now, now, false)
		if err := tx.DeleteIssue(ctx, is.ID); err != nil {
			return err
		}
		return ch.counters(ctx, ch.before, Placement{})
	})
	if err != nil {
		return err
	}
	s.deleteBlobs(ctx, blobs)
	return nil
}

// deleteBlobs removes the bytes of deleted attachments, logging failures
// (the rows are gone; an orphan blob is harmless).
func (s *Service) deleteBlobs(ctx context.Context, keys []string) {
	if s.cfg.Blobs == nil {
		return
	}
	for _, k := range keys {
		if err := s.cfg.Blobs.Delete(ctx, k); err != nil {
			s.log.DebugContext(ctx, "issues: deleting attachment blob", "key", k, "err", err)
		}
	}
}
