package hooks

import (
	"context"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// PullInfo is what the pull_request payloads show of a pull request
// besides its issue (the wiring fills it from the issues domain's
// PullRequest, which hooks does not import).
type PullInfo struct {
	ID                     int64
	BaseBranch, HeadBranch string
	HeadCommitID           string
	BaseCommitID           string
	MergeBase              string
	// HeadRepo is the head repository, nil when it is gone or unknown
	// (head.repo is then null and head.repo_id 0).
	HeadRepo            *forge.Repository
	Mergeable           bool
	Merged              bool
	MergedAt            time.Time
	MergedCommitID      string
	MergerID            forge.ID
	AllowMaintainerEdit bool
	Additions           int
	Deletions           int
	ChangedFiles        int
	Flow                int
}

// ReviewInfo is the review of a pull_request_review_* event.
type ReviewInfo struct {
	// Kind is ReviewApproved, ReviewRejected or ReviewComment.
	Kind    string
	Content string
}

// Review event types (Forgejo's HookEventType of a submitted review).
const (
	ReviewApproved = "pull_request_review_approved"
	ReviewRejected = "pull_request_review_rejected"
	ReviewComment  = "pull_request_review_comment"
)

// reviewEventName is the X-Forgejo-Event header of a review event type
// (Forgejo's HookEventType.Event).
var reviewEventName = map[string]string{
	ReviewApproved: "pull_request_approved",
	ReviewRejected: "pull_request_rejected",
	ReviewComment:  "pull_request_comment",
}

// Pull request actions besides the issue ones (Forgejo's HookIssueAction).
const (
	ActionSynchronized         = "synchronized"
	ActionReviewed             = "reviewed"
	ActionReviewRequested      = "review_requested"
	ActionReviewRequestRemoved = "review_request_removed"
)

// PayloadBranch is the head or base of a payload pull request (Forgejo's
// api.PRBranchInfo).
type PayloadBranch struct {
	Name   string       `json:"label"`
	Ref    string       `json:"ref"`
	SHA    string       `json:"sha"`
	RepoID int64        `json:"repo_id"`
	Repo   *PayloadRepo `json:"repo"`
}

// PayloadPull is the pull request object of payloads (a subset of
// Forgejo's api.PullRequest with the same field names).
type PayloadPull struct {
	ID                  int64          `json:"id"`
	URL                 string         `json:"url"`
	Number              int64          `json:"number"`
	User                *PayloadUser   `json:"user"`
	Title               string         `json:"title"`
	Body                string         `json:"body"`
	Labels              []any          `json:"labels"`
	Assignees           []any          `json:"assignees"`
	RequestedReviewers  []any          `json:"requested_reviewers"`
	RequestedTeams      []any          `json:"requested_reviewers_teams"`
	Assignee            *PayloadUser   `json:"assignee"`
	Milestone           any            `json:"milestone"`
	Draft               bool           `json:"draft"`
	State               string         `json:"state"`
	IsLocked            bool           `json:"is_locked"`
	Comments            int            `json:"comments"`
	Additions           int            `json:"additions"`
	Deletions           int            `json:"deletions"`
	ChangedFiles        int            `json:"changed_files"`
	HTMLURL             string         `json:"html_url"`
	DiffURL             string         `json:"diff_url"`
	PatchURL            string         `json:"patch_url"`
	Mergeable           bool           `json:"mergeable"`
	Merged              bool           `json:"merged"`
	MergedAt            *time.Time     `json:"merged_at"`
	MergeCommitSHA      *string        `json:"merge_commit_sha"`
	MergedBy            *PayloadUser   `json:"merged_by"`
	AllowMaintainerEdit bool           `json:"allow_maintainer_edit"`
	Base                *PayloadBranch `json:"base"`
	Head                *PayloadBranch `json:"head"`
	MergeBase           string         `json:"merge_base"`
	Created             time.Time      `json:"created_at"`
	Updated             time.Time      `json:"updated_at"`
	Closed              *time.Time     `json:"closed_at"`
	Flow                int            `json:"flow"`
}

// PayloadReview is the review of a review event (Forgejo's
// api.ReviewPayload).
type PayloadReview struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// PullRequestPayload is Forgejo's pull_request event (and its review
// events).
type PullRequestPayload struct {
	Action      string       `json:"action"`
	Number      int64        `json:"number"`
	PullRequest *PayloadPull `json:"pull_request"`
	// RequestedReviewer is the reviewer of review_requested and
	// review_request_removed, null otherwise.
	RequestedReviewer *PayloadUser   `json:"requested_reviewer"`
	Repository        *PayloadRepo   `json:"repository"`
	Sender            *PayloadUser   `json:"sender"`
	CommitID          string         `json:"commit_id"`
	Review            *PayloadReview `json:"review"`
}

// payloadPull builds the pull request object; us are the base owner, the
// poster, the head owner and the merger (nil when unknown).
func (s *Service) payloadPull(repo *forge.Repository, is IssueInfo, pr PullInfo, us []*forge.User) *PayloadPull {
	pi := s.payloadIssue(repo, is, us[1])
	p := &PayloadPull{ID: pr.ID, URL: pi.HTMLURL, Number: is.Number, User: pi.User, Title: is.Title, Body: is.Body,
		Labels: []any{}, Assignees: []any{}, RequestedReviewers: []any{}, RequestedTeams: []any{}, State: pi.State, Comments: is.Comments,
		Additions: pr.Additions, Deletions: pr.Deletions, ChangedFiles: pr.ChangedFiles,
		HTMLURL: pi.HTMLURL, DiffURL: pi.HTMLURL + ".diff", PatchURL: pi.HTMLURL + ".patch",
		Mergeable: pr.Mergeable, Merged: pr.Merged, AllowMaintainerEdit: pr.AllowMaintainerEdit,
		MergeBase: pr.MergeBase, Created: is.Created, Updated: is.Updated, Closed: pi.Closed, Flow: pr.Flow}
	base := s.payloadRepo(repo, us[0])
	p.Base = &PayloadBranch{Name: pr.BaseBranch, Ref: pr.BaseBranch, SHA: pr.BaseCommitID, RepoID: int64(repo.ID), Repo: base}
	p.Head = &PayloadBranch{Name: pr.HeadBranch, Ref: pr.HeadBranch, SHA: pr.HeadCommitID}
	if h := pr.HeadRepo; h != nil {
		p.Head.RepoID = int64(h.ID)
		if h.ID == repo.ID {
			p.Head.Repo = base
		} else {
			p.Head.Repo = s.payloadRepo(h, us[2])
		}
	} else {
		// Forgejo: a deleted head repository shows the pull ref.
		p.Head.Ref = "refs/pull/" + strconv.FormatInt(is.Number, 10) + "/head"
		p.Head.Name = p.Head.Ref
	}
	if pr.Merged {
		if !pr.MergedAt.IsZero() {
			t := pr.MergedAt
			p.MergedAt = &t
		}
		sha := pr.MergedCommitID
		p.MergeCommitSHA = &sha
		p.MergedBy = s.payloadUser(us[3])
	}
	return p
}

// PullChanged queues the pull_request event of a pull request (word
// pull_request_only, or pull_request_sync for ActionSynchronized) with
// action (ActionOpened, ActionClosed (merged or not: pull_request.merged
// tells), ActionReopened, ActionEdited, ActionSynchronized). commitID is
// the payload's commit_id (the merge commit of a merge, "" otherwise).
func (s *Service) PullChanged(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, pr PullInfo, action string) error {
	word, typ := "pull_request_only", "pull_request"
	if action == ActionSynchronized {
		word, typ = "pull_request_sync", "pull_request_sync"
	}
	p := s.pullPayload(ctx, actor, repo, is, pr, action)
	if pr.Merged && action == ActionClosed {
		p.CommitID = pr.MergedCommitID
	}
	return s.Enqueue(ctx, Event{Word: word, Name: "pull_request", Type: typ, Repo: repo, Payload: p})
}

// PullReviewed queues the review event of a submitted review (word
// pull_request_review; X-Forgejo-Event pull_request_approved,
// pull_request_rejected or pull_request_comment and X-Forgejo-Event-Type
// rv.Kind, as Forgejo). forge.ErrInvalid for another rv.Kind.
func (s *Service) PullReviewed(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, pr PullInfo, rv ReviewInfo) error {
	name, ok := reviewEventName[rv.Kind]
	if !ok {
		return forge.Errorf(forge.ErrInvalid, "hooks: review event: %q", rv.Kind)
	}
	p := s.pullPayload(ctx, actor, repo, is, pr, ActionReviewed)
	p.Review = &PayloadReview{Type: rv.Kind, Content: rv.Content}
	return s.Enqueue(ctx, Event{Word: "pull_request_review", Name: name, Type: rv.Kind, Repo: repo, Payload: p})
}

// PullReviewRequested queues the pull_request event of a review requested
// from the user reviewer (action ActionReviewRequested), or of its request
// removed (ActionReviewRequestRemoved): word pull_request_review_request,
// X-Forgejo-Event pull_request and X-Forgejo-Event-Type
// pull_request_review_request, the reviewer in requested_reviewer, as
// Forgejo's notifier PullRequestReviewRequest.
func (s *Service) PullReviewRequested(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, pr PullInfo, reviewer forge.ID, removed bool) error {
	action := ActionReviewRequested
	if removed {
		action = ActionReviewRequestRemoved
	}
	p := s.pullPayload(ctx, actor, repo, is, pr, action)
	p.RequestedReviewer = s.payloadUser(s.users(ctx, reviewer)[0])
	return s.Enqueue(ctx, Event{Word: "pull_request_review_request", Name: "pull_request", Type: "pull_request_review_request",
		Repo: repo, Payload: p})
}

func (s *Service) pullPayload(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, pr PullInfo, action string) PullRequestPayload {
	var headOwner forge.ID
	if pr.HeadRepo != nil {
		headOwner = pr.HeadRepo.OwnerID
	}
	us := s.users(ctx, repo.OwnerID, is.PosterID, headOwner, pr.MergerID)
	return PullRequestPayload{Action: action, Number: is.Number, PullRequest: s.payloadPull(repo, is, pr, us),
		Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User)}
}
