package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// Pull requests, reviews and scheduled merges (issues.PullTx). Rows whose
// issue is gone are treated as gone, as the SQL schema's cascades delete
// them with their issue.

func inPull(p *issues.PullRequest) issues.PullRequest {
	v := *p
	v.ConflictedFiles = slices.Clone(p.ConflictedFiles)
	v.ChangedProtectedFiles = slices.Clone(p.ChangedProtectedFiles)
	v.Merged = ts(p.Merged)
	return v
}

func outPull(p issues.PullRequest) *issues.PullRequest {
	v := inPull(&p)
	return &v
}

func (t issueTx) pullLive(p issues.PullRequest) bool {
	_, ok := t.st.issues[p.IssueID]
	return ok
}

func (t issueTx) CreatePull(ctx context.Context, p *issues.PullRequest) error {
	if err := writeRef(ctx, t, t.st.issues, p.IssueID, "create pull: issue"); err != nil {
		return err
	}
	if err := conflictIf(t.st.pulls, func(cur issues.PullRequest) bool { return cur.IssueID == p.IssueID }, "pull request of issue"); err != nil {
		return err
	}
	p.ID = t.st.nextID("pull_request")
	t.st.pulls[p.ID] = inPull(p)
	return nil
}

func (t issueTx) PullByIssueID(ctx context.Context, issueID forge.ID) (*issues.PullRequest, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, p := range t.st.pulls {
		if p.IssueID == issueID && t.pullLive(p) {
			return outPull(p), nil
		}
	}
	return nil, notFound("pull request")
}

func (t issueTx) PullsByIssueID(ctx context.Context, issueIDs []forge.ID) (map[forge.ID]*issues.PullRequest, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]*issues.PullRequest{}
	for _, p := range t.st.pulls {
		if slices.Contains(issueIDs, p.IssueID) && t.pullLive(p) {
			out[p.IssueID] = outPull(p)
		}
	}
	return out, nil
}

func (t issueTx) UpdatePull(ctx context.Context, p *issues.PullRequest) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	old, ok := t.st.pulls[p.ID]
	if !ok || !t.pullLive(old) {
		return notFound("update pull request")
	}
	v := inPull(p)
	v.IssueID, v.Index, v.BaseRepoID = old.IssueID, old.Index, old.BaseRepoID
	t.st.pulls[p.ID] = v
	return nil
}

func (t issueTx) FindPulls(ctx context.Context, f issues.PullFilter) ([]*issues.PullRequest, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []*issues.PullRequest{}
	for _, p := range t.matchPulls(f) {
		out = append(out, outPull(p))
	}
	return out, nil
}

// MarkPullsChecking marks the open pulls matching f.
func (t issueTx) MarkPullsChecking(ctx context.Context, f issues.PullFilter) ([]forge.ID, error) {
	if err := t.write(ctx); err != nil {
		return nil, err
	}
	f.Open = true
	out := []forge.ID{}
	for _, p := range t.matchPulls(f) {
		p.Status = issues.PullChecking
		t.st.pulls[p.ID] = p
		out = append(out, p.IssueID)
	}
	return out, nil
}

// matchPulls returns the stored pulls matching f, ordered by id.
func (t issueTx) matchPulls(f issues.PullFilter) []issues.PullRequest {
	var out []issues.PullRequest
	if f.BaseRepoID == 0 && f.HeadRepoID == 0 && f.IssueIDs == nil && !f.Checking {
		return out
	}
	for _, p := range t.st.pulls {
		is, ok := t.st.issues[p.IssueID]
		switch {
		case !ok:
			continue
		case f.BaseRepoID != 0 && p.BaseRepoID != f.BaseRepoID:
			continue
		case f.BaseBranch != "" && p.BaseBranch != f.BaseBranch:
			continue
		case f.HeadRepoID != 0 && p.HeadRepoID != f.HeadRepoID:
			continue
		case f.HeadBranch != "" && p.HeadBranch != f.HeadBranch:
			continue
		case f.Open && (is.IsClosed || p.HasMerged):
			continue
		case f.MergedCommitID != "" && p.MergedCommitID != f.MergedCommitID:
			continue
		case f.IssueIDs != nil && !slices.Contains(f.IssueIDs, p.IssueID):
			continue
		case f.Checking && p.Status != issues.PullChecking:
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b issues.PullRequest) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func inReview(r *issues.Review) issues.Review {
	v := *r
	v.Created, v.Updated = ts(r.Created), ts(r.Updated)
	return v
}

func (t issueTx) reviewLive(r issues.Review) bool {
	_, ok := t.st.issues[r.IssueID]
	return ok
}

func (t issueTx) CreateReview(ctx context.Context, r *issues.Review) error {
	if err := writeRef(ctx, t, t.st.issues, r.IssueID, "create review: issue"); err != nil {
		return err
	}
	r.ID = t.st.nextID("review")
	t.st.reviews[r.ID] = inReview(r)
	return nil
}

func (t issueTx) ReviewByID(ctx context.Context, id forge.ID) (*issues.Review, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	r, ok := t.st.reviews[id]
	if !ok || !t.reviewLive(r) {
		return nil, notFound("review")
	}
	return &r, nil
}

func (t issueTx) UpdateReview(ctx context.Context, r *issues.Review) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	old, ok := t.st.reviews[r.ID]
	if !ok || !t.reviewLive(old) {
		return notFound("update review")
	}
	v := inReview(r)
	v.IssueID, v.Created = old.IssueID, old.Created
	t.st.reviews[r.ID] = v
	return nil
}

func (t issueTx) DeleteReview(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	r, ok := t.st.reviews[id]
	if !ok || !t.reviewLive(r) {
		return notFound("delete review")
	}
	delete(t.st.reviews, id)
	for cid, c := range t.st.comments {
		if c.ReviewID == id {
			delete(t.st.comments, cid)
			deleteWhere(t.st.issueAssets, func(_ forge.ID, a issues.Attachment) bool { return a.CommentID == cid })
		}
	}
	return nil
}

func (t issueTx) ListReviews(ctx context.Context, f issues.ReviewFilter, o forge.ListOptions) ([]*issues.Review, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.Review
	for _, r := range t.st.reviews {
		switch {
		case r.IssueID != f.IssueID || !t.reviewLive(r):
			continue
		case f.Types != nil && !slices.Contains(f.Types, r.Type):
			continue
		case f.ReviewerID != 0 && r.ReviewerID != f.ReviewerID:
			continue
		case f.ReviewerTeamID != 0 && r.ReviewerTeamID != f.ReviewerTeamID:
			continue
		case f.Dismissed != nil && r.Dismissed != *f.Dismissed:
			continue
		}
		all = append(all, r)
	}
	list, n := pageOf(all, func(a, b issues.Review) int { return cmp.Compare(a.ID, b.ID) }, o)
	out := make([]*issues.Review, len(list))
	for k := range list {
		out[k] = &list[k]
	}
	return out, n, nil
}

func (t issueTx) ReviewComments(ctx context.Context, reviewIDs []forge.ID) (map[forge.ID][]*issues.Comment, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID][]*issues.Comment{}
	for _, c := range t.st.comments {
		if c.ReviewID != 0 && slices.Contains(reviewIDs, c.ReviewID) {
			if _, ok := t.st.issues[c.IssueID]; ok {
				v := c
				out[c.ReviewID] = append(out[c.ReviewID], &v)
			}
		}
	}
	for _, list := range out {
		slices.SortFunc(list, func(a, b *issues.Comment) int {
			return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
		})
	}
	return out, nil
}

func (t issueTx) CreateAutoMerge(ctx context.Context, m *issues.AutoMerge) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	p, ok := t.st.pulls[m.PullID]
	if !ok || !t.pullLive(p) {
		return missingRef("create auto merge: pull request")
	}
	if _, ok := t.st.autoMerges[m.PullID]; ok {
		return conflict("auto merge")
	}
	v := *m
	v.ID, v.Created = t.st.nextID("pull_auto_merge"), ts(m.Created)
	m.ID = v.ID
	t.st.autoMerges[m.PullID] = v
	return nil
}

func (t issueTx) AutoMergeByPull(ctx context.Context, pullID forge.ID) (*issues.AutoMerge, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	m, ok := t.st.autoMerges[pullID]
	if p, live := t.st.pulls[pullID]; !ok || !live || !t.pullLive(p) {
		return nil, notFound("auto merge")
	}
	return &m, nil
}

func (t issueTx) DeleteAutoMerge(ctx context.Context, pullID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, err := t.AutoMergeByPull(ctx, pullID); err != nil {
		return err
	}
	delete(t.st.autoMerges, pullID)
	return nil
}
