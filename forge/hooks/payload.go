package hooks

import (
	"strings"
	"time"
)

// The types of this file are what the per-type converters
// (payload_convert.go) and the sourcehut_builds hooks read of the Forgejo
// payloads stored with each task: subsets of Forgejo's objects, with the
// same field names. The composition root builds the payloads themselves
// (Forgejo's full objects, httpapi/convert) and queues them through Ports.

// PayloadUser is the user object of payloads as the converters read it (a
// subset of Forgejo's api.User, whose UserName is "login").
type PayloadUser struct {
	ID        int64     `json:"id"`
	UserName  string    `json:"login"`
	FullName  string    `json:"full_name"`
	Email     string    `json:"email"`
	AvatarURL string    `json:"avatar_url"`
	HTMLURL   string    `json:"html_url"`
	IsAdmin   bool      `json:"is_admin"`
	Created   time.Time `json:"created"`
}

// PayloadRepo is the repository object of payloads as the converters
// read it (a subset of Forgejo's api.Repository).
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

// PayloadCommit is a commit of a push payload (Forgejo's PayloadCommit).
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

// PayloadCommitUser is Forgejo's PayloadUser of a commit.
type PayloadCommitUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// PushPayload is Forgejo's push event as the converters read it.
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
