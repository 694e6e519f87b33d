package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// notifyTx implements notify.Tx over one memstore transaction.
type notifyTx struct{ *tx }

var _ notify.Tx = notifyTx{}

// Notify returns the store package forge/notify consumes.
func (s *Store) Notify() notify.Store {
	return storeOf(s, func(t *tx) notify.Tx { return notifyTx{t} })
}

func (t notifyTx) Subjects(ctx context.Context, ids []forge.ID) (map[forge.ID]notify.Subject, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]notify.Subject, len(ids))
	for _, id := range ids {
		if is, ok := t.st.issues[id]; ok {
			out[id] = notify.Subject{RepoID: is.RepoID, Index: is.Index, Title: is.Title, IsPull: is.IsPull, IsClosed: is.IsClosed}
		}
	}
	for _, c := range t.st.comments {
		if s, ok := out[c.IssueID]; ok && c.Type == issues.CommentPlain && c.ID > s.LastCommentID {
			s.LastCommentID = c.ID
			out[c.IssueID] = s
		}
	}
	return out, nil
}

func (t notifyTx) CreateThread(ctx context.Context, n *notify.Thread) error {
	if err := writeRef(ctx, t, t.st.users, n.UserID, "notification user"); err != nil {
		return err
	}
	if _, ok := t.st.repos[n.RepoID]; !ok {
		return missingRef("notification repository")
	}
	if _, ok := t.st.issues[n.IssueID]; n.IssueID != 0 && !ok {
		return missingRef("notification issue")
	}
	if err := conflictIf(t.st.threads, func(o notify.Thread) bool {
		return t.live(o) && o.UserID == n.UserID && n.IssueID != 0 && o.IssueID == n.IssueID
	}, "notification"); err != nil {
		return err
	}
	c := *n
	c.ID = t.st.nextID("notification")
	c.Created, c.Updated = ts(c.Created), ts(c.Updated)
	t.st.threads[c.ID] = c
	n.ID = c.ID
	return nil
}

func (t notifyTx) UpdateThread(ctx context.Context, n *notify.Thread) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	o, ok := t.st.threads[n.ID]
	if !ok || !t.live(o) {
		return notFound("notification")
	}
	o.Status, o.CommentID, o.UpdatedBy, o.Updated = n.Status, n.CommentID, n.UpdatedBy, ts(n.Updated)
	t.st.threads[n.ID] = o
	return nil
}

func (t notifyTx) ThreadByID(ctx context.Context, id forge.ID) (*notify.Thread, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	o, ok := t.st.threads[id]
	if !ok || !t.live(o) {
		return nil, notFound("notification")
	}
	return &o, nil
}

func (t notifyTx) ThreadsOfIssue(ctx context.Context, issueID forge.ID, userIDs []forge.ID) (map[forge.ID]*notify.Thread, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]*notify.Thread{}
	for _, o := range t.st.threads {
		if t.live(o) && o.IssueID == issueID && slices.Contains(userIDs, o.UserID) {
			c := o
			out[o.UserID] = &c
		}
	}
	return out, nil
}

func (t notifyTx) ThreadRepos(ctx context.Context, userID forge.ID) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	ids := idsWhere(t.st.threads, func(_ forge.ID, o notify.Thread) (forge.ID, bool) { return o.RepoID, t.live(o) && o.UserID == userID })
	return slices.Compact(ids), nil
}

func (t notifyTx) ListThreads(ctx context.Context, f notify.Filter, o forge.ListOptions) ([]*notify.Thread, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var list []notify.Thread
	for _, n := range t.st.threads {
		if t.live(n) && threadMatches(f, n) {
			list = append(list, n)
		}
	}
	slices.SortFunc(list, func(a, b notify.Thread) int {
		return cmp.Or(b.Updated.Compare(a.Updated), cmp.Compare(b.ID, a.ID))
	})
	lo, hi := len(list), len(list)
	if o.Limit != 0 {
		lo, hi = o.Bounds(len(list))
	}
	out := make([]*notify.Thread, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, &list[i])
	}
	return out, int64(len(list)), nil
}

// threadMatches is notify.Filter's rule.
func threadMatches(f notify.Filter, n notify.Thread) bool {
	switch {
	case n.UserID != f.UserID,
		f.RepoID != 0 && n.RepoID != f.RepoID,
		f.Statuses != nil && !slices.Contains(f.Statuses, n.Status),
		f.Sources != nil && !slices.Contains(f.Sources, n.Source),
		!f.UpdatedAfter.IsZero() && !n.Updated.After(ts(f.UpdatedAfter)),
		!f.UpdatedBefore.IsZero() && !n.Updated.Before(ts(f.UpdatedBefore)):
		return false
	}
	switch n.Source {
	case notify.SourceIssue:
		return slices.Contains(f.IssueRepos, n.RepoID)
	case notify.SourcePull:
		return slices.Contains(f.PullRepos, n.RepoID)
	}
	return false
}

// live reports whether a thread's user, repository and issue still exist:
// the SQL schema deletes a thread with any of them (ON DELETE CASCADE);
// memstore leaves the row and treats it as gone, so that the deletions of
// other domains need not know of threads.
func (t notifyTx) live(n notify.Thread) bool {
	_, user := t.st.users[n.UserID]
	_, repo := t.st.repos[n.RepoID]
	_, issue := t.st.issues[n.IssueID]
	return user && repo && (issue || n.IssueID == 0)
}
