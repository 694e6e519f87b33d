package memstore

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// LabelIDsByNames implements issues.NameTx.
func (t issueTx) LabelIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	return idsWhere(t.st.labels, func(id forge.ID, l issues.Label) (forge.ID, bool) { return id, slices.Contains(names, l.Name) }), nil
}

// MilestoneIDsByNames implements issues.NameTx.
func (t issueTx) MilestoneIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	return idsWhere(t.st.milestones, func(id forge.ID, m issues.Milestone) (forge.ID, bool) { return id, slices.Contains(names, m.Title) }), nil
}
