package hooks

import (
	"net/url"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// PayloadUser is the user object of payloads (a subset of Forgejo's
// api.User with the same field names).
type PayloadUser struct {
	ID        int64     `json:"id"`
	Login     string    `json:"login"`
	UserName  string    `json:"username"`
	FullName  string    `json:"full_name"`
	Email     string    `json:"email"`
	AvatarURL string    `json:"avatar_url"`
	HTMLURL   string    `json:"html_url"`
	IsAdmin   bool      `json:"is_admin"`
	Created   time.Time `json:"created"`
}

// PayloadRepo is the repository object of payloads (a subset of Forgejo's
// api.Repository with the same field names).
type PayloadRepo struct {
	ID            int64        `json:"id"`
	Owner         *PayloadUser `json:"owner"`
	Name          string       `json:"name"`
	FullName      string       `json:"full_name"`
	Description   string       `json:"description"`
	Empty         bool         `json:"empty"`
	Private       bool         `json:"private"`
	Fork          bool         `json:"fork"`
	Template      bool         `json:"template"`
	Archived      bool         `json:"archived"`
	HTMLURL       string       `json:"html_url"`
	URL           string       `json:"url"`
	CloneURL      string       `json:"clone_url"`
	Website       string       `json:"website"`
	DefaultBranch string       `json:"default_branch"`
	Size          int64        `json:"size"`
	Stars         int          `json:"stars_count"`
	Forks         int          `json:"forks_count"`
	Watchers      int          `json:"watchers_count"`
	Created       time.Time    `json:"created_at"`
	Updated       time.Time    `json:"updated_at"`
}

// PayloadCommit is a commit of a push payload.
type PayloadCommit struct {
	ID        string             `json:"id"`
	Message   string             `json:"message"`
	URL       string             `json:"url"`
	Author    *PayloadCommitUser `json:"author"`
	Committer *PayloadCommitUser `json:"committer"`
	// Verification is always null: Hearth does not verify signatures.
	Verification *struct{} `json:"verification"`
	Timestamp    time.Time `json:"timestamp"`
	Added        []string  `json:"added"`
	Removed      []string  `json:"removed"`
	Modified     []string  `json:"modified"`
}

// PushPayload is Forgejo's push event.
type PushPayload struct {
	Ref          string           `json:"ref"`
	Before       string           `json:"before"`
	After        string           `json:"after"`
	CompareURL   string           `json:"compare_url"`
	Commits      []*PayloadCommit `json:"commits"`
	TotalCommits int              `json:"total_commits"`
	HeadCommit   *PayloadCommit   `json:"head_commit"`
	Repo         *PayloadRepo     `json:"repository"`
	Pusher       *PayloadUser     `json:"pusher"`
	Sender       *PayloadUser     `json:"sender"`
}

// CreatePayload is Forgejo's create event (a branch or tag created).
type CreatePayload struct {
	SHA     string       `json:"sha"`
	Ref     string       `json:"ref"`
	RefType string       `json:"ref_type"`
	Repo    *PayloadRepo `json:"repository"`
	Sender  *PayloadUser `json:"sender"`
}

// DeletePayload is Forgejo's delete event.
type DeletePayload struct {
	Ref        string       `json:"ref"`
	RefType    string       `json:"ref_type"`
	PusherType string       `json:"pusher_type"`
	Repo       *PayloadRepo `json:"repository"`
	Sender     *PayloadUser `json:"sender"`
}

// RepositoryPayload is Forgejo's repository event (created, deleted).
type RepositoryPayload struct {
	Action       string       `json:"action"`
	Repository   *PayloadRepo `json:"repository"`
	Organization *PayloadUser `json:"organization"`
	Sender       *PayloadUser `json:"sender"`
}

// ForkPayload is Forgejo's fork event: forkee is the repository forked,
// repository the new fork.
type ForkPayload struct {
	Forkee *PayloadRepo `json:"forkee"`
	Repo   *PayloadRepo `json:"repository"`
	Sender *PayloadUser `json:"sender"`
}

// payloadUser converts a user as Forgejo's convert.ToUser with no doer
// shows it to a receiver (who is nobody signed in): the placeholder
// address instead of the e-mail, never the administrator flag; nil for
// nil.
func (s *Service) payloadUser(u *forge.User) *PayloadUser {
	return s.payloadUserSigned(u, false)
}

// payloadUserSigned is payloadUser; with signed, as Forgejo's
// ToUserWithAccessMode with an access (a repository's owner in its
// repository object): the e-mail unless the user hides it.
func (s *Service) payloadUserSigned(u *forge.User, signed bool) *PayloadUser {
	if u == nil {
		return nil
	}
	email := u.Email
	if !signed || u.HideEmail {
		host := "localhost"
		if ru, err := url.Parse(s.cfg.RootURL); err == nil && ru.Hostname() != "" {
			host = ru.Hostname()
		}
		email = strings.ToLower(u.Name) + "@noreply." + host
	}
	return &PayloadUser{ID: int64(u.ID), Login: u.Name, UserName: u.Name, FullName: u.FullName, Email: email,
		HTMLURL: s.cfg.RootURL + u.Name, Created: u.Created}
}

// payloadRepo converts a repository with its owner.
func (s *Service) payloadRepo(r *forge.Repository, owner *forge.User) *PayloadRepo {
	full := r.OwnerName + "/" + r.Name
	return &PayloadRepo{
		ID: int64(r.ID), Owner: s.payloadUserSigned(owner, true), Name: r.Name, FullName: full, Description: r.Description,
		Empty: r.Empty, Private: r.Private, Fork: r.ForkID != 0, Template: r.Template, Archived: r.Archived,
		HTMLURL: s.cfg.RootURL + full, URL: s.cfg.RootURL + "api/v1/repos/" + full, CloneURL: s.cfg.RootURL + full + ".git",
		Website: r.Website, DefaultBranch: r.DefaultBranch, Size: r.Size / 1024, Stars: r.NumStars, Forks: r.NumForks,
		Watchers: r.NumWatches, Created: r.Created, Updated: r.Updated,
	}
}

// RefKind splits a full reference into its kind ("branch", "tag" or "")
// and short name.
func RefKind(ref string) (kind, name string) {
	switch {
	case strings.HasPrefix(ref, "refs/heads/"):
		return "branch", strings.TrimPrefix(ref, "refs/heads/")
	case strings.HasPrefix(ref, "refs/tags/"):
		return "tag", strings.TrimPrefix(ref, "refs/tags/")
	}
	return "", ref
}

// IsZeroID reports whether a commit id is git's all-zero id (a reference
// created or deleted).
func IsZeroID(id string) bool { return strings.Trim(id, "0") == "" }
