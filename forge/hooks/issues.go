package hooks

import (
	"context"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// IssueInfo is what the issue payloads show of an issue (the wiring fills
// it from the issues domain, which hooks does not import).
type IssueInfo struct {
	ID, Number       int64
	Title, Body      string
	Closed           bool
	IsPull           bool
	PosterID         forge.ID
	Comments         int
	Created, Updated time.Time
	ClosedAt         time.Time
}

// CommentInfo is what the issue_comment payloads show of a comment.
type CommentInfo struct {
	ID               int64
	Body             string
	PosterID         forge.ID
	Created, Updated time.Time
}

// PayloadIssue is the issue object of payloads (a subset of Forgejo's
// api.Issue with the same field names).
type PayloadIssue struct {
	ID        int64        `json:"id"`
	URL       string       `json:"url"`
	HTMLURL   string       `json:"html_url"`
	Number    int64        `json:"number"`
	User      *PayloadUser `json:"user"`
	Title     string       `json:"title"`
	Body      string       `json:"body"`
	State     string       `json:"state"`
	Comments  int          `json:"comments"`
	Created   time.Time    `json:"created_at"`
	Updated   time.Time    `json:"updated_at"`
	Closed    *time.Time   `json:"closed_at"`
	IsLocked  bool         `json:"is_locked"`
	Labels    []any        `json:"labels"`
	Assignees []any        `json:"assignees"`
}

// PayloadComment is the comment object of issue_comment payloads.
type PayloadComment struct {
	ID       int64        `json:"id"`
	HTMLURL  string       `json:"html_url"`
	IssueURL string       `json:"issue_url"`
	User     *PayloadUser `json:"user"`
	Body     string       `json:"body"`
	Created  time.Time    `json:"created_at"`
	Updated  time.Time    `json:"updated_at"`
}

// IssuePayload is Forgejo's issues event.
type IssuePayload struct {
	Action     string        `json:"action"`
	Number     int64         `json:"number"`
	Issue      *PayloadIssue `json:"issue"`
	Repository *PayloadRepo  `json:"repository"`
	Sender     *PayloadUser  `json:"sender"`
	CommitID   string        `json:"commit_id"`
}

// IssueCommentPayload is Forgejo's issue_comment event.
type IssueCommentPayload struct {
	Action     string          `json:"action"`
	Issue      *PayloadIssue   `json:"issue"`
	Comment    *PayloadComment `json:"comment"`
	Repository *PayloadRepo    `json:"repository"`
	Sender     *PayloadUser    `json:"sender"`
	IsPull     bool            `json:"is_pull"`
}

// Issue actions (Forgejo's HookIssueAction values).
const (
	ActionOpened   = "opened"
	ActionClosed   = "closed"
	ActionReopened = "reopened"
	ActionEdited   = "edited"
	ActionCreated  = "created" // a comment
)

func (s *Service) payloadIssue(repo *forge.Repository, is IssueInfo, poster *forge.User) *PayloadIssue {
	full := repo.OwnerName + "/" + repo.Name
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	p := &PayloadIssue{ID: is.ID, Number: is.Number, Title: is.Title, Body: is.Body, State: "open", Comments: is.Comments,
		User: s.payloadUser(poster), Created: is.Created, Updated: is.Updated, Labels: []any{}, Assignees: []any{},
		HTMLURL: s.cfg.RootURL + full + "/" + kind + "/" + strconv.FormatInt(is.Number, 10),
		URL:     s.cfg.RootURL + "api/v1/repos/" + full + "/issues/" + strconv.FormatInt(is.Number, 10)}
	if is.Closed {
		p.State = "closed"
		if !is.ClosedAt.IsZero() {
			t := is.ClosedAt
			p.Closed = &t
		}
	}
	return p
}

// IssueChanged queues the issues event (word issues_only, or
// pull_request_only for pull requests) with action (ActionOpened,
// ActionClosed, ActionReopened, ActionEdited).
func (s *Service) IssueChanged(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, action string) error {
	us := s.users(ctx, repo.OwnerID, is.PosterID)
	word, name := "issues_only", "issues"
	if is.IsPull {
		word, name = "pull_request_only", "pull_request"
	}
	return s.Enqueue(ctx, Event{Word: word, Name: name, Repo: repo, Payload: IssuePayload{Action: action, Number: is.Number,
		Issue: s.payloadIssue(repo, is, us[1]), Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User)}})
}

// IssueCommented queues the issue_comment event (pull_request_comment for
// pull requests) with action ActionCreated (or edited/deleted).
func (s *Service) IssueCommented(ctx context.Context, actor forge.Actor, repo *forge.Repository, is IssueInfo, c CommentInfo, action string) error {
	us := s.users(ctx, repo.OwnerID, is.PosterID, c.PosterID)
	word, typ := "issue_comment", "issue_comment"
	if is.IsPull {
		word, typ = "pull_request_comment", "pull_request_comment"
	}
	pi := s.payloadIssue(repo, is, us[1])
	return s.Enqueue(ctx, Event{Word: word, Name: "issue_comment", Type: typ, Repo: repo, Payload: IssueCommentPayload{
		Action: action, Issue: pi, IsPull: is.IsPull, Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User),
		Comment: &PayloadComment{ID: c.ID, Body: c.Body, User: s.payloadUser(us[2]), Created: c.Created, Updated: c.Updated,
			IssueURL: pi.URL, HTMLURL: pi.HTMLURL + "#issuecomment-" + strconv.FormatInt(c.ID, 10)}}})
}
