package notify

import (
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Thread is one user's notification of one subject (Forgejo's
// Notification row).
type Thread struct {
	ID     forge.ID
	UserID forge.ID
	RepoID forge.ID
	Status Status
	Source Source
	// IssueID is the issue (or pull request) the thread is about.
	IssueID forge.ID
	// CommentID is the comment the thread points at: the first comment
	// the user has not read, 0 for the issue itself.
	CommentID forge.ID
	// UpdatedBy is the user whose action last touched the thread.
	UpdatedBy forge.ID
	Created   time.Time
	Updated   time.Time
}

// Status is a thread's state, with Forgejo's wire words.
type Status string

// Statuses.
const (
	StatusUnread Status = "unread"
	StatusRead   Status = "read"
	StatusPinned Status = "pinned"
)

// ParseStatus reads a status word as Forgejo's statusStringToNotificationStatus:
// trimmed, ignoring case; ok is false for anything else.
func ParseStatus(s string) (Status, bool) {
	switch st := Status(strings.ToLower(strings.TrimSpace(s))); st {
	case StatusUnread, StatusRead, StatusPinned:
		return st, true
	}
	return "", false
}

// ParseStatuses reads the `status-types` words: the default words when none
// is given, unknown words dropped (so that only unknown words match
// nothing), as Forgejo's statusStringsToNotificationStatuses.
func ParseStatuses(words, defaults []string) []Status {
	if len(words) == 0 {
		words = defaults
	}
	out := make([]Status, 0, len(words))
	for _, w := range words {
		if st, ok := ParseStatus(w); ok {
			out = append(out, st)
		}
	}
	return out
}

// Source is what a thread is about, with Forgejo's subject-type words.
type Source string

// Sources.
const (
	SourceIssue      Source = "issue"
	SourcePull       Source = "pull"
	SourceCommit     Source = "commit"
	SourceRepository Source = "repository"
)

// ParseSources reads the `subject-type` words ignoring case; unknown words
// are dropped. nil (no filter) when words is empty.
func ParseSources(words []string) []Source {
	if len(words) == 0 {
		return nil
	}
	out := []Source{}
	for _, w := range words {
		switch s := Source(strings.ToLower(w)); s {
		case SourceIssue, SourcePull, SourceCommit, SourceRepository:
			out = append(out, s)
		}
	}
	return out
}

// SourceOf is the source of an issue's thread.
func SourceOf(isPull bool) Source {
	if isPull {
		return SourcePull
	}
	return SourceIssue
}

// Unit is the repository unit a user must be able to read to see a
// thread of source s (code for commits and repositories).
func (s Source) Unit() forge.Unit {
	switch s {
	case SourceIssue:
		return forge.UnitIssues
	case SourcePull:
		return forge.UnitPulls
	}
	return forge.UnitCode
}

// Recipients are the users who get a thread for an event of actor: the
// repository's watchers and the issue's participants, each once, never
// the actor, in ascending order. Whether each may read the repository is
// checked separately.
func Recipients(actor forge.ID, watchers, participants []forge.ID) []forge.ID {
	seen := map[forge.ID]bool{actor: true, 0: true}
	var out []forge.ID
	for _, list := range [][]forge.ID{watchers, participants} {
		for _, id := range list {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Bump applies a new event to a user's existing thread, as Forgejo's
// updateIssueNotification: a read thread becomes unread and points at the
// new comment; an unread or pinned one keeps its state and its comment
// (the first one not read); the author of the change and the time are
// always updated.
func Bump(t Thread, commentID, by forge.ID, now time.Time) Thread {
	if t.Status == StatusRead {
		t.Status = StatusUnread
		t.CommentID = commentID
	}
	t.UpdatedBy = by
	t.Updated = now
	return t
}

// Mark sets a thread's status as Forgejo's SetNotificationStatus: the
// update time moves to now whatever the status was.
func Mark(t Thread, to Status, now time.Time) Thread {
	t.Status = to
	t.Updated = now
	return t
}
