package issues

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// NameTx resolves the label and milestone names of an issue search
// (Forgejo's GetLabelIDsByNames and GetMilestoneIDsByNames): names of any
// repository or organisation, so that the search drops a filter none of
// whose names exists anywhere, as Forgejo does.
type NameTx interface {
	// SearchableRepos: the repository condition of the search
	// (search_repos.go).
	SearchRepoTx
	// LabelIDsByNames returns, in one query, the ids of the labels (of
	// any repository or organisation) whose name is one of names (exact),
	// in id order. Never nil.
	LabelIDsByNames(ctx context.Context, names []string) ([]forge.ID, error)
	// MilestoneIDsByNames returns, in one query, the ids of the
	// milestones (of any repository) whose title is one of names (exact),
	// in id order. Never nil.
	MilestoneIDsByNames(ctx context.Context, names []string) ([]forge.ID, error)
}
