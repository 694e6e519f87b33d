package issues

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// CreatePull opens a pull request from opt.Head into opt.Base of
// owner/repo (write:repository; the actor reads the pulls and code units
// of the base and the code of the head repository, as Forgejo's
// CreatePullRequest; no write access is needed). Labels, milestone,
// assignees and deadline are applied for writers of pulls only. Errors:
// forge.ErrInvalid `Invalid PullRequest: There are no changes between the
// head and the base` when head and base are the same text (or the same
// branch of the same repository); forge.ErrInvalid `[Title]: Required`;
// forge.ErrNotFound for an unknown base or head branch or head
// repository, or a head with more than one colon; forge.ErrConflict
// `pull request already exists for these targets [...]` when an open pull
// request exists for the pair; forge.ErrArchived. The issue, the pull
// request row and refs/pull/N/head are written together, with no git
// process inside a write transaction: when git fails no row is written,
// when the rows fail the ref is deleted (an index reserved by a failed
// creation is not reused).
func (s *Service) CreatePull(ctx context.Context, actor forge.Actor, owner, repo string, opt CreatePullOption) (*PullView, error) {
	if strings.TrimSpace(opt.Title) == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "[Title]: Required")
	}
	if opt.Head == opt.Base {
		return nil, noChanges()
	}
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if err := a.notArchived(); err != nil {
		return nil, err
	}
	h, ok := parseHead(opt.Head)
	if !ok {
		return nil, forge.Errorf(forge.ErrNotFound, "the head part of {basehead} %s must contain zero or one colon (:) but contains %d",
			opt.Head, strings.Count(opt.Head, ":"))
	}
	if _, err := s.branchIn(ctx, a, opt.Base); err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "could not find '%s' to be a commit, branch or tag in the base repository %s",
			opt.Base, a.repo.FullName())
	}
	head, _, err := s.headRepo(ctx, a, h)
	if err != nil {
		return nil, err
	}
	if head.ID == a.repo.ID && h.branch == opt.Base {
		return nil, noChanges()
	}
	heads := a
	if head.ID != a.repo.ID {
		heads = &access{actor: actor, repo: head}
	}
	if _, err := s.branchIn(ctx, heads, h.branch); err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "could not find '%s' to be a commit, branch or tag in the head repository %s",
			h.branch, head.FullName())
	}
	if err := s.store.View(ctx, func(tx Tx) error {
		if p, err := existingPull(ctx, tx, head.ID, a.repo.ID, h.branch, opt.Base); err != nil {
			return err
		} else if p != nil {
			return alreadyExists(p)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	writer := a.canWrite(true)
	names := opt.Assignees
	if opt.Assignee != "" {
		names = append([]string{opt.Assignee}, names...)
	}
	var assignees []*forge.User
	if writer && len(names) > 0 {
		if assignees, err = s.assignable(ctx, a, names); err != nil {
			return nil, err
		}
	}
	now := s.clock.Now()
	p := &PullRequest{BaseRepoID: a.repo.ID, HeadRepoID: head.ID, BaseBranch: opt.Base, HeadBranch: h.branch,
		Status: PullChecking, AllowMaintainerEdit: a.repo.DefaultAllowMaintainerEdit}
	// Rows and refs change together or not at all, with no git process
	// inside a write transaction: the index is reserved first (a reserved
	// index is never reused, as Forgejo's issue_index), refs/pull/N/head
	// is written with git, then the rows; when the rows fail, the ref is
	// deleted again.
	var idx int64
	if err := s.store.Update(ctx, func(tx Tx) error {
		if err := checkBlocked(ctx, tx, actor, a.repo.OwnerID); err != nil {
			return err
		}
		if dup, err := existingPull(ctx, tx, head.ID, a.repo.ID, h.branch, opt.Base); err != nil {
			return err
		} else if dup != nil {
			return alreadyExists(dup)
		}
		idx, err = tx.NextIssueIndex(ctx, a.repo.ID)
		return err
	}); err != nil {
		return nil, err
	}
	p.Index = idx
	st, err := s.gitState(ctx, a, p)
	if err != nil {
		s.dropHeadRef(ctx, a.repo.ID, p.HeadRef(), "*")
		return nil, err
	}
	st.apply(p)
	var (
		is      *Issue
		created *change // the creation's change: the assignee comments it made
	)
	err = s.update(ctx, func(tx Tx) error {
		if err := checkBlocked(ctx, tx, actor, a.repo.OwnerID); err != nil {
			return err
		}
		if dup, err := existingPull(ctx, tx, head.ID, a.repo.ID, h.branch, opt.Base); err != nil {
			return err
		} else if dup != nil {
			return alreadyExists(dup)
		}
		is = &Issue{RepoID: a.repo.ID, Index: idx, PosterID: actor.UserID(), Title: opt.Title, Body: opt.Body,
			IsPull: true, Created: now, Updated: now}
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
		if err := tx.CreateIssue(ctx, is); err != nil {
			return err
		}
		p.IssueID = is.ID
		if err := tx.CreatePull(ctx, p); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		created = ch
		ch.before = Placement{}
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
		return ch.commit(ctx)
	}, func(ctx context.Context, tx Tx) error {
		vs, err := a.pullViews(ctx, tx, []*Issue{is})
		if err != nil || len(vs) == 0 {
			return err
		}
		// Each assignee is told before the creation, as for issues
		// (Forgejo's NewPullRequest assigns them with notification).
		s.emitCreateAssignees(ctx, nil, actor, vs[0].IssueView, created)
		s.emitPull(ctx, EventCreate, actor, a.repo, vs[0].Issue, vs[0].Pull, nil, nil)
		return nil
	})
	if err != nil {
		s.dropHeadRef(ctx, a.repo.ID, p.HeadRef(), st.head)
		return nil, err
	}
	return s.pullView(ctx, a, is.Index)
}

// refSetter is the ref primitive of the git storages (repos.Git's
// SetRef) that CreatePull uses to take back a ref whose rows failed.
type refSetter interface {
	SetRef(ctx context.Context, repo forge.ID, ref, newID, oldID string) error
}

// dropHeadRef deletes ref of repo if it still points at old ("*": any),
// when the pull-request storage can; a failure is logged (the index is
// never reused, so the ref is never read).
func (s *Service) dropHeadRef(ctx context.Context, repo forge.ID, ref, old string) {
	rs, ok := s.cfg.Pulls.Git.(refSetter)
	if !ok {
		return
	}
	if err := rs.SetRef(ctx, repo, ref, "", old); err != nil {
		s.log.DebugContext(ctx, "pulls: drop head ref", "repo", repo, "ref", ref, "err", err)
	}
}

func noChanges() error {
	return forge.Errorf(forge.ErrInvalid, "Invalid PullRequest: There are no changes between the head and the base")
}

// pullView reads pull request index of a's repository as a's actor sees
// it.
func (s *Service) pullView(ctx context.Context, a *access, index int64) (*PullView, error) {
	var v []*PullView
	err := s.store.View(ctx, func(tx Tx) error {
		is, _, err := a.pull(ctx, tx, index)
		if err != nil {
			return err
		}
		v, err = a.pullViews(ctx, tx, []*Issue{is})
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, pullNotFound()
	}
	s.finishViews(ctx, a, v)
	return v[0], nil
}

// ListPulls returns one page of owner/repo's pull requests matching opt,
// and their number (read:repository; read on pulls and code).
func (s *Service) ListPulls(ctx context.Context, actor forge.Actor, owner, repo string, opt ListPullsOption) ([]*PullView, int64, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var (
		views []*PullView
		total int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		f := IssueFilter{RepoIDs: []forge.ID{a.repo.ID}, State: opt.State, IsPull: ptr(true), Sort: pullSort(opt.Sort)}
		if f.State == "" {
			f.State = StateOpen
		}
		if opt.Milestone != 0 {
			f.MilestoneIDs = []forge.ID{opt.Milestone}
		}
		if len(opt.Labels) > 0 {
			f.LabelIDs = opt.Labels
		}
		if opt.Poster != "" {
			u, err := tx.UserByName(ctx, opt.Poster)
			if errors.Is(err, forge.ErrNotFound) {
				return nil
			} else if err != nil {
				return err
			}
			f.PosterID = u.ID
		}
		list, n, err := tx.ListIssues(ctx, f, opt.ListOptions.Normalize())
		if err != nil {
			return err
		}
		total = n
		views, err = a.pullViews(ctx, tx, list)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	s.finishViews(ctx, a, views)
	if views == nil {
		views = []*PullView{}
	}
	return views, total, nil
}

// pullSort maps Forgejo's pull orders onto the issue orders.
func pullSort(s PullSort) IssueSort {
	switch s {
	case PullSortOldest:
		return IssueSortOldest
	case PullSortRecentUpdate:
		return IssueSortRecentUpdate
	case PullSortLeastUpdate:
		return IssueSortLeastUpdate
	case PullSortMostComment:
		return IssueSortMostComment
	case PullSortLeastComment:
		return IssueSortLeastComment
	}
	return IssueSortLatest
}

// PinnedPulls returns owner/repo's pinned pull requests in pin order.
func (s *Service) PinnedPulls(ctx context.Context, actor forge.Actor, owner, repo string) ([]*PullView, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	pinned, err := s.Pinned(ctx, pullScopeActor(actor), owner, repo, true)
	if err != nil {
		return nil, err
	}
	var views []*PullView
	err = s.store.View(ctx, func(tx Tx) error {
		list := make([]*Issue, 0, len(pinned))
		for _, v := range pinned {
			list = append(list, v.Issue)
		}
		views, err = a.pullViews(ctx, tx, list)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.finishViews(ctx, a, views)
	if views == nil {
		views = []*PullView{}
	}
	return views, nil
}

// GetPull returns pull request index. ErrPullNotFound (forge.ErrNotFound)
// when there is none, when index is an issue, or when the actor may not
// read pulls.
func (s *Service) GetPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*PullView, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	return s.pullView(ctx, a, index)
}

// GetPullByBaseHead returns the newest pull request from head ("branch" or
// "owner:branch") into base (merged or closed ones too).
// forge.ErrNotFound if none.
func (s *Service) GetPullByBaseHead(ctx context.Context, actor forge.Actor, owner, repo, base, head string) (*PullView, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	h, ok := parseHead(head)
	if !ok {
		return nil, pullNotFound()
	}
	hr, _, err := s.headRepo(ctx, a, h)
	if err != nil {
		return nil, pullNotFound()
	}
	var index int64
	err = s.store.View(ctx, func(tx Tx) error {
		list, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: a.repo.ID, BaseBranch: base, HeadRepoID: hr.ID, HeadBranch: h.branch})
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return pullNotFound()
		}
		index = list[len(list)-1].Index
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.pullView(ctx, a, index)
}

// EditPull edits pull request index (write:repository). The poster and
// writers of pulls may change title, body and state; writers also
// deadline, assignees, milestone, labels and the base branch (silently
// ignored for others). Errors: ErrNotPoster (a bare forge.ErrForbidden);
// ErrPullMergedState (412) `cannot change state of this pull request, it
// was already merged`; reopening when the head or base branch is gone:
// forge.ErrInvalid (ErrPullReopen) `The pull request cannot be reopened,
// because the base branch doesn't exist anymore.` (or head); a base that
// does not exist: forge.ErrNotFound `new base 'x' not exist`; a base equal
// to the head branch of the same repository (a Forgejo bug refused):
// forge.ErrInvalid; a pair that has an open pull request:
// forge.ErrConflict. Nothing is changed when a check fails.
func (s *Service) EditPull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt EditPullOption) (*PullView, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	var (
		is *Issue
		pr *PullRequest
	)
	if err := s.store.View(ctx, func(tx Tx) error {
		is, pr, err = a.pull(ctx, tx, index)
		return err
	}); err != nil {
		return nil, err
	}
	writer := a.canWrite(true)
	if !a.isPoster(is.PosterID) && !writer {
		return nil, notPoster()
	}
	if opt.State != nil && pr.HasMerged {
		return nil, forge.Reasonf(forge.ErrPrecondition, ErrPullMergedState, "cannot change state of this pull request, it was already merged")
	}
	if opt.AllowMaintainerEdit != nil {
		// Forgejo's SetAllowEdits: the poster, with write on the head
		// repository's code.
		headWriter := false
		if pr.HeadRepoID != 0 {
			if heads, err := s.accessByID(ctx, a, pr.HeadRepoID); err == nil {
				headWriter = heads.perm.CanWrite(forge.UnitCode)
			}
		}
		if !a.isPoster(is.PosterID) || !headWriter {
			return nil, forge.Errorf(forge.ErrForbidden, "SetAllowEdits: user has no permission for this action")
		}
	}
	reopen := opt.State != nil && *opt.State != StateClosed && is.IsClosed
	if reopen {
		if s.branchTip(ctx, a, pr.BaseBranch) == "" {
			return nil, forge.Reasonf(forge.ErrInvalid, ErrPullReopen, "The pull request cannot be reopened, because the base branch doesn't exist anymore.")
		}
		headOK := false
		if pr.HeadRepoID != 0 {
			if heads, err := s.accessByID(ctx, a, pr.HeadRepoID); err == nil {
				headOK = s.branchTip(ctx, heads, pr.HeadBranch) != ""
			}
		}
		if !headOK {
			return nil, forge.Reasonf(forge.ErrInvalid, ErrPullReopen, "The pull request cannot be reopened, because the head branch doesn't exist anymore.")
		}
		if err := s.store.View(ctx, func(tx Tx) error {
			if dup, err := existingPull(ctx, tx, pr.HeadRepoID, pr.BaseRepoID, pr.HeadBranch, pr.BaseBranch); err != nil {
				return err
			} else if dup != nil && dup.ID != pr.ID {
				return alreadyExists(dup)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	newBase := ""
	if writer && opt.Base != nil && *opt.Base != "" && *opt.Base != pr.BaseBranch && !pr.HasMerged {
		newBase = *opt.Base
		if s.branchTip(ctx, a, newBase) == "" {
			return nil, forge.Errorf(forge.ErrNotFound, "new base '%s' not exist", newBase)
		}
		if pr.HeadRepoID == pr.BaseRepoID && pr.HeadBranch == newBase {
			return nil, noChanges()
		}
		if is.IsClosed && !reopen {
			return nil, forge.Errorf(forge.ErrInvalid, "issue is closed [id: %d, repo_id: %d, index: %d]", is.ID, is.RepoID, is.Index)
		}
		if err := s.store.View(ctx, func(tx Tx) error {
			if dup, err := existingPull(ctx, tx, pr.HeadRepoID, pr.BaseRepoID, pr.HeadBranch, newBase); err != nil {
				return err
			} else if dup != nil && dup.ID != pr.ID {
				return alreadyExists(dup)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	eo := EditIssueOption{Body: opt.Body, State: opt.State, Deadline: opt.Deadline, UnsetDeadline: opt.UnsetDeadline}
	if opt.Title != nil && *opt.Title != "" {
		eo.Title = opt.Title
	}
	if writer {
		if opt.Assignees != nil || (opt.Assignee != nil && *opt.Assignee != "") {
			names := slices.Clone(opt.Assignees)
			if opt.Assignee != nil && *opt.Assignee != "" {
				names = append([]string{*opt.Assignee}, names...)
			}
			if names == nil {
				names = []string{}
			}
			eo.Assignees = names
		}
		if opt.Milestone != nil && *opt.Milestone != 0 {
			eo.Milestone = opt.Milestone
		}
	}
	if eo.Title != nil || eo.Body != nil || eo.State != nil || eo.Deadline != nil || eo.UnsetDeadline != nil ||
		eo.Assignees != nil || eo.Milestone != nil {
		if _, err := s.Edit(ctx, pullScopeActor(actor), owner, repo, index, eo); err != nil {
			return nil, err
		}
	}
	if writer && opt.Labels != nil {
		if _, err := s.ReplaceLabels(ctx, pullScopeActor(actor), owner, repo, index, LabelsOption{IDs: opt.Labels}); err != nil {
			return nil, err
		}
	}
	if newBase != "" {
		cur, err := s.changeTarget(ctx, actor, a.repo, pr, newBase, false)
		if err != nil {
			return nil, err
		}
		if err := s.resync(ctx, actor, a.repo, cur); err != nil && !errors.Is(err, forge.ErrNotFound) {
			return nil, err
		}
	}
	if opt.AllowMaintainerEdit != nil && *opt.AllowMaintainerEdit != pr.AllowMaintainerEdit {
		if err := s.store.Update(ctx, func(tx Tx) error {
			cur, err := tx.PullByIssueID(ctx, pr.IssueID)
			if err != nil {
				return err
			}
			cur.AllowMaintainerEdit = *opt.AllowMaintainerEdit
			return tx.UpdatePull(ctx, cur)
		}); err != nil {
			return nil, err
		}
	}
	if reopen {
		_ = s.resync(ctx, actor, a.repo, pr)
	}
	return s.pullView(ctx, a, index)
}

// pullScopeActor lets the issue edits of a pull-request edit pass the
// issue token scope: the pull routes are checked against the repository
// scope (openPulls), which the actor has, and are not checked again.
func pullScopeActor(actor forge.Actor) forge.Actor {
	actor.Scoped = false
	return actor
}

// IsPullMerged reports whether pull request index is merged
// (ErrPullNotFound if it is not a pull request).
func (s *Service) IsPullMerged(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (bool, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return false, err
	}
	var merged bool
	err = s.store.View(ctx, func(tx Tx) error {
		_, pr, err := a.pull(ctx, tx, index)
		if err == nil {
			merged = pr.HasMerged
		}
		return err
	})
	return merged, err
}

// CommitPull returns the pull request merged as commit sha.
// forge.ErrNotFound if none.
func (s *Service) CommitPull(ctx context.Context, actor forge.Actor, owner, repo, sha string) (*PullView, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var index int64
	err = s.store.View(ctx, func(tx Tx) error {
		list, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: a.repo.ID, MergedCommitID: sha})
		if err != nil {
			return err
		}
		if len(list) == 0 || sha == "" {
			return pullNotFound()
		}
		index = list[0].Index
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.pullView(ctx, a, index)
}

// ReviewerCandidates lists the users who may be asked to review pull
// requests of owner/repo (GET /reviewers): the repository's owner (a user)
// and its collaborators who may read pull requests, the actor too when
// one of them (Forgejo's GetReviewers leaves out only a pull request's
// poster, and the route names no pull request).
func (s *Service) ReviewerCandidates(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.User, error) {
	return s.candidates(ctx, actor, owner, repo, func(b *access) bool { return b.canRead(true) })
}

// AssigneeCandidates lists the users who may be assigned to issues and
// pull requests of owner/repo (GET /assignees): the owner (a user) and the
// collaborators who may write issues or pull requests.
func (s *Service) AssigneeCandidates(ctx context.Context, actor forge.Actor, owner, repo string) ([]*forge.User, error) {
	return s.candidates(ctx, actor, owner, repo, func(b *access) bool { return b.canWriteAny() })
}

func (s *Service) candidates(ctx context.Context, actor forge.Actor, owner, repo string, fit func(*access) bool) ([]*forge.User, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		a, err = s.open(ctx, actor, owner, repo, forge.AccessRead)
		if err != nil || !s.pullsEnabled() {
			return nil, err
		}
	}
	collabs, _, err := s.cfg.Pulls.Repos.ListCollaborators(ctx, actor, owner, repo, forge.ListOptions{Page: 1, Limit: -1})
	if err != nil && !errors.Is(err, forge.ErrForbidden) {
		return nil, err
	}
	var users []*forge.User
	if err := s.store.View(ctx, func(tx Tx) error {
		o, err := tx.UserByID(ctx, a.repo.OwnerID)
		if err == nil && !o.IsOrganization() {
			users = append(users, o)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	ids := []forge.ID{}
	for _, c := range collabs {
		ids = append(ids, c.User.ID)
	}
	if err := s.store.View(ctx, func(tx Tx) error {
		m, err := tx.UsersByID(ctx, ids)
		for _, id := range ids {
			if u := m[id]; u != nil {
				users = append(users, u)
			}
		}
		return err
	}); err != nil {
		return nil, err
	}
	out := []*forge.User{}
	for _, u := range users {
		if u == nil || slices.ContainsFunc(out, func(x *forge.User) bool { return x.ID == u.ID }) {
			continue
		}
		if u.IsActive && !u.ProhibitLogin && fit(s.userAccess(ctx, a, u)) {
			out = append(out, u.VisibleTo(actor))
		}
	}
	slices.SortFunc(out, func(x, y *forge.User) int { return strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name)) })
	return out, nil
}
