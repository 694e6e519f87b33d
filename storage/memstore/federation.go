package memstore

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/issues"
)

// federationTx implements federation.Tx over one memstore transaction.
type federationTx struct{ *tx }

var _ federation.Tx = federationTx{}

// Federation returns the store package forge/federation consumes.
func (s *Store) Federation() federation.Store {
	return storeOf(s, func(t *tx) federation.Tx { return federationTx{t} })
}

func (t federationTx) CountIndividuals(ctx context.Context, since time.Time) (int64, error) {
	return countRows(ctx, t, t.st.users, func(r userRow) bool {
		return r.u.Type == forge.UserTypeIndividual && (since.IsZero() || !r.u.LastLogin.IsZero() && !r.u.LastLogin.Before(since))
	})
}

func (t federationTx) CountIssues(ctx context.Context) (int64, error) {
	return countRows(ctx, t, t.st.issues, func(issues.Issue) bool { return true })
}

func (t federationTx) CountComments(ctx context.Context) (int64, error) {
	return countRows(ctx, t, t.st.comments, func(issues.Comment) bool { return true })
}
