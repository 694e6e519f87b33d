package issues

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// pullState is what git says of a pull request: its head, merge base,
// mergeability and diff summary.
type pullState struct {
	head, base, mergeBase string
	status                PullStatus
	conflicts, protected  []string
	ahead, behind         int
	additions, deletions  int
	changed               int
	rule                  *repos.BranchProtection
}

// gitState computes p's state: it synchronises refs/pull/N/head of the
// base repository from the head branch (unless the head repository is
// gone or its poster lost read access to it: headFetchable), reads the base branch's tip and test-merges. actor reads the
// branches (a's held resolution when it has one). forge.ErrNotFound when
// the base or head branch is gone.
func (s *Service) gitState(ctx context.Context, a *access, p *PullRequest) (*pullState, error) {
	base := a.repo
	g := s.cfg.Pulls.Git
	st := &pullState{head: p.HeadCommitID}
	fetch, err := s.headFetchable(ctx, base, p)
	if err != nil {
		return nil, err
	}
	if p.HeadRepoID != 0 && fetch {
		h, err := g.SyncHead(ctx, base.ID, p.HeadRepoID, p.HeadBranch, p.HeadRef())
		if err != nil {
			return nil, err
		}
		st.head = h
	}
	b, err := s.branchIn(ctx, a, p.BaseBranch)
	if err != nil {
		return nil, err
	}
	st.base, st.rule = b.Commit.ID, b.Rule
	mb, err := g.MergeBase(ctx, base.ID, st.base, st.head)
	if errors.Is(err, forge.ErrNotFound) {
		st.status = PullError
		return st, nil
	} else if err != nil {
		return nil, err
	}
	st.mergeBase = mb
	_, ahead, err := g.Compare(ctx, base.ID, st.base, st.head, repos.LogOptions{Limit: 1})
	if err != nil {
		return nil, err
	}
	_, behind, err := g.Compare(ctx, base.ID, st.head, st.base, repos.LogOptions{Limit: 1})
	if err != nil {
		return nil, err
	}
	st.ahead, st.behind = ahead, behind
	files, err := g.DiffFiles(ctx, base.ID, mb, st.head)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		st.additions += f.Additions
		st.deletions += f.Deletions
		names = append(names, f.Filename)
		if f.PreviousFilename != "" {
			names = append(names, f.PreviousFilename)
		}
	}
	st.changed = len(files)
	if st.rule != nil {
		st.protected = ProtectedFiles(st.rule.ProtectedFilePatterns, names)
	}
	check, err := g.TestMerge(ctx, base.ID, st.base, st.head)
	if err != nil {
		return nil, err
	}
	switch {
	case len(check.Conflicts) > 0:
		st.status, st.conflicts = PullConflict, check.Conflicts
	case len(files) == 0:
		st.status = PullEmpty
	default:
		st.status = PullMergeable
	}
	return st, nil
}

// apply writes st into p.
func (st *pullState) apply(p *PullRequest) {
	p.HeadCommitID = st.head
	if st.mergeBase != "" {
		p.MergeBase = st.mergeBase
	}
	p.Status, p.ConflictedFiles, p.ChangedProtectedFiles = st.status, st.conflicts, st.protected
	p.CommitsAhead, p.CommitsBehind = st.ahead, st.behind
	p.Additions, p.Deletions, p.ChangedFiles = st.additions, st.deletions, st.changed
}

// pushContent is the JSON Forgejo keeps in a pull_push comment.
type pushContent struct {
	IsForcePush bool     `json:"is_force_push"`
	CommitIDs   []string `json:"commit_ids"`
}

// resync is resyncAs with actor reading and writing.
func (s *Service) resync(ctx context.Context, actor forge.Actor, base *forge.Repository, p *PullRequest) error {
	_, err := s.resyncAs(ctx, actor, actor, base, p)
	return err
}

// errHeadRaced: the stored head moved while a resync computed its own
// move; the resync starts over.
var errHeadRaced = errors.New("pull request head moved meanwhile")

// resyncAs recomputes pull request p of base (reader reads its branches)
// after its head or base moved, records a push comment by actor and marks
// reviews stale (StaleOnPush) when the head moved since the stored one,
// and emits its events to the outbox. It returns the pull request as written. The
// status stays PullChecking while another check of it is queued; a head
// move already recorded by a concurrent resync is not recorded twice.
func (s *Service) resyncAs(ctx context.Context, reader, actor forge.Actor, base *forge.Repository, p *PullRequest) (*PullRequest, error) {
	for attempt := 0; ; attempt++ {
		cur, err := s.resyncOnce(ctx, reader, actor, base, p)
		if !errors.Is(err, errHeadRaced) || attempt == 3 {
			return cur, err
		}
		if err := s.store.View(ctx, func(tx Tx) error {
			p, err = tx.PullByIssueID(ctx, p.IssueID)
			return err
		}); err != nil {
			return nil, err
		}
	}
}

func (s *Service) resyncOnce(ctx context.Context, reader, actor forge.Actor, base *forge.Repository, p *PullRequest) (*PullRequest, error) {
	st, err := s.gitState(ctx, &access{actor: reader, repo: base}, p)
	if err != nil {
		return nil, err
	}
	oldHead := p.HeadCommitID
	var commits []string
	force := false
	contentChanged := true
	if st.head != oldHead && oldHead != "" {
		g := s.cfg.Pulls.Git
		// Forgejo's checkIfPRContentChanged against the base branch's
		// tip. An error counts as a change (Forgejo logs it and keeps the
		// reviews; Hearth prefers asking for approval again).
		if st.base != "" {
			if ch, err := g.ContentChanged(ctx, base.ID, st.base, oldHead, st.head); err == nil {
				contentChanged = ch
			} else {
				s.log.DebugContext(ctx, "pulls: content changed", "repo", base.ID, "pull", p.ID, "err", err)
			}
		}
		if ok, err := g.IsAncestor(ctx, base.ID, oldHead, st.head); err == nil && ok {
			list, _, err := g.Compare(ctx, base.ID, oldHead, st.head, repos.LogOptions{})
			if err != nil {
				return nil, err
			}
			for k := len(list) - 1; k >= 0; k-- {
				commits = append(commits, list[k].ID)
			}
		} else {
			force = true
			commits = []string{oldHead, st.head}
		}
	}
	now := s.clock.Now()
	var (
		is      *Issue
		cur     *PullRequest
		comment *Comment
	)
	err = s.update(ctx, func(tx Tx) error {
		comment = nil // a rerun transaction starts over
		var err error
		if cur, err = tx.PullByIssueID(ctx, p.IssueID); err != nil {
			return err
		}
		if is, err = tx.IssueByID(ctx, p.IssueID); err != nil {
			return err
		}
		moved := st.head != oldHead && oldHead != ""
		if cur.HeadCommitID != oldHead {
			if cur.HeadCommitID != st.head {
				return errHeadRaced
			}
			moved = false // recorded by another resync
		}
		if cur.HasMerged {
			return nil // merged meanwhile: its state is the merge's
		}
		st.apply(cur)
		if s.checks.queued(cur.IssueID) {
			cur.Status = PullChecking
		}
		if err := tx.UpdatePull(ctx, cur); err != nil {
			return err
		}
		if !moved {
			return nil
		}
		body, _ := json.Marshal(pushContent{IsForcePush: force, CommitIDs: commits})
		comment = &Comment{IssueID: is.ID, Type: CommentPullPush, PosterID: actor.UserID(), Content: string(body),
			Created: now, Updated: now}
		if err := tx.CreateComment(ctx, comment); err != nil {
			return err
		}
		rs, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID}, all)
		if err != nil {
			return err
		}
		for _, r := range StaleOnPush(st.rule, rs, st.head, contentChanged) {
			r.Updated = now
			if err := tx.UpdateReview(ctx, r); err != nil {
				return err
			}
		}
		is.Updated = now
		return tx.UpdateIssue(ctx, is)
	}, func(ctx context.Context, _ Tx) error {
		if comment != nil {
			s.emitPull(ctx, EventPullSync, actor, base, is, cur, comment, nil)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cur, nil
}

// emitPull emits a pull-request event (to the outbox, in the
// transaction of update).
func (s *Service) emitPull(ctx context.Context, kind EventKind, actor forge.Actor, repo *forge.Repository, is *Issue, p *PullRequest, c *Comment, r *Review) {
	if is == nil || repo == nil {
		return
	}
	ic := *is
	e := Event{Kind: kind, Actor: actor, Repo: repo, Issue: &ic}
	if p != nil {
		pc := *p
		e.Pull = &pc
	}
	if c != nil {
		cc := *c
		e.Comment = &cc
	}
	if r != nil {
		rc := *r
		e.Review = &rc
	}
	s.emit(ctx, e)
}

// afterPush is Ports.AfterPush (a merge calls it too, as its pusher).
func (s *Service) afterPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, updates []repos.RefUpdate) error {
	if !s.pullsEnabled() || repo == nil {
		return nil
	}
	var errs []error
	for _, u := range updates {
		branch, ok := strings.CutPrefix(u.Ref, "refs/heads/")
		if !ok {
			continue
		}
		var err error
		if strings.Trim(u.NewID, "0") == "" {
			err = s.branchGone(ctx, actor, repo, branch, nil, false)
		} else {
			err = s.branchMoved(ctx, actor, repo, branch)
		}
		if err != nil {
			s.log.DebugContext(ctx, "pulls: after push", "repo", repo.ID, "ref", u.Ref, "err", err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// branchMoved synchronises the open pull requests with head repo/branch
// and queues those based on it (AfterPush).
func (s *Service) branchMoved(ctx context.Context, actor forge.Actor, repo *forge.Repository, branch string) error {
	var heads []*PullRequest
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		heads, err = tx.FindPulls(ctx, PullFilter{HeadRepoID: repo.ID, HeadBranch: branch, Open: true})
		return err
	}); err != nil {
		return err
	}
	var failed []forge.ID
	for _, p := range heads {
		base := repo
		var err error
		if p.BaseRepoID != repo.ID {
			base, _, err = s.cfg.Pulls.Repos.RepoAccessByID(ctx, checkerActor, p.BaseRepoID)
		}
		if err == nil {
			_, err = s.resyncAs(ctx, checkerActor, actor, base, p)
		}
		if err != nil {
			s.log.DebugContext(ctx, "pulls: head moved", "pull", p.ID, "err", err)
			failed = append(failed, p.IssueID)
		}
	}
	filters := []PullFilter{{BaseRepoID: repo.ID, BaseBranch: branch}}
	if len(failed) > 0 {
		filters = append(filters, PullFilter{IssueIDs: failed})
	}
	return s.queueChecks(ctx, actor, filters...)
}

// detectManualMerge is Forgejo's autodetect_manual_merge: after a push
// to its base branch, an open pull request whose head the branch now
// contains is marked manually merged (by actor, the pusher, as the head
// commit); reader reads the branch.
func (s *Service) detectManualMerge(ctx context.Context, reader, actor forge.Actor, repo *forge.Repository, p *PullRequest) error {
	tip := s.branchTip(ctx, &access{actor: reader, repo: repo}, p.BaseBranch)
	if tip == "" || p.HeadCommitID == "" {
		return nil
	}
	if ok, err := s.cfg.Pulls.Git.IsAncestor(ctx, repo.ID, p.HeadCommitID, tip); err != nil || !ok {
		return err
	}
	now := s.clock.Now()
	var (
		is  *Issue
		cur *PullRequest
		c   *Comment
	)
	err := s.update(ctx, func(tx Tx) error {
		c = nil // a rerun transaction starts over
		var err error
		if cur, err = tx.PullByIssueID(ctx, p.IssueID); err != nil {
			return err
		}
		if cur.HasMerged {
			return nil
		}
		if is, err = tx.IssueByID(ctx, p.IssueID); err != nil {
			return err
		}
		if is.IsClosed {
			return nil
		}
		cur.HasMerged, cur.Merged, cur.MergedCommitID, cur.MergerID = true, now, cur.HeadCommitID, actor.UserID()
		cur.Status = PullManuallyMerged
		if err := tx.UpdatePull(ctx, cur); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		c = &Comment{Type: CommentMergePull, CommitSHA: cur.MergedCommitID, OldRef: cur.BaseBranch}
		if err := ch.comment(ctx, c); err != nil {
			return err
		}
		is.IsClosed, is.Closed = true, now
		return ch.commit(ctx)
	}, func(ctx context.Context, _ Tx) error {
		if c != nil {
			s.emitPull(ctx, EventPullMerge, actor, repo, is, cur, c, nil)
		}
		return nil
	})
	return err
}

// branchGone applies RetargetPlan after repo/branch was deleted: merged
// is the pull request whose merge deleted it (byMerge), nil for any
// other deletion. Retargeted pulls get a change_target_branch comment and
// are queued for the checker; closed ones a close comment.
func (s *Service) branchGone(ctx context.Context, actor forge.Actor, repo *forge.Repository, branch string, merged *PullRequest, byMerge bool) error {
	var open []*PullRequest
	err := s.store.View(ctx, func(tx Tx) error {
		heads, err := tx.FindPulls(ctx, PullFilter{HeadRepoID: repo.ID, HeadBranch: branch, Open: true})
		if err != nil {
			return err
		}
		bases, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: repo.ID, BaseBranch: branch, Open: true})
		open = append(heads, bases...)
		return err
	})
	if err != nil {
		return err
	}
	retarget, closing := RetargetPlan(repo.ID, branch, merged, byMerge, !s.cfg.Pulls.NoRetargetChildrenOnMerge, open)
	var errs []error
	var moved []forge.ID
	for _, p := range retarget {
		if cur, err := s.changeTarget(ctx, actor, repo, p, merged.BaseBranch, true); err != nil {
			errs = append(errs, err)
		} else if cur != nil {
			moved = append(moved, cur.IssueID)
		}
	}
	if len(moved) > 0 {
		// The retargeted pulls are checked by the checker.
		errs = append(errs, s.queueChecks(ctx, actor, PullFilter{IssueIDs: moved}))
	}
	seen := map[forge.ID]bool{}
	for _, p := range closing {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		if err := s.closePull(ctx, actor, repo, p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// closePull closes the issue of p with a close comment. repo is the
// repository the branch was deleted in: the event names the pull
// request's base repository (looked up when it is another one; the event
// is not told when the actor cannot see it).
func (s *Service) closePull(ctx context.Context, actor forge.Actor, repo *forge.Repository, p *PullRequest) error {
	now := s.clock.Now()
	var (
		is *Issue
		c  *Comment
	)
	base := repo
	if p.BaseRepoID != repo.ID {
		var err error
		if base, _, err = s.cfg.Pulls.Repos.RepoAccessByID(ctx, actor, p.BaseRepoID); err != nil {
			base = nil
		}
	}
	err := s.update(ctx, func(tx Tx) error {
		c = nil // a rerun transaction starts over
		var err error
		if is, err = tx.IssueByID(ctx, p.IssueID); err != nil {
			return err
		}
		if is.IsClosed {
			return nil
		}
		ch := newChange(tx, actor, is, now, now, false)
		is.IsClosed, is.Closed = true, now
		c = &Comment{Type: CommentClose}
		if err := ch.comment(ctx, c); err != nil {
			return err
		}
		return ch.commit(ctx)
	}, func(ctx context.Context, _ Tx) error {
		if c != nil && base != nil {
			s.emitPull(ctx, EventClose, actor, base, is, p, c, nil)
		}
		return nil
	})
	return err
}

// changeTarget moves p of base repo to newBase, skipping (silently, when
// skipDup) a pull request that would duplicate an open one, records a
// change_target_branch comment. It returns the pull request retargeted
// (nil when skipped); the caller recomputes its state (resync or the
// checker).
func (s *Service) changeTarget(ctx context.Context, actor forge.Actor, base *forge.Repository, p *PullRequest, newBase string, skipDup bool) (*PullRequest, error) {
	if p.HeadRepoID == p.BaseRepoID && p.HeadBranch == newBase {
		return nil, forge.Errorf(forge.ErrInvalid, "Invalid PullRequest: There are no changes between the head and the base")
	}
	now := s.clock.Now()
	var (
		is  *Issue
		cur *PullRequest
		c   *Comment
	)
	err := s.update(ctx, func(tx Tx) error {
		var err error
		if cur, err = tx.PullByIssueID(ctx, p.IssueID); err != nil {
			return err
		}
		if cur.HasMerged {
			return forge.Errorf(forge.ErrConflict, "pull request has been merged")
		}
		if dup, err := existingPull(ctx, tx, cur.HeadRepoID, base.ID, cur.HeadBranch, newBase); err != nil {
			return err
		} else if dup != nil && dup.ID != cur.ID {
			if skipDup {
				cur = nil
				return nil
			}
			return alreadyExists(dup)
		}
		if is, err = tx.IssueByID(ctx, cur.IssueID); err != nil {
			return err
		}
		old := cur.BaseBranch
		cur.BaseBranch = newBase
		if err := tx.UpdatePull(ctx, cur); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		c = &Comment{Type: CommentChangeTargetBranch, OldRef: old, NewRef: newBase}
		if err := ch.comment(ctx, c); err != nil {
			return err
		}
		return ch.commit(ctx)
	}, func(ctx context.Context, _ Tx) error {
		if cur != nil {
			s.emitPull(ctx, EventPullRetarget, actor, base, is, cur, c, nil)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cur, nil
}

// existingPull returns the open, unmerged pull request from head into
// base, nil if none.
func existingPull(ctx context.Context, tx Tx, headRepo, baseRepo forge.ID, headBranch, baseBranch string) (*PullRequest, error) {
	list, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: baseRepo, BaseBranch: baseBranch, HeadRepoID: headRepo,
		HeadBranch: headBranch, Open: true})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return list[0], nil
}

// alreadyExists is Forgejo's ErrPullRequestAlreadyExists (409).
func alreadyExists(p *PullRequest) error {
	return forge.Errorf(forge.ErrConflict, "pull request already exists for these targets [id: %d, issue_id: %d, head_repo_id: %d, base_repo_id: %d, head_branch: %s, base_branch: %s]",
		p.ID, p.Index, p.HeadRepoID, p.BaseRepoID, p.HeadBranch, p.BaseBranch)
}
