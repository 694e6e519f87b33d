package memstore

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// LabelIDsByNames implements issues.NameTx.
func (t issueTx) LabelIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	ids := []forge.ID{}
	for id, l := range t.st.labels {
		if slices.Contains(names, l.Name) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// MilestoneIDsByNames implements issues.NameTx.
func (t issueTx) MilestoneIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	ids := []forge.ID{}
	for id, m := range t.st.milestones {
		if slices.Contains(names, m.Title) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}
