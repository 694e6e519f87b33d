package convert

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// The converters of this file are pure functions of domain values, the
// root URL and a user converter: no query runs inside them, so a page of
// issues costs the reads the service made for the page, whatever its
// length (Forgejo's services/convert/issue.go and issue_comment.go).

// Issues holds what the issue converters need besides domain values: the
// root URL and the two user converters Forgejo uses (the poster is shown
// as the caller may see it, assignees and comment posters as an anonymous
// caller would, Forgejo's ToUser(ctx, u, nil)).
type Issues struct {
	Root   string
	AsDoer UserFunc
	AsAnon UserFunc
}

// IssueWebURL is the web URL of an issue or pull request.
func IssueWebURL(root string, r *forge.Repository, index int64, pull bool) string {
	kind := "/issues/"
	if pull {
		kind = "/pulls/"
	}
	return RepoWebURL(root, r) + kind + strconv.FormatInt(index, 10)
}

// Label converts a label as Forgejo's convert.ToLabel: the colour
// without '#', the URL below the repository for repository labels and
// below the organisation (named org) for organisation labels.
func Label(root string, r *forge.Repository, org string, l *issues.Label) wire.Label {
	out := wire.Label{ID: l.ID, Name: l.Name, Exclusive: l.Exclusive, Color: strings.TrimLeft(l.Color, "#"),
		Description: l.Description, IsArchived: l.IsArchived()}
	id := strconv.FormatInt(l.ID, 10)
	switch {
	case l.RepoID != 0 && r != nil:
		out.URL = RepoAPIURL(root, r) + "/labels/" + id
	case l.OrgID != 0 && org != "":
		out.URL = root + "api/v1/orgs/" + url.PathEscape(org) + "/labels/" + id
	}
	return out
}

// Labels converts a list of labels; never null.
func Labels(root string, r *forge.Repository, org string, list []*issues.Label) []wire.Label {
	return All(list, func(l *issues.Label) wire.Label { return Label(root, r, org, l) })
}

// Milestone converts a milestone as Forgejo's convert.ToAPIMilestone:
// closed_at only when closed, due_on only below year 9999.
func Milestone(m *issues.Milestone) wire.Milestone {
	state := wire.StateType(issues.StateOf(m.IsClosed))
	out := wire.Milestone{ID: m.ID, Title: m.Title, Description: m.Description, State: state,
		OpenIssues: int64(m.NumOpenIssues()), ClosedIssues: int64(m.NumClosedIssues),
		Created: Time(m.Created), Updated: ptr(Time(m.Updated))}
	if m.IsClosed {
		out.Closed = ptr(Time(m.Closed))
	}
	if m.HasDeadline() {
		out.Deadline = ptr(m.Deadline.UTC())
	}
	return out
}

// IssueAttachment converts an issue or comment attachment as Forgejo's
// convert.ToAPIAttachment.
func IssueAttachment(root string, a *issues.Attachment) wire.Attachment {
	return wire.Attachment{ID: a.ID, Name: a.Name, Size: a.Size, DownloadCount: a.DownloadCount,
		Created: Time(a.Created), UUID: a.UUID, DownloadURL: root + "attachments/" + a.UUID,
		Type: wire.AttachmentTypeAttachment}
}

func IssueAttachments(root string, list []*issues.Attachment) []wire.Attachment {
	return All(list, func(a *issues.Attachment) wire.Attachment { return IssueAttachment(root, a) })
}

// Issue converts an issue view as Forgejo's convert.ToAPIIssue.
func (ic Issues) Issue(v *issues.IssueView) wire.Issue {
	is, r := v.Issue, v.Repo
	out := wire.Issue{
		ID: is.ID, Index: is.Index, User: ic.AsDoer(OrGhost(v.Poster)), OriginalAuthor: is.OriginalAuthor,
		OriginalAuthorID: is.OriginalAuthorID, Title: is.Title, Body: is.Body, Ref: is.Ref,
		Attachments: IssueAttachments(ic.Root, v.Assets), State: wire.StateType(issues.StateOf(is.IsClosed)),
		IsLocked: is.IsLocked, Comments: int64(is.NumComments), Created: Time(is.Created),
		Updated: Time(is.Updated), PinOrder: int64(is.PinOrder), Labels: []wire.Label{},
	}
	if r != nil {
		out.URL = RepoAPIURL(ic.Root, r) + "/issues/" + strconv.FormatInt(is.Index, 10)
		out.HTMLURL = IssueWebURL(ic.Root, r, is.Index, is.IsPull)
		out.Labels = Labels(ic.Root, r, r.OwnerName, v.Labels)
		out.Repository = wire.RepositoryMeta{ID: r.ID, Name: r.Name, Owner: r.OwnerName, FullName: r.FullName()}
	}
	if !is.Closed.IsZero() {
		out.Closed = ptr(Time(is.Closed))
	}
	if v.Milestone != nil {
		m := Milestone(v.Milestone)
		out.Milestone = &m
	}
	for _, u := range v.Assignees {
		out.Assignees = append(out.Assignees, ic.AsAnon(u))
	}
	if len(out.Assignees) > 0 {
		first := out.Assignees[0]
		out.Assignee = &first
	}
	if is.IsPull {
		out.PullRequest = &wire.PullRequestMeta{HTMLURL: out.HTMLURL}
	}
	if !is.Deadline.IsZero() {
		out.Deadline = ptr(is.Deadline.UTC())
	}
	return out
}

// Issues converts a page of issue views.
func (ic Issues) Issues(list []*issues.IssueView) []wire.Issue {
	return All(list, ic.Issue)
}

// Comment converts a comment view as Forgejo's convert.ToAPIComment: the
// web URL of the comment is its issue's with `#issuecomment-<id>`;
// issue_url is set for issues, pull_request_url for pull requests.
func (ic Issues) Comment(v *issues.CommentView) wire.Comment {
	cm := v.Comment
	out := wire.Comment{ID: cm.ID, User: ic.AsAnon(OrGhost(v.Poster)), OriginalAuthor: cm.OriginalAuthor,
		OriginalAuthorID: cm.OriginalAuthorID, Body: cm.Body, Attachments: IssueAttachments(ic.Root, v.Assets),
		Created: Time(cm.Created), Updated: Time(cm.Updated)}
	if v.Issue != nil && v.Repo != nil {
		web := IssueWebURL(ic.Root, v.Repo, v.Issue.Index, v.Issue.IsPull)
		out.HTMLURL = web + "#issuecomment-" + strconv.FormatInt(cm.ID, 10)
		if v.Issue.IsPull {
			out.PRURL = web
		} else {
			out.IssueURL = web
		}
	}
	return out
}

// Comments converts a page of comment views.
func (ic Issues) Comments(list []*issues.CommentView) []wire.Comment {
	return All(list, ic.Comment)
}
