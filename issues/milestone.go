package issues

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Milestone is a milestone of a repository.
type Milestone struct {
	ID          forge.ID
	RepoID      forge.ID
	Title       string
	Description string
	IsClosed    bool
	// NumIssues counts every issue of the milestone, NumClosedIssues the
	// closed ones (see MilestoneDelta).
	NumIssues, NumClosedIssues int
	// Deadline is the due date; NoDeadline (9999-12-31) when none, as
	// Forgejo stores it.
	Deadline         time.Time
	Created, Updated time.Time
	// Closed is when it was closed, the zero time if open.
	Closed time.Time
}

// NumOpenIssues is the number of open issues of the milestone.
func (m *Milestone) NumOpenIssues() int { return m.NumIssues - m.NumClosedIssues }

// HasDeadline reports whether the milestone has a due date (Forgejo shows
// any deadline in year 9999 or later as none).
func (m *Milestone) HasDeadline() bool { return !m.Deadline.IsZero() && m.Deadline.Year() < 9999 }

// NoDeadline is the deadline Forgejo stores for a milestone without one.
var NoDeadline = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// CreateMilestoneOption creates a milestone (Forgejo's CreateMilestoneOption).
type CreateMilestoneOption struct {
	Title       string
	Description string
	// Deadline nil means none.
	Deadline *time.Time
	// State StateClosed creates it closed.
	State State
}

// EditMilestoneOption edits a milestone; nil fields are left unchanged.
type EditMilestoneOption struct {
	// Title changes only when non-empty.
	Title       *string
	Description *string
	// State: StateClosed closes, anything else opens.
	State *State
	// Deadline changes only when non-nil and non-zero.
	Deadline *time.Time
}

// ListMilestonesOption filters a repository's milestones.
type ListMilestonesOption struct {
	// State StateOpen or StateClosed; anything else lists both.
	State State
	// Name, when set, lists the milestones whose name contains it,
	// ASCII letters compared ignoring case (as Forgejo's `name` filter).
	Name string
	forge.ListOptions
}

// UpperASCII returns s with its ASCII letters upper-cased and nothing else
// changed: the case folding of MilestoneFilter.NameContains (Forgejo's
// util.ToUpperASCII).
func UpperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
