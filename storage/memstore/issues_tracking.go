package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Dependencies, tracked times and stopwatches (issues.TrackingTx). Rows
// of a deleted issue are ignored by every read, as the SQL schema's
// cascades delete them.

// depKey keys a dependency: issue depends on dependsOn.
type depKey struct{ issue, dependsOn forge.ID }

func (t issueTx) CreateDependency(ctx context.Context, d *issues.Dependency) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !t.issueExists(d.IssueID) || !t.issueExists(d.DependsOn) {
		return missingRef("create dependency: issue")
	}
	k := depKey{d.IssueID, d.DependsOn}
	if _, ok := t.st.deps[k]; ok {
		return conflict("issue dependency")
	}
	d.ID = t.st.nextID("issue_dependency")
	v := *d
	v.Created = ts(d.Created)
	t.st.deps[k] = v
	return nil
}

func (t issueTx) issueExists(id forge.ID) bool {
	_, ok := t.st.issues[id]
	return ok
}

func (t issueTx) DeleteDependency(ctx context.Context, issueID, dependsOn forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := depKey{issueID, dependsOn}
	if _, ok := t.st.deps[k]; !ok || !t.issueExists(issueID) || !t.issueExists(dependsOn) {
		return notFound("issue dependency")
	}
	delete(t.st.deps, k)
	return nil
}

func (t issueTx) DependencyExists(ctx context.Context, issueID, dependsOn forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	_, ok := t.st.deps[depKey{issueID, dependsOn}]
	return ok && t.issueExists(issueID) && t.issueExists(dependsOn), nil
}

func (t issueTx) Dependencies(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	return t.related(ctx, func(k depKey) (bool, forge.ID) { return k.issue == issueID, k.dependsOn })
}

func (t issueTx) Dependents(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	return t.related(ctx, func(k depKey) (bool, forge.ID) { return k.dependsOn == issueID, k.issue })
}

func (t issueTx) related(ctx context.Context, pick func(depKey) (bool, forge.ID)) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []forge.ID{}
	for k := range t.st.deps {
		if ok, id := pick(k); ok && t.issueExists(k.issue) && t.issueExists(k.dependsOn) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (t issueTx) RepoRefs(ctx context.Context, ids []forge.ID) (map[forge.ID]issues.RepoRef, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]issues.RepoRef, len(ids))
	for _, id := range ids {
		r, ok := t.st.repos[id]
		if !ok {
			continue
		}
		out[id] = issues.RepoRef{ID: id, OwnerName: t.st.users[r.OwnerID].u.Name, Name: r.Name}
	}
	return out, nil
}

func (t issueTx) CreateTrackedTime(ctx context.Context, tt *issues.TrackedTime) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !t.issueExists(tt.IssueID) {
		return missingRef("create tracked time: issue")
	}
	if _, ok := t.st.users[tt.UserID]; !ok {
		return missingRef("create tracked time: user")
	}
	tt.ID = t.st.nextID("tracked_time")
	v := *tt
	v.Created = ts(tt.Created)
	t.st.times[v.ID] = v
	return nil
}

func (t issueTx) TrackedTimeByID(ctx context.Context, id forge.ID) (*issues.TrackedTime, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	v, ok := t.st.times[id]
	if !ok || !t.issueExists(v.IssueID) {
		return nil, notFound("tracked time")
	}
	return &v, nil
}

func (t issueTx) ListTrackedTimes(ctx context.Context, f issues.TimeFilter, o forge.ListOptions) ([]*issues.TrackedTime, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.TrackedTime
	for _, v := range t.st.times {
		is, ok := t.st.issues[v.IssueID]
		switch {
		case !ok, v.Deleted:
			continue
		case f.IssueID != 0 && v.IssueID != f.IssueID:
			continue
		case f.RepoID != 0 && is.RepoID != f.RepoID:
			continue
		case f.UserID != 0 && v.UserID != f.UserID:
			continue
		case !f.CreatedSince.IsZero() && v.Created.Before(ts(f.CreatedSince)):
			continue
		case !f.CreatedBefore.IsZero() && v.Created.After(ts(f.CreatedBefore)):
			continue
		}
		all = append(all, v)
	}
	out, n := sortedPage(all, func(a, b issues.TrackedTime) int { return cmp.Compare(a.ID, b.ID) }, o)
	return out, n, nil
}

func (t issueTx) MarkTimesDeleted(ctx context.Context, ids []forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for _, id := range ids {
		if v, ok := t.st.times[id]; ok {
			v.Deleted = true
			t.st.times[id] = v
		}
	}
	return nil
}

func (t issueTx) CreateStopwatch(ctx context.Context, sw *issues.Stopwatch) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !t.issueExists(sw.IssueID) {
		return missingRef("create stopwatch: issue")
	}
	if _, ok := t.st.users[sw.UserID]; !ok {
		return missingRef("create stopwatch: user")
	}
	if err := conflictIf(t.st.stopwatches, func(v issues.Stopwatch) bool { return v.UserID == sw.UserID && v.IssueID == sw.IssueID }, "stopwatch"); err != nil {
		return err
	}
	sw.ID = t.st.nextID("stopwatch")
	v := *sw
	v.Created = ts(sw.Created)
	t.st.stopwatches[v.ID] = v
	return nil
}

func (t issueTx) DeleteStopwatch(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if v, ok := t.st.stopwatches[id]; !ok || !t.issueExists(v.IssueID) {
		return notFound("stopwatch")
	}
	delete(t.st.stopwatches, id)
	return nil
}

func (t issueTx) Stopwatches(ctx context.Context, userID, issueID forge.ID, o forge.ListOptions) ([]*issues.Stopwatch, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.stopwatches, func(v issues.Stopwatch) bool {
		return v.UserID == userID && (issueID == 0 || v.IssueID == issueID) && t.issueExists(v.IssueID)
	})
	out, n := sortedPage(all, func(a, b issues.Stopwatch) int { return cmp.Compare(a.ID, b.ID) }, o)
	return out, n, nil
}
