package hooks

import (
	"context"
	"strconv"

	"github.com/hearthforge/hearth/forge"
)

// Issue actions of the edit events (Forgejo's HookIssueAction values).
const (
	ActionAssigned     = "assigned"
	ActionUnassigned   = "unassigned"
	ActionLabelUpdated = "label_updated"
	ActionLabelCleared = "label_cleared"
	ActionMilestoned   = "milestoned"
	ActionDemilestoned = "demilestoned"
	ActionDeleted      = "deleted" // a comment
)

// IssueEventWord is the event word a hook subscribes to, and the
// X-Forgejo-Event and X-Forgejo-Event-Type headers, of an issues (isPull
// false) or pull_request event with action, as Forgejo's notifier files
// them: assignments under issue_assign, labels under issue_label,
// milestones under issue_milestone (pull_request_* for pull requests),
// everything else under issues_only (pull_request_only), whose event type
// is "issues" ("pull_request").
func IssueEventWord(action string, isPull bool) (word, name, typ string) {
	kind, name := "issue", "issues"
	if isPull {
		kind, name = "pull_request", "pull_request"
	}
	switch action {
	case ActionAssigned, ActionUnassigned:
		word = kind + "_assign"
	case ActionLabelUpdated, ActionLabelCleared:
		word = kind + "_label"
	case ActionMilestoned, ActionDemilestoned:
		word = kind + "_milestone"
	default:
		return name + "_only", name, name
	}
	return word, name, word
}

// ChangeFrom is a field's value before an edit.
type ChangeFrom struct {
	From string `json:"from"`
}

// Changes is Forgejo's ChangesPayload: what an edit changed (the fields
// not changed are left out).
type Changes struct {
	Title *ChangeFrom `json:"title,omitempty"`
	Body  *ChangeFrom `json:"body,omitempty"`
}

// PayloadLabel is the label object of payloads (a subset of Forgejo's
// api.Label).
type PayloadLabel struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// PayloadMilestone is the milestone object of payloads (a subset of
// Forgejo's api.Milestone).
type PayloadMilestone struct {
	ID           int64  `json:"id"`
	Title        string `json:"title"`
	Description  string `json:"description"`
	State        string `json:"state"`
	OpenIssues   int    `json:"open_issues"`
	ClosedIssues int    `json:"closed_issues"`
}

// IssueDetail is the state of an issue the edit events show: its
// assignees, labels and milestone after the change.
type IssueDetail struct {
	Assignees []forge.ID
	Labels    []*PayloadLabel
	Milestone *PayloadMilestone
}

// detailIssue is the issue object with the milestone and the first
// assignee Forgejo's api.Issue also has.
type detailIssue struct {
	*PayloadIssue
	Milestone *PayloadMilestone `json:"milestone"`
	Assignee  *PayloadUser      `json:"assignee"`
}

// IssueEditPayload is Forgejo's issues event of an edit (with changes).
type IssueEditPayload struct {
	Action     string       `json:"action"`
	Number     int64        `json:"number"`
	Changes    *Changes     `json:"changes,omitempty"`
	Issue      *detailIssue `json:"issue"`
	Repository *PayloadRepo `json:"repository"`
	Sender     *PayloadUser `json:"sender"`
	CommitID   string       `json:"commit_id"`
}

// PullEditPayload is Forgejo's pull_request event of an edit.
type PullEditPayload struct {
	PullRequestPayload
	Changes *Changes `json:"changes,omitempty"`
}

// assignees loads the assignee objects of d.
func (s *Service) assignees(ctx context.Context, d IssueDetail) []any {
	out := []any{}
	for _, u := range s.users(ctx, d.Assignees...) {
		if u != nil {
			out = append(out, s.payloadUser(u))
		}
	}
	return out
}

func labelsAny(d IssueDetail) []any {
	out := make([]any, 0, len(d.Labels))
	for _, l := range d.Labels {
		out = append(out, l)
	}
	return out
}

// IssueEdited queues the issues event of an edit of an issue (not a pull
// request): action is ActionEdited (with changes), ActionAssigned,
// ActionUnassigned, ActionLabelUpdated, ActionLabelCleared,
// ActionMilestoned or ActionDemilestoned; the hooks receiving it are
// those subscribed to IssueEventWord(action, false).
func (s *Service) IssueEdited(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, d IssueDetail, action string, ch *Changes) error {
	us := s.users(ctx, repo.OwnerID, is.PosterID)
	pi := s.payloadIssue(repo, is, us[1])
	pi.Assignees, pi.Labels = s.assignees(ctx, d), labelsAny(d)
	di := &detailIssue{PayloadIssue: pi, Milestone: d.Milestone}
	if len(pi.Assignees) > 0 {
		di.Assignee = pi.Assignees[0].(*PayloadUser)
	}
	word, name, typ := IssueEventWord(action, false)
	return s.Enqueue(ctx, Event{Word: word, Name: name, Type: typ, Repo: repo, Payload: IssueEditPayload{Action: action,
		Number: is.Number, Changes: ch, Issue: di, Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User)}})
}

// PullEdited is IssueEdited for a pull request (the pull_request event).
func (s *Service) PullEdited(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, pr PullInfo, d IssueDetail, action string, ch *Changes) error {
	p := s.pullPayload(ctx, actor, repo, is, pr, action)
	p.PullRequest.Assignees, p.PullRequest.Labels = s.assignees(ctx, d), labelsAny(d)
	if len(p.PullRequest.Assignees) > 0 {
		p.PullRequest.Assignee = p.PullRequest.Assignees[0].(*PayloadUser)
	}
	if d.Milestone != nil {
		p.PullRequest.Milestone = d.Milestone
	}
	word, name, typ := IssueEventWord(action, true)
	return s.Enqueue(ctx, Event{Word: word, Name: name, Type: typ, Repo: repo, Payload: PullEditPayload{PullRequestPayload: p, Changes: ch}})
}

// CommentChanged queues the issue_comment event (pull_request_comment for
// pull requests) of a comment edited (ActionEdited, with changes.body.from)
// or deleted (ActionDeleted).
func (s *Service) CommentChanged(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, c CommentInfo, action string, ch *Changes) error {
	us := s.users(ctx, repo.OwnerID, is.PosterID, c.PosterID)
	word := "issue_comment"
	if is.IsPull {
		word = "pull_request_comment"
	}
	pi := s.payloadIssue(repo, is, us[1])
	p := IssueCommentPayload{Action: action, Issue: pi, IsPull: is.IsPull, Repository: s.payloadRepo(repo, us[0]),
		Sender: s.payloadUser(actor.User), Comment: &PayloadComment{ID: c.ID, Body: c.Body, User: s.payloadUser(us[2]),
			Created: c.Created, Updated: c.Updated, IssueURL: pi.URL, HTMLURL: pi.HTMLURL + "#issuecomment-" + strconv.FormatInt(c.ID, 10)}}
	return s.Enqueue(ctx, Event{Word: word, Name: "issue_comment", Type: word, Repo: repo,
		Payload: struct {
			IssueCommentPayload
			Changes *Changes `json:"changes,omitempty"`
		}{p, ch}})
}
