package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
)

// feedTx implements feeds.Tx over one memstore transaction.
type feedTx struct{ *tx }

var _ feeds.Tx = feedTx{}

// Feeds returns the store package forge/feeds consumes.
func (s *Store) Feeds() feeds.Store {
	return storeOf(s, func(t *tx) feeds.Tx { return feedTx{t} })
}

// live reports whether a's receiver, doer and repository still exist
// (the SQL stores cascade their deletion).
func (t feedTx) live(a feeds.Action) bool {
	_, u := t.st.users[a.UserID]
	_, d := t.st.users[a.ActUserID]
	_, r := t.st.repos[a.RepoID]
	return u && d && r
}

func (t feedTx) EventRecorded(ctx context.Context, eventID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	for _, a := range t.st.feedActions {
		if a.EventID == eventID {
			return true, nil
		}
	}
	return false, nil
}

func (t feedTx) CreateActions(ctx context.Context, list []*feeds.Action) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for _, a := range list {
		if _, ok := t.st.users[a.UserID]; !ok {
			return missingRef("action user")
		}
		if _, ok := t.st.users[a.ActUserID]; !ok {
			return missingRef("action doer")
		}
		if _, ok := t.st.repos[a.RepoID]; !ok {
			return missingRef("action repository")
		}
		c := *a
		c.ID = t.st.nextID("action")
		c.Created = ts(c.Created)
		t.st.feedActions[c.ID] = c
		a.ID = c.ID
	}
	return nil
}

func (t feedTx) ActionRepos(ctx context.Context, f feeds.Filter) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	ids := idsWhere(t.st.feedActions, func(_ forge.ID, a feeds.Action) (forge.ID, bool) {
		return a.RepoID, t.live(a) && (f.UserID == 0 || a.UserID == f.UserID) && (f.RepoID == 0 || a.RepoID == f.RepoID)
	})
	return slices.Compact(ids), nil
}

// matches is feeds.Filter's rule.
func (t feedTx) matches(f feeds.Filter, a feeds.Action) bool {
	switch {
	case !t.live(a),
		f.UserID != 0 && a.UserID != f.UserID,
		f.RepoID != 0 && a.RepoID != f.RepoID,
		f.RepoIDs != nil && !slices.Contains(f.RepoIDs, a.RepoID),
		f.ActUserID != 0 && a.ActUserID != f.ActUserID,
		f.OnlyDoerRows && a.UserID != a.ActUserID,
		f.ExcludePrivate && a.IsPrivate,
		!f.From.IsZero() && a.Created.Before(f.From),
		!f.To.IsZero() && a.Created.After(f.To):
		return false
	}
	if f.ActVisibilities == nil {
		return true
	}
	doer := t.st.users[a.ActUserID].u
	switch {
	case slices.Contains(f.ActVisibilities, doer.Visibility), slices.Contains(f.ActUsers, doer.ID):
		return true
	case f.ActOrgsOf != 0 && doer.IsOrganization():
		_, member := t.st.orgMembers[orgUser{doer.ID, f.ActOrgsOf}]
		return member
	}
	return false
}

func (t feedTx) ListActions(ctx context.Context, f feeds.Filter, o forge.ListOptions) ([]*feeds.Action, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var list []feeds.Action
	for _, a := range t.st.feedActions {
		if t.matches(f, a) {
			list = append(list, a)
		}
	}
	slices.SortFunc(list, func(a, b feeds.Action) int {
		return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(b.ID, a.ID))
	})
	page := forge.Page(list, o)
	out := make([]*feeds.Action, len(page))
	for i := range page {
		out[i] = &page[i]
	}
	return out, int64(len(list)), nil
}

func (t feedTx) Heatmap(ctx context.Context, f feeds.Filter) ([]feeds.HeatmapBucket, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	counts := map[int64]int64{}
	for _, a := range t.st.feedActions {
		if t.matches(f, a) {
			counts[a.Created.Unix()/feeds.HeatmapBucketSeconds*feeds.HeatmapBucketSeconds]++
		}
	}
	out := make([]feeds.HeatmapBucket, 0, len(counts))
	for ts, n := range counts {
		out = append(out, feeds.HeatmapBucket{Timestamp: ts, Contributions: n})
	}
	slices.SortFunc(out, func(a, b feeds.HeatmapBucket) int { return cmp.Compare(a.Timestamp, b.Timestamp) })
	return out, nil
}
