package issues

import (
	"context"
	"errors"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Ports are the issue service's trusted ports: what the outbox's
// consumers and the host call on its behalf after a change another domain
// authorised and recorded (a ref move, a commit status), with no check of
// their own. They are for the composition root (forge/site), which hands
// each to its consumer: Ports check nothing. Only NewWithPorts makes one.
type Ports struct{ s *Service }

// NewWithPorts is New, with the service's trusted ports (a value only it
// receives), for the composition root. New(cfg) is the service without
// them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// ChecksChanged runs the merges scheduled (MergeWhenChecksSucceed) for
// the open pull requests of repo whose head is sha, as Forgejo's
// automerge does when a commit status arrives: each is merged as the user
// who scheduled it, with the style, message and branch deletion they
// chose, once the base branch's protection no longer refuses it; a merge
// still refused stays scheduled. The wiring calls it after a commit status
// is created. It returns the indexes merged; errors other than refusals
// are joined.
func (p *Ports) ChecksChanged(ctx context.Context, repo *forge.Repository, sha string) ([]int64, error) {
	s := p.s
	if !s.pullsEnabled() || repo == nil || sha == "" {
		return nil, nil
	}
	type job struct {
		index int64
		m     *AutoMerge
		doer  *forge.User
	}
	var jobs []job
	err := s.store.View(ctx, func(tx Tx) error {
		open, err := tx.FindPulls(ctx, PullFilter{BaseRepoID: repo.ID, Open: true})
		if err != nil {
			return err
		}
		for _, pr := range open {
			if pr.HeadCommitID != sha {
				continue
			}
			m, err := tx.AutoMergeByPull(ctx, pr.ID)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			u, err := tx.UserByID(ctx, m.DoerID)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			jobs = append(jobs, job{pr.Index, m, u})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var (
		merged []int64
		errs   []error
	)
	for _, j := range jobs {
		del := j.m.DeleteBranchAfterMerge
		title, body := j.m.Message, ""
		actor := forge.Actor{User: j.doer, Method: forge.AuthPassword}
		_, err := s.MergePullDetailed(ctx, actor, repo.OwnerName, repo.Name, j.index,
			MergePullOption{Do: j.m.Style, MergeTitleField: title, MergeMessageField: body, DeleteBranchAfterMerge: &del})
		switch {
		case err == nil:
			merged = append(merged, j.index)
		case errors.Is(err, ErrMergeNotAllowed):
		default:
			errs = append(errs, err)
		}
	}
	return merged, errors.Join(errs...)
}

// AfterPush is what a ref move of repo means to pull requests (the
// push listener's work, run by the host after every ref move). For each
// moved branch: the open pull requests whose head it is are synchronised
// now, as actor (refs/pull/N/head, merge base, mergeability, a
// CommentPullPush, reviews marked stale and, with
// dismiss_stale_approvals, approvals dismissed when the move changed the
// pull request's content: StaleOnPush); those based on it are marked
// PullChecking and queued for the checker (Run) in one store write,
// whatever their number, with those whose synchronisation failed. For a
// deleted branch, the open pull requests whose head or base it was are
// closed, or retargeted (RetargetPlan). Its cost grows with the pull
// requests whose head moved, not with those based on the branch. It
// returns the errors of the writes that make the work durable (the queue's
// marker, the closings); an error of one synchronisation is left to the
// checker. Safe to call again for the same updates.
//
// The actor is the pusher the event names, whose push was authorised
// when it was made: it is not checked again.
func (p *Ports) AfterPush(ctx context.Context, actor forge.Actor, repo *forge.Repository, updates []repos.RefUpdate) error {
	return p.s.afterPush(ctx, actor, repo, updates)
}

// Participants returns the ids of the users who take part in issue
// issueID: its poster, the posters of its comments and its assignees,
// ascending, each once. It does no authorisation (notify asks it whom to
// tell of an event, and checks each user's permission itself).
// forge.ErrNotFound if there is no such issue.
func (p *Ports) Participants(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	var ids []forge.ID
	err := p.s.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueByID(ctx, issueID)
		if err != nil {
			return err
		}
		ids = append(ids, is.PosterID)
		comments, _, err := tx.ListComments(ctx, CommentFilter{IssueID: issueID, Types: []CommentType{CommentPlain}},
			forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, c := range comments {
			ids = append(ids, c.PosterID)
		}
		as, err := tx.Assignees(ctx, []forge.ID{issueID})
		if err != nil {
			return err
		}
		ids = append(ids, as[issueID]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return slices.Compact(slices.DeleteFunc(ids, func(id forge.ID) bool { return id == 0 })), nil
}
