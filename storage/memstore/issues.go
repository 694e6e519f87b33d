package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// issueTx implements issues.Tx over one memstore transaction: the
// memstore tx with the issues.Tx methods (kept apart so that their names
// never collide with repos.Tx's).
type issueTx struct{ *tx }

var (
	_ issues.Tx          = issueTx{}
	_ issues.BlockReader = issueTx{}
)

// Issues returns the store package issues consumes.
func (s *Store) Issues() issues.Store {
	return storeOf(s, func(t *tx) issues.Tx { return issueTx{t} })
}

// deleteRepoIssues removes what package issues keeps of a repository, as
// the SQL schema's cascades do: DeleteRepo calls it.
func (s *state) deleteRepoIssues(repoID forge.ID) {
	for id, i := range s.issues {
		if i.RepoID == repoID {
			s.deleteIssue(id)
		}
	}
	for id, l := range s.labels {
		if l.RepoID == repoID {
			s.deleteLabel(id)
		}
	}
	deleteWhere(s.milestones, func(_ forge.ID, m issues.Milestone) bool { return m.RepoID == repoID })
	delete(s.issueIndex, repoID)
}

// deleteUserIssues forgets a deleted account's assignments and, for an
// organisation, its labels, as the SQL schema's cascades do (its issues
// and comments stay, by a ghost). DeleteUser (and so DeleteOrg) calls it.
func (s *state) deleteUserIssues(userID forge.ID) {
	s.forgetMentions(0, userID)
	for id, l := range s.labels {
		if l.OrgID == userID {
			s.deleteLabel(id)
		}
	}
	for id, as := range s.assignees {
		if slices.Contains(as, userID) {
			rest := slices.DeleteFunc(slices.Clone(as), func(u forge.ID) bool { return u == userID })
			if len(rest) == 0 {
				delete(s.assignees, id)
			} else {
				s.assignees[id] = rest
			}
		}
	}
}

func (s *state) deleteIssue(id forge.ID) {
	delete(s.assignees, id)
	s.forgetMentions(id, 0)
	for c, cm := range s.comments {
		if cm.IssueID == id || cm.DependentIssueID == id { // a dependency event goes with the issue it names
			delete(s.comments, c)
		}
	}
	for k := range s.issueLabels {
		if k.issue == id {
			s.unlabel(k)
		}
	}
	// quota.go: releases the bytes of the attachments it deletes.
	s.deleteIssueAssetsWhere(func(_ forge.ID, a issues.Attachment) bool { return a.IssueID == id })
	delete(s.issues, id) // last: unlabel reads whether it was closed
}

func (s *state) deleteLabel(id forge.ID) {
	delete(s.labels, id)
	deleteWhere(s.issueLabels, func(k issueLabel, _ struct{}) bool { return k.label == id })
}

// ts* copy values in and out with times kept as SQL keeps them.

func inIssue(i *issues.Issue) issues.Issue {
	v := *i
	v.Deadline, v.Created, v.Updated, v.Closed = ts(i.Deadline), ts(i.Created), ts(i.Updated), ts(i.Closed)
	return v
}

func outIssue(i issues.Issue) *issues.Issue { return &i }

func inComment(c *issues.Comment) issues.Comment {
	v := *c
	v.Created, v.Updated = ts(c.Created), ts(c.Updated)
	return v
}

func inLabel(l *issues.Label) issues.Label {
	v := *l
	v.Archived = ts(l.Archived)
	return v
}

func inMilestone(m *issues.Milestone) issues.Milestone {
	v := *m
	v.Deadline, v.Created, v.Updated, v.Closed = ts(m.Deadline), ts(m.Created), ts(m.Updated), ts(m.Closed)
	return v
}

func (t issueTx) IsBlockedByAny(ctx context.Context, blockerIDs []forge.ID, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	for _, b := range blockerIDs {
		if _, ok := t.st.blocks[blockKey{b, userID}]; ok {
			return true, nil
		}
	}
	return false, nil
}

func (t issueTx) NextIssueIndex(ctx context.Context, repoID forge.ID) (int64, error) {
	if err := t.write(ctx); err != nil {
		return 0, err
	}
	if _, ok := t.st.repos[repoID]; !ok {
		return 0, missingRef("issue index: repository")
	}
	// CreateIssue raises the reservation to every index it writes, so the
	// reservation alone is the maximum.
	n := t.st.issueIndex[repoID] + 1
	t.st.issueIndex[repoID] = n
	return n, nil
}

func (t issueTx) CreateIssue(ctx context.Context, i *issues.Issue) error {
	if err := writeRef(ctx, t, t.st.repos, i.RepoID, "create issue: repository"); err != nil {
		return err
	}
	if err := conflictIf(t.st.issues, func(o issues.Issue) bool { return o.RepoID == i.RepoID && o.Index == i.Index }, "issue index"); err != nil {
		return err
	}
	if i.MilestoneID != 0 {
		if _, ok := t.st.milestones[i.MilestoneID]; !ok {
			return missingRef("create issue: milestone")
		}
	}
	i.ID = t.st.nextID("issue")
	t.st.issues[i.ID] = inIssue(i)
	if i.Index > t.st.issueIndex[i.RepoID] {
		t.st.issueIndex[i.RepoID] = i.Index
	}
	return nil
}

func (t issueTx) IssueByIndex(ctx context.Context, repoID forge.ID, index int64) (*issues.Issue, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, i := range t.st.issues {
		if i.RepoID == repoID && i.Index == index {
			return outIssue(i), nil
		}
	}
	return nil, notFound("issue")
}

func (t issueTx) IssueByID(ctx context.Context, id forge.ID) (*issues.Issue, error) {
	return readAs(ctx, t, t.st.issues, id, "issue", outIssue)
}

func (t issueTx) IssuesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Issue, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]*issues.Issue, len(ids))
	for _, id := range ids {
		if i, ok := t.st.issues[id]; ok {
			out[id] = outIssue(i)
		}
	}
	return out, nil
}

func (t issueTx) UpdateIssue(ctx context.Context, i *issues.Issue) error {
	old, err := writeRow(ctx, t, t.st.issues, i.ID, "update issue")
	if err != nil {
		return err
	}
	if i.MilestoneID != 0 {
		if _, ok := t.st.milestones[i.MilestoneID]; !ok {
			return missingRef("update issue: milestone")
		}
	}
	v := inIssue(i)
	v.RepoID, v.Index, v.Created = old.RepoID, old.Index, old.Created
	t.st.issues[i.ID] = v
	if old.IsClosed != v.IsClosed {
		// label counters count closed issues
		for k := range t.st.issueLabels {
			if k.issue == i.ID {
				l := t.st.labels[k.label]
				l.NumClosedIssues += b2i(v.IsClosed) - b2i(old.IsClosed)
				t.st.labels[k.label] = l
			}
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (t issueTx) DeleteIssue(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.issues, id, "delete issue", t.st.deleteIssue)
}

func (t issueTx) ListIssues(ctx context.Context, f issues.IssueFilter, o forge.ListOptions) ([]*issues.Issue, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.Issue
	for _, i := range t.st.issues {
		if t.st.issueMatches(&i, &f) {
			all = append(all, i)
		}
	}
	slices.SortFunc(all, issueOrder(f.Sort))
	lo, hi := o.Bounds(len(all))
	out := make([]*issues.Issue, 0, hi-lo)
	for _, i := range all[lo:hi] {
		out = append(out, outIssue(i))
	}
	return out, int64(len(all)), nil
}

func (s *state) issueMatches(i *issues.Issue, f *issues.IssueFilter) bool {
	inRepo := slices.Contains(f.RepoIDs, i.RepoID)
	if !inRepo && f.PublicRepos {
		r, ok := s.repos[i.RepoID]
		inRepo = ok && !r.Private
	}
	switch {
	case !inRepo:
		return false
	case f.State == issues.StateOpen && i.IsClosed, f.State == issues.StateClosed && !i.IsClosed:
		return false
	case f.IsPull != nil && *f.IsPull != i.IsPull:
		return false
	case f.PosterID != 0 && i.PosterID != f.PosterID:
		return false
	case f.AssigneeID != 0 && !slices.Contains(s.assignees[i.ID], f.AssigneeID):
		return false
	case f.MentionedID != 0 && !s.mentions[mentionKey{i.ID, f.MentionedID}]:
		return false
	case !f.UpdatedSince.IsZero() && i.Updated.Before(f.UpdatedSince):
		return false
	case !f.UpdatedBefore.IsZero() && i.Updated.After(f.UpdatedBefore):
		return false
	case f.MilestoneIDs != nil && !slices.Contains(f.MilestoneIDs, i.MilestoneID):
		return false
	}
	if f.LabelIDs != nil && !slices.ContainsFunc(f.LabelIDs, func(l forge.ID) bool {
		_, ok := s.issueLabels[issueLabel{i.ID, l}]
		return ok
	}) {
		return false
	}
	for _, set := range f.LabelSets {
		if !slices.ContainsFunc(set, func(l forge.ID) bool {
			_, ok := s.issueLabels[issueLabel{i.ID, l}]
			return ok
		}) {
			return false
		}
	}
	if f.LabelNames != nil && !slices.ContainsFunc(f.LabelNames, func(n string) bool {
		for k := range s.issueLabels {
			if k.issue == i.ID && s.labels[k.label].Name == n {
				return true
			}
		}
		return false
	}) {
		return false
	}
	if f.MilestoneNames != nil {
		m, ok := s.milestones[i.MilestoneID]
		if !ok || !slices.Contains(f.MilestoneNames, m.Title) {
			return false
		}
	}
	if f.Keyword != "" {
		k := strings.ToLower(f.Keyword)
		if !strings.Contains(strings.ToLower(i.Title), k) && !strings.Contains(strings.ToLower(i.Body), k) && !s.commentMatches(i.ID, k) {
			return false
		}
	}
	return true
}

// issueOrder is IssueFilter.Sort's order, ties broken by id descending (as
// Forgejo's lists end with "issue.id DESC").
func issueOrder(s issues.IssueSort) func(a, b issues.Issue) int {
	// Forgejo sorts by deadline_unix with 0 for none: last when nearest
	// first (as if the farthest), and last when farthest first too.
	due := func(i issues.Issue, far bool) int64 {
		switch {
		case !i.Deadline.IsZero():
			return i.Deadline.Unix()
		case far:
			return -1 << 62
		}
		return 1 << 62
	}
	return func(a, b issues.Issue) int {
		var c int
		switch s {
		case issues.IssueSortOldest:
			c = a.Created.Compare(b.Created)
		case issues.IssueSortRecentUpdate:
			c = b.Updated.Compare(a.Updated)
		case issues.IssueSortLeastUpdate:
			c = a.Updated.Compare(b.Updated)
		case issues.IssueSortMostComment:
			c = cmp.Compare(b.NumComments, a.NumComments)
		case issues.IssueSortLeastComment:
			c = cmp.Compare(a.NumComments, b.NumComments)
		case issues.IssueSortNearDueDate:
			c = cmp.Compare(due(a, false), due(b, false))
		case issues.IssueSortFarDueDate:
			c = cmp.Compare(due(b, true), due(a, true))
		default:
			c = b.Created.Compare(a.Created)
		}
		if c != 0 {
			return c
		}
		if s == issues.IssueSortOldest {
			return cmp.Compare(a.ID, b.ID)
		}
		return cmp.Compare(b.ID, a.ID)
	}
}

func (t issueTx) IssueCounts(ctx context.Context, repoIDs []forge.ID, pulls bool) (map[forge.ID]issues.IssueCount, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]issues.IssueCount{}
	for _, i := range t.st.issues {
		if i.IsPull != pulls || !slices.Contains(repoIDs, i.RepoID) {
			continue
		}
		c := out[i.RepoID]
		if i.IsClosed {
			c.Closed++
		} else {
			c.Open++
		}
		out[i.RepoID] = c
	}
	return out, nil
}

func (t issueTx) SetAssignees(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	if err := writeRef(ctx, t, t.st.issues, issueID, "set assignees: issue"); err != nil {
		return err
	}
	var ids []forge.ID
	for _, u := range userIDs {
		if _, ok := t.st.users[u]; !ok {
			return missingRef("set assignees: user")
		}
		if !slices.Contains(ids, u) {
			ids = append(ids, u)
		}
	}
	if len(ids) == 0 {
		delete(t.st.assignees, issueID)
	} else {
		t.st.assignees[issueID] = ids
	}
	return nil
}

func (t issueTx) Assignees(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID][]forge.ID{}
	for _, id := range issueIDs {
		if a := t.st.assignees[id]; len(a) > 0 {
			out[id] = slices.Clone(a)
		}
	}
	return out, nil
}
