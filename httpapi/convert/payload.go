package convert

import (
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// The webhook payloads of Forgejo's modules/structs/hook.go. Forgejo's
// OpenAPI document describes none of these envelopes, so they are written
// here; the objects they embed (repository, users, issue, pull request,
// comment, release, commits) are the document's wire types, converted by
// this package as for the API's answers.

// PushPayload is Forgejo's push event.
type PushPayload struct {
	Ref          string                `json:"ref"`
	Before       string                `json:"before"`
	After        string                `json:"after"`
	CompareURL   string                `json:"compare_url"`
	Commits      []*wire.PayloadCommit `json:"commits"`
	TotalCommits int                   `json:"total_commits"`
	HeadCommit   *wire.PayloadCommit   `json:"head_commit"`
	Repo         *wire.Repository      `json:"repository"`
	Pusher       *wire.User            `json:"pusher"`
	Sender       *wire.User            `json:"sender"`
}

// CreatePayload is Forgejo's create event (a branch or tag created).
type CreatePayload struct {
	SHA     string           `json:"sha"`
	Ref     string           `json:"ref"`
	RefType string           `json:"ref_type"`
	Repo    *wire.Repository `json:"repository"`
	Sender  *wire.User       `json:"sender"`
}

// DeletePayload is Forgejo's delete event (a branch or tag deleted).
type DeletePayload struct {
	Ref        string           `json:"ref"`
	RefType    string           `json:"ref_type"`
	PusherType string           `json:"pusher_type"`
	Repo       *wire.Repository `json:"repository"`
	Sender     *wire.User       `json:"sender"`
}

// ForkPayload is Forgejo's fork event: forkee is the repository forked,
// repository the new fork.
type ForkPayload struct {
	Forkee *wire.Repository `json:"forkee"`
	Repo   *wire.Repository `json:"repository"`
	Sender *wire.User       `json:"sender"`
}

// RepositoryPayload is Forgejo's repository event (created, deleted).
type RepositoryPayload struct {
	Action       string           `json:"action"`
	Repository   *wire.Repository `json:"repository"`
	Organization *wire.User       `json:"organization"`
	Sender       *wire.User       `json:"sender"`
}

// ChangesFromPayload is a field's value before an edit.
type ChangesFromPayload struct {
	From string `json:"from"`
}

// ChangesPayload is what an edit changed (the fields not changed are left
// out).
type ChangesPayload struct {
	Title *ChangesFromPayload `json:"title,omitempty"`
	Body  *ChangesFromPayload `json:"body,omitempty"`
}

// IssuePayload is Forgejo's issues event.
type IssuePayload struct {
	Action     string           `json:"action"`
	Number     int64            `json:"number"`
	Changes    *ChangesPayload  `json:"changes,omitempty"`
	Issue      *wire.Issue      `json:"issue"`
	Repository *wire.Repository `json:"repository"`
	Sender     *wire.User       `json:"sender"`
	CommitID   string           `json:"commit_id"`
}

// IssueCommentPayload is Forgejo's issue_comment event.
type IssueCommentPayload struct {
	Action     string           `json:"action"`
	Issue      *wire.Issue      `json:"issue"`
	Comment    *wire.Comment    `json:"comment"`
	Changes    *ChangesPayload  `json:"changes,omitempty"`
	Repository *wire.Repository `json:"repository"`
	Sender     *wire.User       `json:"sender"`
	IsPull     bool             `json:"is_pull"`
}

// ReviewPayload is the review of a review event.
type ReviewPayload struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// PullRequestPayload is Forgejo's pull_request event (and its review
// events).
type PullRequestPayload struct {
	Action      string            `json:"action"`
	Number      int64             `json:"number"`
	Changes     *ChangesPayload   `json:"changes,omitempty"`
	PullRequest *wire.PullRequest `json:"pull_request"`
	// RequestedReviewer is the reviewer of review_requested and
	// review_request_removed, null otherwise.
	RequestedReviewer *wire.User       `json:"requested_reviewer"`
	Repository        *wire.Repository `json:"repository"`
	Sender            *wire.User       `json:"sender"`
	CommitID          string           `json:"commit_id"`
	Review            *ReviewPayload   `json:"review"`
}

// ReleasePayload is Forgejo's release event.
type ReleasePayload struct {
	Action     string           `json:"action"`
	Release    *wire.Release    `json:"release"`
	Repository *wire.Repository `json:"repository"`
	Sender     *wire.User       `json:"sender"`
}

// PayloadCommit converts a commit of repository r as Forgejo's
// ToPayloadCommit: the authors by name and e-mail (no account), the
// verification null (Hearth verifies no signature), the files the commit
// added, removed and modified (c.Files; a rename is a removal and an
// addition), never null.
func PayloadCommit(root string, r *forge.Repository, c *repos.Commit) *wire.PayloadCommit {
	out := &wire.PayloadCommit{ID: c.ID, Message: c.Message, URL: RepoWebURL(root, r) + "/commit/" + c.ID,
		Author:    &wire.PayloadUser{Name: c.Author.Name, Email: c.Author.Email},
		Committer: &wire.PayloadUser{Name: c.Committer.Name, Email: c.Committer.Email},
		Timestamp: c.Committer.When, Added: []string{}, Removed: []string{}, Modified: []string{}}
	for _, f := range c.Files {
		switch f.Status {
		case "added":
			out.Added = append(out.Added, f.Filename)
		case "removed":
			out.Removed = append(out.Removed, f.Filename)
		default:
			out.Modified = append(out.Modified, f.Filename)
		}
	}
	return out
}

// payloadReader is the reader of webhook payloads: nobody signed in
// (Forgejo's convert.ToUser(ctx, u, nil)).
var payloadReader = forge.Actor{}

// PayloadUser converts u as webhook payloads show it to their receiver,
// who is nobody signed in (Forgejo's convert.ToUser with no doer): the
// placeholder address instead of the e-mail, no sign-in details, never
// the administrator flag.
func PayloadUser(root string, u *forge.User) *wire.User {
	if u == nil {
		return nil
	}
	out := UserFor(root, NoReplyEmail(root, "localhost", u), payloadReader, u)
	return &out
}

// PayloadOwner converts a repository's owner as its repository object in
// a payload shows it (Forgejo's ToUserWithAccessMode with the owner's
// access): the e-mail unless the user hides it, no sign-in details.
func PayloadOwner(root string, u *forge.User) wire.User {
	out := PayloadUser(root, u)
	if !u.HideEmail {
		out.Email = u.Email
	}
	return *out
}

// PayloadRepository converts a repository as webhook payloads show it
// (Forgejo's convert.ToRepo with the owner's access): every permission,
// the owner by PayloadOwner, the parent of a fork when given (nil: none
// shown). owner is the repository's owner account (nil: an owner named as
// the repository has it, without details).
func PayloadRepository(root string, r *forge.Repository, owner *forge.User, parent *repos.View) *wire.Repository {
	if owner == nil {
		owner = &forge.User{ID: r.OwnerID, Name: r.OwnerName}
	}
	v := &repos.View{Repo: r, Owner: owner, Perm: forge.Permission{Mode: forge.AccessModeOwner}}
	out := Repository(root, v, repos.Related{Parent: parent}, func(u *forge.User) wire.User { return PayloadOwner(root, u) })
	return &out
}
