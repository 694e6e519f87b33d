package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

var (
	sqlLabelIDsByNames = prepared(`SELECT id FROM label
		WHERE name IN (SELECT value FROM json_each(?)) ORDER BY id`)
	sqlMilestoneIDsByNames = prepared(`SELECT id FROM milestone
		WHERE title IN (SELECT value FROM json_each(?)) ORDER BY id`)
)

// LabelIDsByNames implements issues.NameTx.
func (t issueTx) LabelIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	return t.idsByNames(ctx, sqlLabelIDsByNames, names, "labels by name")
}

// MilestoneIDsByNames implements issues.NameTx.
func (t issueTx) MilestoneIDsByNames(ctx context.Context, names []string) ([]forge.ID, error) {
	return t.idsByNames(ctx, sqlMilestoneIDsByNames, names, "milestones by name")
}

// idsByNames runs a query of ids whose one argument is the list names.
func (t issueTx) idsByNames(ctx context.Context, query string, names []string, what string) ([]forge.ID, error) {
	ids := []forge.ID{}
	if len(names) == 0 {
		return ids, nil
	}
	return queryAll(ctx, t, scanID, what, query, stringList(names))
}
