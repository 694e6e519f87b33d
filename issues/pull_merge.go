package issues

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// MergeOutcome is what MergePullDetailed did.
type MergeOutcome struct {
	// Scheduled: opt.MergeWhenChecksSucceed and the checks are pending, so
	// the merge was scheduled (Forgejo answers 201) instead of made.
	Scheduled bool
	// CommitID is the merged commit (the base branch's new tip, or the
	// commit given for a manual merge); "" when scheduled.
	CommitID string
}

// MergePull is MergePullDetailed without the outcome.
func (s *Service) MergePull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt MergePullOption) error {
	_, err := s.MergePullDetailed(ctx, actor, owner, repo, index, opt)
	return err
}

// canMerge is Forgejo's IsUserAllowedToMerge: write on the base's code
// without a rule or a rule without merge whitelist, else whitelisted
// (users by id; the whitelist's teams: Service.canMergeTeams).
func canMerge(a *access, rule *repos.BranchProtection) bool {
	if !a.actor.IsSignedIn() {
		return false
	}
	if rule == nil || !rule.EnableMergeWhitelist {
		return a.perm.CanWrite(forge.UnitCode)
	}
	return slices.Contains(rule.MergeWhitelistUserIDs, a.actor.User.ID)
}

// isOfficial is Forgejo's IsOfficialReviewer: whitelisted approvers when
// the rule has an approvals whitelist, else writers of the base's code.
func isOfficial(a *access, rule *repos.BranchProtection) bool {
	if rule != nil && rule.EnableApprovalsWhitelist {
		return a.actor.IsSignedIn() && slices.Contains(rule.ApprovalsWhitelistUserIDs, a.actor.User.ID)
	}
	return a.perm.CanWrite(forge.UnitCode)
}

// signature is the actor's git signature at now.
func (s *Service) signature(u *forge.User) repos.Signature {
	name := u.FullName
	if name == "" {
		name = u.Name
	}
	email := u.Email
	if email == "" || u.HideEmail {
		email = strings.ToLower(u.Name) + "@noreply.localhost"
	}
	return repos.Signature{Name: name, Email: email, When: s.clock.Now()}
}

// defaultMergeMessage is Forgejo's GetDefaultMergeMessage.
func defaultMergeMessage(style MergeStyle, base *forge.Repository, head *forge.Repository, is *Issue, p *PullRequest) string {
	headTarget := p.HeadBranch
	if !p.SameRepo() && head != nil {
		headTarget = head.FullName() + ":" + p.HeadBranch
	}
	switch style {
	case MergeStyleSquash:
		return fmt.Sprintf("%s (#%d)", is.Title, is.Index)
	case MergeStyleRebase, MergeStyleFastForwardOnly:
		return ""
	}
	return fmt.Sprintf("Merge pull request '%s' (#%d) from %s into %s", is.Title, is.Index, headTarget, p.BaseBranch)
}

// MergePullDetailed merges pull request index with opt.Do ("" is
// "merge"), as Forgejo's MergePullRequest (write:repository; the
// repository not archived). Refusals, in Forgejo's order: a closed pull
// request is ErrPullNotFound; ErrMergeNotAllowed (forge.ErrPrecondition,
// Forgejo's 405) with message "" when already merged, `User not allowed to
// merge PR` (needs write on the base's code, or the merge whitelist),
// `Please try again later` when not mergeable (conflicts, or its head
// branch moved since the pull request was last synchronised: the move's
// consequences — push comment, stale and dismissed approvals — must be
// recorded first, and the pull request is queued for the checker; the
// mergeability itself is recomputed here, so a stored PullChecking of a
// pull request whose head did not move does not refuse),
// `not allowed to merge [reason: …]` when the base branch's protection
// refuses (ProtectionRefusal; an admin's opt.ForceMerge passes), `X is not
// allowed an allowed merge style for this repository`; forge.ErrConflict
// `head out of date` when opt.HeadCommitID is not the head, `merge
// conflicts` (wrapping *MergeConflict) when git finds conflicts or the
// base moved meanwhile; forge.ErrConflict `Wrong commit ID` for a manual
// merge whose commit is not in the base branch. After the merge the pull
// request is closed as merged (a merge_pull comment), the base branch's
// push is told (PullPushNotifier) and, with delete_branch_after_merge,
// the head branch is deleted after the pulls based on it are retargeted
// (RetargetPlan): forge.ErrForbidden `the head branch is the default
// branch`, `the head branch is protected`, `insufficient permission to
// delete head branch`. The refs are moved by git last: a merge that fails
// leaves them untouched.
func (s *Service) MergePullDetailed(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt MergePullOption) (MergeOutcome, error) {
	var out MergeOutcome
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return out, err
	}
	if err := a.notArchived(); err != nil {
		return out, err
	}
	var (
		is *Issue
		pr *PullRequest
	)
	if err := s.store.View(ctx, func(tx Tx) error {
		// Forgejo's EnforceQuotaAPI(size:git:all) of the base repository's
		// owner runs before the handler looks at the pull request: a
		// *quota.ExceededError (413) and nothing moved.
		if err := quota.Check(ctx, tx, s.cfg.Quota, quota.RepoOwner(a.repo), quota.SubjectGitAll, quota.RepoBucket(a.repo.Private), 0); err != nil {
			return err
		}
		is, pr, err = a.pull(ctx, tx, index)
		return err
	}); err != nil {
		return out, err
	}
	style := opt.Do
	if style == "" {
		style = MergeStyleMerge
	}
	manual := style == MergeStyleManuallyMerged
	if pr.HasMerged {
		return out, mergeRefused("")
	}
	if is.IsClosed {
		return out, pullNotFound()
	}
	b, err := s.branchIn(ctx, a, pr.BaseBranch)
	if err != nil {
		return out, mergeRefused("Please try again later")
	}
	rule := b.Rule
	if !s.canMergeTeams(ctx, a, rule) {
		return out, mergeRefused("User not allowed to merge PR")
	}
	// A merge whose branch moved but whose "merged" rows could not be
	// written (the store failed every retry) left the pull request open
	// with its head in the base branch: as Forgejo's manuallyMerged check,
	// it is marked merged now, and the merge refused as for a merged pull
	// request. An empty pull request (its head in the base from the start)
	// is not.
	if !manual && pr.Status != PullEmpty && pr.HeadCommitID != "" {
		if ok, err := s.cfg.Pulls.Git.IsAncestor(ctx, a.repo.ID, pr.HeadCommitID, b.Commit.ID); err == nil && ok {
			if err := s.detectManualMerge(ctx, actor, actor, a.repo, pr); err != nil {
				return out, err
			}
			return out, mergeRefused("")
		}
	}
	var (
		head  *forge.Repository
		heads *access // the actor's access to the head repository, resolved once
	)
	if pr.HeadRepoID != 0 {
		if heads, err = s.accessByID(ctx, a, pr.HeadRepoID); err == nil {
			head = heads.repo
		}
	}
	st, err := s.gitState(ctx, a, pr)
	if err != nil && !manual {
		if errors.Is(err, forge.ErrNotFound) {
			return out, mergeRefused("Please try again later")
		}
		return out, err
	}
	if !manual && pr.HeadCommitID != "" && st.head != pr.HeadCommitID {
		// The head branch moved and what that means (a push comment,
		// stale and dismissed reviews) has not been recorded yet: the
		// reviews read now speak of another head. As Forgejo while a pull
		// request is checked, the merge waits; the pull request is queued
		// for the checker, which records the move if AfterPush does not.
		if err := s.queueChecks(ctx, forge.Actor{}, PullFilter{IssueIDs: []forge.ID{pr.IssueID}}); err != nil {
			return out, err
		}
		return out, mergeRefused("Please try again later")
	}
	if !manual && st.base != b.Commit.ID {
		// The base branch moved since it was read (another merge of
		// this pull request, or a push): nothing is merged on a base
		// whose state was not checked.
		return out, forge.Errorf(forge.ErrConflict, "branch %s has moved [expected: %s]", pr.BaseBranch, b.Commit.ID)
	}
	if !manual {
		if st.status != PullMergeable && st.status != PullEmpty {
			s.saveState(ctx, pr, st)
			return out, mergeRefused("Please try again later")
		}
		var reviews []*Review
		if err := s.store.View(ctx, func(tx Tx) error {
			reviews, _, err = tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID}, all)
			return err
		}); err != nil {
			return out, err
		}
		checks := MergeChecks{Rule: rule, Reviews: reviews, Behind: st.behind > 0, ProtectedFiles: st.protected,
			Head: st.head, ReviewedHead: pr.HeadCommitID}
		if rule != nil && rule.EnableStatusCheck {
			if _, state, statuses, err := a.held.CombinedStatus(ctx, st.head); err == nil {
				checks.StatusState, checks.Statuses = state, statuses
			}
		}
		if reason := ProtectionRefusal(checks); reason != "" && !(opt.ForceMerge && a.isAdmin()) {
			if opt.MergeWhenChecksSucceed && reason == "Not all required status checks successful" {
				return s.schedule(ctx, a, is, pr, style, opt)
			}
			return out, mergeRefused("not allowed to merge [reason: %s]", reason)
		}
	}
	if !StyleAllowed(a.repo, style) {
		return out, mergeRefused("%s is not allowed an allowed merge style for this repository", style)
	}
	now := s.clock.Now()
	var commitID string
	if manual {
		commitID = strings.TrimSpace(opt.MergeCommitID)
		tip := b.Commit.ID
		ok := false
		if commitID != "" {
			ok, _ = s.cfg.Pulls.Git.IsAncestor(ctx, a.repo.ID, commitID, tip)
		}
		if !ok {
			return out, forge.Errorf(forge.ErrConflict, "Wrong commit ID")
		}
	} else {
		if opt.HeadCommitID != "" && opt.HeadCommitID != st.head {
			return out, forge.Errorf(forge.ErrConflict, "head out of date")
		}
		msg := strings.TrimSpace(opt.MergeTitleField)
		if msg == "" {
			msg = defaultMergeMessage(style, a.repo, head, is, pr)
		}
		if body := strings.TrimSpace(opt.MergeMessageField); body != "" {
			msg += "\n\n" + body
		}
		doer := s.signature(actor.User)
		author := doer
		if style == MergeStyleSquash {
			var poster *forge.User
			_ = s.store.View(ctx, func(tx Tx) error {
				poster, _ = tx.UserByID(ctx, is.PosterID)
				return nil
			})
			if poster != nil {
				author = s.signature(poster)
			}
		}
		commitID, err = s.cfg.Pulls.Git.Merge(ctx, a.repo.ID, MergeCommand{Style: style, Branch: pr.BaseBranch, Base: st.base,
			Head: st.head, Message: msg, Author: author, Committer: doer})
		if err != nil {
			var mc *MergeConflict
			switch {
			case errors.As(err, &mc) || errors.Is(err, forge.ErrConflict):
				return out, forge.Errorf(forge.ErrConflict, "merge conflicts: %w", err)
			case errors.Is(err, forge.ErrInvalid):
				return out, forge.Errorf(forge.ErrConflict, "merge failed: %w", err)
			}
			return out, err
		}
	}
	// The branch has moved: marking the pull request merged is retried
	// (markMergedAttempts) so that a passing store failure does not leave
	// it open with its branch merged; what still fails is caught by the
	// check above on the next merge attempt.
	for attempt := 1; ; attempt++ {
		var mis *Issue
		var mpr *PullRequest
		mis, mpr, _, err = s.markMerged(ctx, actor, a.repo, is, pr, st, commitID, manual, now)
		if err == nil {
			is, pr = mis, mpr
			break
		}
		if attempt == markMergedAttempts {
			return out, err
		}
		s.log.DebugContext(ctx, "pulls: marking merged", "pull", pr.ID, "attempt", attempt, "err", err)
	}
	out.CommitID = commitID
	if !manual {
		s.notifyPush(ctx, a, []repos.RefUpdate{{Ref: "refs/heads/" + pr.BaseBranch, OldID: st.base, NewID: commitID}})
	}
	del := a.repo.DefaultDeleteBranchAfterMerge
	if opt.DeleteBranchAfterMerge != nil {
		del = *opt.DeleteBranchAfterMerge
	}
	if del && head != nil {
		return out, s.deleteHeadAfterMerge(ctx, heads, pr)
	}
	return out, nil
}

// markMergedAttempts is how many times a merge tries to mark its pull
// request merged after the branch moved.
const markMergedAttempts = 3

// markMerged records that pull request pr (issue is) was merged as
// commitID: the pull request row, its scheduled merge removed, a merge
// comment and the issue closed, in one transaction. It returns the
// updated issue, pull request and comment; the EventPullMerge of repo is
// emitted in the same transaction.
func (s *Service) markMerged(ctx context.Context, actor forge.Actor, repo *forge.Repository, is *Issue, pr *PullRequest, st *pullState, commitID string, manual bool, now time.Time) (*Issue, *PullRequest, *Comment, error) {
	var (
		comment *Comment
		outIs   *Issue
		outPr   *PullRequest
	)
	err := s.update(ctx, func(tx Tx) error {
		cur, err := tx.PullByIssueID(ctx, pr.IssueID)
		if err != nil {
			return err
		}
		if st != nil {
			st.apply(cur)
		}
		cur.HasMerged, cur.Merged, cur.MergedCommitID, cur.MergerID = true, now, commitID, actor.UserID()
		if manual {
			cur.Status = PullManuallyMerged
		} else {
			cur.Status = PullMergeable
		}
		if err := tx.UpdatePull(ctx, cur); err != nil {
			return err
		}
		if _, err := tx.AutoMergeByPull(ctx, cur.ID); err == nil {
			if err := tx.DeleteAutoMerge(ctx, cur.ID); err != nil {
				return err
			}
		}
		cis, err := tx.IssueByID(ctx, is.ID)
		if err != nil {
			return err
		}
		ch := newChange(tx, actor, cis, now, now, false)
		comment = &Comment{Type: CommentMergePull, CommitSHA: commitID, OldRef: cur.BaseBranch}
		if err := ch.comment(ctx, comment); err != nil {
			return err
		}
		cis.IsClosed, cis.Closed = true, now
		if err := ch.commit(ctx); err != nil {
			return err
		}
		outIs, outPr = cis, cur
		return nil
	}, func(ctx context.Context, _ Tx) error {
		s.emitPull(ctx, EventPullMerge, actor, repo, outIs, outPr, comment, nil)
		return nil
	})
	return outIs, outPr, comment, err
}

// saveState writes a recomputed state of p (its status stays
// PullChecking while a check of it is queued).
func (s *Service) saveState(ctx context.Context, p *PullRequest, st *pullState) {
	_ = s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.PullByIssueID(ctx, p.IssueID)
		if err != nil || cur.HasMerged {
			return err
		}
		st.apply(cur)
		if s.checks.queued(cur.IssueID) {
			cur.Status = PullChecking
		}
		return tx.UpdatePull(ctx, cur)
	})
}

// PullPushNotifier is optional on Config.Pulls.Repos (*repos.Service has
// it): it tells the repository's push listeners (webhooks, other pull
// requests) of the refs a merge moved.
type PullPushNotifier interface {
	AfterPush(ctx context.Context, actor forge.Actor, repo forge.ID, updates []repos.RefUpdate) error
}

// notifyPush records the refs a merge or an update moved in a's
// repository as a push by a's actor. With a's held resolution (a
// workflow's), the ref moves are recorded through it (repos.Resolved.AfterPush: AfterPush's rule without
// resolving the access again).
func (s *Service) notifyPush(ctx context.Context, a *access, updates []repos.RefUpdate) {
	actor, repo := a.actor, a.repo
	if a.held != nil {
		if err := a.held.AfterPush(ctx, updates); err != nil {
			s.log.DebugContext(ctx, "pulls: telling of a merge push", "repo", repo.ID, "err", err)
		}
		return
	}
	if n, ok := s.cfg.Pulls.Repos.(PullPushNotifier); ok {
		if err := n.AfterPush(ctx, actor, repo.ID, updates); err != nil {
			s.log.DebugContext(ctx, "pulls: telling of a merge push", "repo", repo.ID, "err", err)
		}
		return
	}
	if err := s.afterPush(ctx, actor, repo, updates); err != nil {
		s.log.DebugContext(ctx, "pulls: after a merge push", "repo", repo.ID, "err", err)
	}
}

// deleteHeadAfterMerge is Forgejo's DeleteBranchAfterMerge: refused for
// the head repository's default branch, a protected branch or an actor
// who may not write its code; skipped while other open pull requests use
// the branch as head. Pull requests based on it are retargeted or closed
// (RetargetPlan) before the branch is deleted. heads is the actor's access
// to the head repository, resolved once by the merge (accessByID: it
// holds its resolution).
func (s *Service) deleteHeadAfterMerge(ctx context.Context, heads *access, merged *PullRequest) error {
	actor, head := heads.actor, heads.repo
	if merged.HeadBranch == head.DefaultBranch {
		return forge.Errorf(forge.ErrForbidden, "the head branch is the default branch")
	}
	if !heads.perm.CanWrite(forge.UnitCode) {
		return forge.Errorf(forge.ErrForbidden, "insufficient permission to delete head branch")
	}
	b, err := s.branchIn(ctx, heads, merged.HeadBranch)
	if errors.Is(err, forge.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if b.Protected {
		return forge.Errorf(forge.ErrForbidden, "the head branch is protected")
	}
	var others []*PullRequest
	if err := s.store.View(ctx, func(tx Tx) error {
		others, err = tx.FindPulls(ctx, PullFilter{HeadRepoID: head.ID, HeadBranch: merged.HeadBranch, Open: true})
		return err
	}); err != nil {
		return err
	}
	others = slices.DeleteFunc(others, func(p *PullRequest) bool { return p.ID == merged.ID })
	if len(others) > 0 {
		return nil
	}
	if err := s.branchGone(ctx, actor, head, merged.HeadBranch, merged, true); err != nil {
		return err
	}
	// The protection rules are read again at the deletion.
	err = heads.held.DeleteBranch(ctx, merged.HeadBranch)
	if errors.Is(err, forge.ErrForbidden) {
		return forge.Errorf(forge.ErrForbidden, "the head branch is protected")
	}
	if err != nil {
		return err
	}
	// DeleteBranch recorded the deletion (repos' recordRefMoves).
	// Forgejo's AddDeletePRBranchComment on the merged pull request.
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, err := tx.IssueByID(ctx, merged.IssueID)
		if err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		if err := ch.comment(ctx, &Comment{Type: CommentDeleteBranch, OldRef: merged.HeadBranch}); err != nil {
			return err
		}
		return ch.commit(ctx)
	})
}

// schedule records a merge to make when the checks succeed.
func (s *Service) schedule(ctx context.Context, a *access, is *Issue, pr *PullRequest, style MergeStyle, opt MergePullOption) (MergeOutcome, error) {
	now := s.clock.Now()
	msg := strings.TrimSpace(opt.MergeTitleField)
	if body := strings.TrimSpace(opt.MergeMessageField); body != "" {
		msg += "\n\n" + body
	}
	del := a.repo.DefaultDeleteBranchAfterMerge
	if opt.DeleteBranchAfterMerge != nil {
		del = *opt.DeleteBranchAfterMerge
	}
	err := s.store.Update(ctx, func(tx Tx) error {
		m := &AutoMerge{PullID: pr.ID, DoerID: a.actor.UserID(), Style: style, Message: msg, DeleteBranchAfterMerge: del, Created: now}
		if err := tx.CreateAutoMerge(ctx, m); errors.Is(err, forge.ErrConflict) {
			return forge.Errorf(forge.ErrConflict, "pull request is already scheduled to auto merge when checks succeed [pull_id: %d]", pr.ID)
		} else if err != nil {
			return err
		}
		cis, err := tx.IssueByID(ctx, is.ID)
		if err != nil {
			return err
		}
		ch := newChange(tx, a.actor, cis, now, now, false)
		if err := ch.comment(ctx, &Comment{Type: CommentPullScheduledMerge}); err != nil {
			return err
		}
		return ch.commit(ctx)
	})
	return MergeOutcome{Scheduled: err == nil}, err
}

// CancelScheduledMerge cancels the merge scheduled for pull request index
// (its scheduler or a writer of the base's code: forge.ErrForbidden
// otherwise). forge.ErrNotFound if none is scheduled.
func (s *Service) CancelScheduledMerge(ctx context.Context, actor forge.Actor, owner, repo string, index int64) error {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Update(ctx, func(tx Tx) error {
		is, pr, err := a.pull(ctx, tx, index)
		if err != nil {
			return err
		}
		m, err := tx.AutoMergeByPull(ctx, pr.ID)
		if err != nil {
			return err
		}
		if m.DoerID != actor.UserID() && !a.perm.CanWrite(forge.UnitCode) {
			return forge.Errorf(forge.ErrForbidden, "user has no permission to cancel the scheduled auto merge")
		}
		if err := tx.DeleteAutoMerge(ctx, pr.ID); err != nil {
			return err
		}
		ch := newChange(tx, actor, is, now, now, false)
		if err := ch.comment(ctx, &Comment{Type: CommentPullCancelScheduledMerge}); err != nil {
			return err
		}
		return ch.commit(ctx)
	})
}

// UpdatePull brings the head of pull request index up to date with its
// base by a merge (UpdateStyleMerge, `Merge branch 'base' into head`) or a
// rebase (Forgejo's IsUserAllowedToUpdate: who may push to the head
// branch — writers of the head repository, or the base's writers when the
// poster allows maintainer edits; rebase also needs the head branch
// unprotected). A merged or closed pull request is forge.ErrInvalid;
// forge.ErrForbidden when not allowed; forge.ErrConflict `merge failed
// because of conflict` / `rebase failed because of conflict`;
// *quota.ExceededError (413) when the base repository's owner is over its
// size:git:all quota, before anything else is read.
func (s *Service) UpdatePull(ctx context.Context, actor forge.Actor, owner, repo string, index int64, style UpdateStyle) error {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	var (
		is *Issue
		pr *PullRequest
	)
	if err := s.store.View(ctx, func(tx Tx) error {
		// Forgejo's EnforceQuotaAPI(size:git:all, QuotaTargetRepo) on the
		// route (quota.md §7.1): the base repository's owner, checked
		// before the pull request is looked at; *quota.ExceededError.
		if err := quota.Check(ctx, tx, s.cfg.Quota, quota.RepoOwner(a.repo), quota.SubjectGitAll, quota.RepoBucket(a.repo.Private), 0); err != nil {
			return err
		}
		is, pr, err = a.pull(ctx, tx, index)
		return err
	}); err != nil {
		return err
	}
	if pr.HasMerged || is.IsClosed {
		return forge.Errorf(forge.ErrInvalid, "")
	}
	if pr.HeadRepoID == 0 {
		return forge.Errorf(forge.ErrForbidden, "")
	}
	heads, err := s.accessByID(ctx, a, pr.HeadRepoID)
	if err != nil {
		return forge.Errorf(forge.ErrForbidden, "")
	}
	head, hperm := heads.repo, heads.perm
	hb, err := s.branchIn(ctx, heads, pr.HeadBranch)
	if err != nil {
		return err
	}
	allowed := hperm.CanWrite(forge.UnitCode) && (hb.CanPush || !hb.Protected)
	// A maintainer of the base who may not write the head repository
	// updates it when the poster allows maintainer edits; the ref move is
	// then recorded through the host's RefMoves (the head repository's
	// rules cannot authorise it).
	maintainer := false
	if !allowed && pr.AllowMaintainerEdit && a.perm.CanWrite(forge.UnitCode) && s.cfg.Pulls.RefMoves != nil {
		allowed, maintainer = true, !hperm.CanWrite(forge.UnitCode)
	}
	rebase := style == UpdateStyleRebase
	if !allowed || (rebase && hb.Protected) {
		return forge.Errorf(forge.ErrForbidden, "")
	}
	st, err := s.gitState(ctx, a, pr)
	if err != nil {
		return err
	}
	if st.behind == 0 {
		return nil
	}
	doer := s.signature(actor.User)
	cmd := MergeCommand{Style: MergeStyleMerge, Branch: pr.HeadBranch, Base: hb.Commit.ID, Head: st.base,
		Message: fmt.Sprintf("Merge branch '%s' into %s", pr.BaseBranch, pr.HeadBranch), Author: doer, Committer: doer}
	if head.ID != a.repo.ID {
		cmd.Source = a.repo.ID // the base branch's commits come from the base repository
	}
	if rebase {
		cmd.Style, cmd.Base, cmd.Head, cmd.Message = MergeStyleRebaseUpdate, st.base, hb.Commit.ID, ""
	}
	newTip, err := s.cfg.Pulls.Git.Merge(ctx, head.ID, cmd)
	if err != nil {
		if errors.Is(err, forge.ErrConflict) {
			if rebase {
				return forge.Errorf(forge.ErrConflict, "rebase failed because of conflict")
			}
			return forge.Errorf(forge.ErrConflict, "merge failed because of conflict")
		}
		return err
	}
	moved := []repos.RefUpdate{{Ref: "refs/heads/" + pr.HeadBranch, OldID: hb.Commit.ID, NewID: newTip}}
	if maintainer {
		if err := s.cfg.Pulls.RefMoves.RecordRefMoves(ctx, actor, head.ID, moved); err != nil {
			s.log.WarnContext(ctx, "pulls: recording a maintainer's update", "repo", head.ID, "err", err)
		}
		return nil
	}
	s.notifyPush(ctx, heads, moved)
	return nil
}
