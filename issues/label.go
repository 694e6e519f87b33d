package issues

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Label is a label of a repository (RepoID) or of an organisation (OrgID):
// exactly one of them is set.
type Label struct {
	ID     forge.ID
	RepoID forge.ID
	OrgID  forge.ID
	Name   string
	// Color is normalised lower-case "#rrggbb" (see NormalizeColor); the
	// API shows it without '#'.
	Color       string
	Description string
	// Exclusive gives the label a scope (ExclusiveScope): one label of a
	// scope at most stays on an issue.
	Exclusive bool
	// Archived is when the label was archived, the zero time if it is not.
	Archived time.Time
	// NumIssues and NumClosedIssues count the issues bearing it.
	NumIssues, NumClosedIssues int
}

// IsArchived reports whether the label is archived.
func (l *Label) IsArchived() bool { return !l.Archived.IsZero() }

// CreateLabelOption creates a label (Forgejo's CreateLabelOption).
type CreateLabelOption struct {
	// Name is required.
	Name string
	// Color is required: #rgb, rgb, #rrggbb or rrggbb, any case.
	Color       string
	Exclusive   bool
	Description string
	IsArchived  bool
}

// EditLabelOption edits a label; nil fields are left unchanged, except
// IsArchived: Forgejo treats an absent is_archived as false (a BUG it has,
// reproduced: an edit without it un-archives the label).
type EditLabelOption struct {
	Name        *string
	Color       *string
	Exclusive   *bool
	Description *string
	IsArchived  *bool
}

// LabelSort orders label lists (the `sort` query of the label list).
type LabelSort string

// Label orders; "" is alphabetical.
const (
	LabelSortAlpha        LabelSort = "alphabetically"
	LabelSortReverseAlpha LabelSort = "reversealphabetically"
	LabelSortLeastIssues  LabelSort = "leastissues"
	LabelSortMostIssues   LabelSort = "mostissues"
)

// LabelsOption is the body of an issue-label add or replace: label ids or
// label names (never both: the HTTP layer refuses mixed lists), and an
// optional date for the change.
type LabelsOption struct {
	IDs   []forge.ID
	Names []string
	// UpdatedAt, when non-nil, dates the label-change comments and the
	// issue's update (see CheckUpdatedAt).
	UpdatedAt *time.Time
}
