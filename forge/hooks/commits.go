package hooks

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// MaxPayloadCommits is how many commits a push payload lists (Forgejo's
// [ui] FEED_MAX_COMMIT_NUM default); total_commits counts them all.
const MaxPayloadCommits = 5

// MaxNewRefCommits is how many commits are read for a reference the push
// creates (Forgejo's CommitsBeforeLimit(10)).
const MaxNewRefCommits = 10

// CommitReader reads the commits a reference update brings, for push
// payloads. The host implements it over its git store.
type CommitReader interface {
	// PushCommits returns, newest first, the commits of repo reachable
	// from newID and not from oldID (for a created reference, oldID is
	// zero: the latest commits of newID), at most limit of them, and how
	// many there are in all (the implementation may bound its count).
	PushCommits(ctx context.Context, repo forge.ID, oldID, newID string, limit int) ([]*PushCommit, int, error)
}

// PushCommit is a commit a push brings.
type PushCommit struct {
	ID        string
	Message   string
	Author    CommitUser
	Committer CommitUser
	Timestamp time.Time
	// Added, Removed and Modified are the paths the commit changed
	// (renames are a removal and an addition).
	Added, Removed, Modified []string
}

// CommitUser is a commit's author or committer.
type CommitUser struct{ Name, Email string }

// PayloadCommitUser is Forgejo's PayloadUser of a commit.
type PayloadCommitUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// payloadCommit is c as a payload commit of the repository fullName.
func (s *Service) payloadCommit(fullName string, c *PushCommit) *PayloadCommit {
	orEmpty := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	return &PayloadCommit{ID: c.ID, Message: c.Message, URL: s.cfg.RootURL + fullName + "/commit/" + c.ID,
		Author:    &PayloadCommitUser{Name: c.Author.Name, Email: c.Author.Email},
		Committer: &PayloadCommitUser{Name: c.Committer.Name, Email: c.Committer.Email},
		Timestamp: c.Timestamp, Added: orEmpty(c.Added), Removed: orEmpty(c.Removed), Modified: orEmpty(c.Modified)}
}

// pushCommits fills p's commits, total_commits and head_commit for the
// update u of repo, when the service has a CommitReader. A failed read
// leaves the lists empty (the event is still worth sending) and is logged.
func (s *Service) pushCommits(ctx context.Context, repo *forge.Repository, fullName string, u RefUpdate, p *PushPayload) {
	if s.cfg.Commits == nil || IsZeroID(u.NewID) {
		return
	}
	limit := MaxPayloadCommits
	if IsZeroID(u.OldID) {
		limit = MaxNewRefCommits
	}
	list, total, err := s.cfg.Commits.PushCommits(ctx, repo.ID, u.OldID, u.NewID, limit)
	if err != nil {
		s.log.Warn("hooks: reading pushed commits", "repo", fullName, "ref", u.Ref, "err", err)
		return
	}
	if len(list) > MaxPayloadCommits {
		list = list[:MaxPayloadCommits]
	}
	for _, c := range list {
		p.Commits = append(p.Commits, s.payloadCommit(fullName, c))
	}
	p.TotalCommits = total
	if len(p.Commits) > 0 {
		p.HeadCommit = p.Commits[0]
	}
}
