package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The recorded issues.TrackingTx methods.

func (x recIssuesTx) CreateDependency(ctx context.Context, d *issues.Dependency) error {
	x.rec.hit("issues.Tx.CreateDependency")
	return x.Tx.CreateDependency(ctx, d)
}

func (x recIssuesTx) DeleteDependency(ctx context.Context, issueID, dependsOn forge.ID) error {
	x.rec.hit("issues.Tx.DeleteDependency")
	return x.Tx.DeleteDependency(ctx, issueID, dependsOn)
}

func (x recIssuesTx) DependencyExists(ctx context.Context, issueID, dependsOn forge.ID) (bool, error) {
	x.rec.hit("issues.Tx.DependencyExists")
	return x.Tx.DependencyExists(ctx, issueID, dependsOn)
}

func (x recIssuesTx) Dependencies(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	x.rec.hit("issues.Tx.Dependencies")
	return x.Tx.Dependencies(ctx, issueID)
}

func (x recIssuesTx) Dependents(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	x.rec.hit("issues.Tx.Dependents")
	return x.Tx.Dependents(ctx, issueID)
}

func (x recIssuesTx) RepoRefs(ctx context.Context, ids []forge.ID) (map[forge.ID]issues.RepoRef, error) {
	x.rec.hit("issues.Tx.RepoRefs")
	return x.Tx.RepoRefs(ctx, ids)
}

func (x recIssuesTx) CreateTrackedTime(ctx context.Context, t *issues.TrackedTime) error {
	x.rec.hit("issues.Tx.CreateTrackedTime")
	return x.Tx.CreateTrackedTime(ctx, t)
}

func (x recIssuesTx) TrackedTimeByID(ctx context.Context, id forge.ID) (*issues.TrackedTime, error) {
	x.rec.hit("issues.Tx.TrackedTimeByID")
	return x.Tx.TrackedTimeByID(ctx, id)
}

func (x recIssuesTx) ListTrackedTimes(ctx context.Context, f issues.TimeFilter, o forge.ListOptions) ([]*issues.TrackedTime, int64, error) {
	x.rec.hit("issues.Tx.ListTrackedTimes")
	return x.Tx.ListTrackedTimes(ctx, f, o)
}

func (x recIssuesTx) MarkTimesDeleted(ctx context.Context, ids []forge.ID) error {
	x.rec.hit("issues.Tx.MarkTimesDeleted")
	return x.Tx.MarkTimesDeleted(ctx, ids)
}

func (x recIssuesTx) CreateStopwatch(ctx context.Context, sw *issues.Stopwatch) error {
	x.rec.hit("issues.Tx.CreateStopwatch")
	return x.Tx.CreateStopwatch(ctx, sw)
}

func (x recIssuesTx) DeleteStopwatch(ctx context.Context, id forge.ID) error {
	x.rec.hit("issues.Tx.DeleteStopwatch")
	return x.Tx.DeleteStopwatch(ctx, id)
}

func (x recIssuesTx) Stopwatches(ctx context.Context, userID, issueID forge.ID, o forge.ListOptions) ([]*issues.Stopwatch, int64, error) {
	x.rec.hit("issues.Tx.Stopwatches")
	return x.Tx.Stopwatches(ctx, userID, issueID, o)
}
