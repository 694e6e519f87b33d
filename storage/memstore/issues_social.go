package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

var _ issues.SocialTx = issueTx{}

// liveSocial drops the reactions, watches and cross-references whose
// issue, comment or user is gone, as the SQL schema's cascades do. The
// social methods call it before they read, so that the deletions of the
// other files need not know these maps.
func (s *state) liveSocial() {
	deleteWhere(s.reactions, func(_ forge.ID, r issues.Reaction) bool {
		_, i := s.issues[r.IssueID]
		_, u := s.users[r.UserID]
		_, c := s.comments[r.CommentID]
		return !i || !u || (r.CommentID != 0 && !c)
	})
	deleteWhere(s.issueWatch, func(_ forge.ID, w issues.IssueWatch) bool {
		_, i := s.issues[w.IssueID]
		_, u := s.users[w.UserID]
		return !i || !u
	})
	deleteWhere(s.crossRefs, func(id forge.ID, _ issues.CrossRef) bool {
		_, c := s.comments[id]
		return !c
	})
}

func (t issueTx) CreateReaction(ctx context.Context, r *issues.Reaction) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	t.st.liveSocial()
	if _, ok := t.st.issues[r.IssueID]; !ok {
		return missingRef("create reaction: issue")
	}
	if c, ok := t.st.comments[r.CommentID]; r.CommentID != 0 && (!ok || c.IssueID != r.IssueID) {
		return missingRef("create reaction: comment")
	}
	if _, ok := t.st.users[r.UserID]; !ok {
		return missingRef("create reaction: user")
	}
	if err := conflictIf(t.st.reactions, func(o issues.Reaction) bool {
		return o.IssueID == r.IssueID && o.CommentID == r.CommentID && o.UserID == r.UserID && o.Content == r.Content
	}, "reaction"); err != nil {
		return err
	}
	r.ID = t.st.nextID("reaction")
	v := *r
	v.Created = ts(r.Created)
	t.st.reactions[r.ID] = v
	return nil
}

func (t issueTx) DeleteReaction(ctx context.Context, issueID, commentID, userID forge.ID, content string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	deleteWhere(t.st.reactions, func(_ forge.ID, r issues.Reaction) bool {
		return r.IssueID == issueID && r.CommentID == commentID && r.UserID == userID && r.Content == content
	})
	return nil
}

func (t issueTx) Reactions(ctx context.Context, issueID, commentID forge.ID, o forge.ListOptions) ([]*issues.Reaction, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.reactions, func(r issues.Reaction) bool { return r.IssueID == issueID && r.CommentID == commentID && t.live(r) })
	out, n := sortedPage(all, func(a, b issues.Reaction) int { return cmp.Compare(a.ID, b.ID) }, o)
	return out, n, nil
}

// live reports whether r's issue, comment and user still exist (reads do
// not prune).
func (t issueTx) live(r issues.Reaction) bool {
	_, u := t.st.users[r.UserID]
	_, i := t.st.issues[r.IssueID]
	_, c := t.st.comments[r.CommentID]
	return u && i && (r.CommentID == 0 || c)
}

func (t issueTx) SetIssueWatch(ctx context.Context, w *issues.IssueWatch) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	t.st.liveSocial()
	if _, ok := t.st.issues[w.IssueID]; !ok {
		return missingRef("set issue watch: issue")
	}
	if _, ok := t.st.users[w.UserID]; !ok {
		return missingRef("set issue watch: user")
	}
	v := *w
	v.Created, v.Updated = ts(w.Created), ts(w.Updated)
	for id, o := range t.st.issueWatch {
		if o.UserID == w.UserID && o.IssueID == w.IssueID {
			v.ID, v.Created = id, o.Created
			t.st.issueWatch[id] = v
			w.ID, w.Created = id, o.Created
			return nil
		}
	}
	v.ID = t.st.nextID("issue_watch")
	w.ID = v.ID
	t.st.issueWatch[v.ID] = v
	return nil
}

func (t issueTx) IssueWatch(ctx context.Context, userID, issueID forge.ID) (*issues.IssueWatch, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, w := range t.st.issueWatch {
		if w.UserID == userID && w.IssueID == issueID {
			if _, ok := t.st.users[userID]; ok {
				return &w, nil
			}
		}
	}
	return nil, notFound("issue watch")
}

func (t issueTx) IssueWatchers(ctx context.Context, issueID forge.ID, o forge.ListOptions) ([]*issues.IssueWatch, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.issueWatch, func(w issues.IssueWatch) bool {
		_, ok := t.st.users[w.UserID]
		return ok && w.IssueID == issueID && w.IsWatching
	})
	out, n := sortedPage(all, func(a, b issues.IssueWatch) int { return cmp.Compare(a.ID, b.ID) }, o)
	return out, n, nil
}

func (t issueTx) PinnedIssues(ctx context.Context, repoID forge.ID, isPull bool) ([]*issues.Issue, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	var all []issues.Issue
	for _, i := range t.st.issues {
		if i.RepoID == repoID && i.IsPull == isPull && i.PinOrder > 0 {
			all = append(all, i)
		}
	}
	slices.SortFunc(all, func(a, b issues.Issue) int {
		return cmp.Or(cmp.Compare(a.PinOrder, b.PinOrder), cmp.Compare(a.ID, b.ID))
	})
	out := make([]*issues.Issue, 0, len(all))
	for _, i := range all {
		out = append(out, outIssue(i))
	}
	return out, nil
}

func (t issueTx) CreateCrossRef(ctx context.Context, r *issues.CrossRef) error {
	if err := writeRef(ctx, t, t.st.comments, r.CommentID, "create cross-reference: comment"); err != nil {
		return err
	}
	t.st.crossRefs[r.CommentID] = *r
	return nil
}

func (t issueTx) CrossRefs(ctx context.Context, commentIDs []forge.ID) (map[forge.ID]*issues.CrossRef, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]*issues.CrossRef{}
	for _, id := range commentIDs {
		if r, ok := t.st.crossRefs[id]; ok {
			if _, live := t.st.comments[id]; live {
				out[id] = &r
			}
		}
	}
	return out, nil
}

func (t issueTx) CrossRefsFrom(ctx context.Context, refIssueID, refCommentID forge.ID) ([]*issues.CrossRef, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	var all []issues.CrossRef
	for id, r := range t.st.crossRefs {
		if _, live := t.st.comments[id]; live && r.RefIssueID == refIssueID && r.RefCommentID == refCommentID {
			all = append(all, r)
		}
	}
	slices.SortFunc(all, func(a, b issues.CrossRef) int { return cmp.Compare(a.CommentID, b.CommentID) })
	out := make([]*issues.CrossRef, 0, len(all))
	for _, r := range all {
		out = append(out, &r)
	}
	return out, nil
}

func (t issueTx) SetCrossRefAction(ctx context.Context, commentID forge.ID, action issues.RefAction) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	r, ok := t.st.crossRefs[commentID]
	if _, live := t.st.comments[commentID]; !ok || !live {
		return notFound("cross-reference")
	}
	r.Action = action
	t.st.crossRefs[commentID] = r
	return nil
}
