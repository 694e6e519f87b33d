package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func (t issueTx) checkLabelOwner(l *issues.Label) error {
	if (l.RepoID == 0) == (l.OrgID == 0) {
		return forge.Errorf(forge.ErrInvalid, "label: exactly one of repository and organisation")
	}
	if l.RepoID != 0 {
		if _, ok := t.st.repos[l.RepoID]; !ok {
			return missingRef("label: repository")
		}
		return nil
	}
	if _, ok := t.st.users[l.OrgID]; !ok {
		return missingRef("label: organisation")
	}
	return nil
}

func (t issueTx) CreateLabel(ctx context.Context, l *issues.Label) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if err := t.checkLabelOwner(l); err != nil {
		return err
	}
	l.ID = t.st.nextID("label")
	v := inLabel(l)
	v.NumIssues, v.NumClosedIssues = 0, 0
	t.st.labels[l.ID] = v
	return nil
}

func (t issueTx) LabelByID(ctx context.Context, id forge.ID) (*issues.Label, error) {
	return readRow(ctx, t, t.st.labels, id, "label")
}

func (t issueTx) UpdateLabel(ctx context.Context, l *issues.Label) error {
	return updateRow(ctx, t, t.st.labels, l.ID, "update label", func(old issues.Label) issues.Label {
		v := inLabel(l)
		v.RepoID, v.OrgID = old.RepoID, old.OrgID
		v.NumIssues, v.NumClosedIssues = old.NumIssues, old.NumClosedIssues
		return v
	})
}

func (t issueTx) DeleteLabel(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.labels, id, "delete label", t.st.deleteLabel)
}

func (t issueTx) ListLabels(ctx context.Context, f issues.LabelFilter, o forge.ListOptions) ([]*issues.Label, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.Label
	for _, l := range t.st.labels {
		switch {
		case !(f.RepoID != 0 && l.RepoID == f.RepoID || f.OrgID != 0 && l.OrgID == f.OrgID):
			continue
		case f.IDs != nil && !slices.Contains(f.IDs, l.ID):
			continue
		case f.Names != nil && !slices.Contains(f.Names, l.Name):
			continue
		}
		all = append(all, l)
	}
	out, n := sortedPage(all, labelOrder(f.Sort), o)
	return out, n, nil
}

func labelOrder(s issues.LabelSort) func(a, b issues.Label) int {
	return func(a, b issues.Label) int {
		var c int
		switch s {
		case issues.LabelSortReverseAlpha:
			c = strings.Compare(b.Name, a.Name)
		case issues.LabelSortLeastIssues:
			c = cmp.Compare(a.NumIssues, b.NumIssues)
		case issues.LabelSortMostIssues:
			c = cmp.Compare(b.NumIssues, a.NumIssues)
		default:
			c = strings.Compare(a.Name, b.Name)
		}
		return cmp.Or(c, cmp.Compare(a.ID, b.ID))
	}
}

// unlabel takes a label off an issue and keeps the label's counters.
func (s *state) unlabel(k issueLabel) {
	if _, ok := s.issueLabels[k]; !ok {
		return
	}
	delete(s.issueLabels, k)
	if l, ok := s.labels[k.label]; ok {
		l.NumIssues--
		l.NumClosedIssues -= b2i(s.issues[k.issue].IsClosed)
		s.labels[k.label] = l
	}
}

func (t issueTx) SetIssueLabels(ctx context.Context, issueID forge.ID, labelIDs []forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	i, ok := t.st.issues[issueID]
	if !ok {
		return missingRef("set issue labels: issue")
	}
	for _, id := range labelIDs {
		if _, ok := t.st.labels[id]; !ok {
			return missingRef("set issue labels: label")
		}
	}
	for k := range t.st.issueLabels {
		if k.issue == issueID && !slices.Contains(labelIDs, k.label) {
			t.st.unlabel(k)
		}
	}
	for _, id := range labelIDs {
		k := issueLabel{issueID, id}
		if _, ok := t.st.issueLabels[k]; ok {
			continue
		}
		t.st.issueLabels[k] = struct{}{}
		l := t.st.labels[id]
		l.NumIssues++
		l.NumClosedIssues += b2i(i.IsClosed)
		t.st.labels[id] = l
	}
	return nil
}

func (t issueTx) IssueLabels(ctx context.Context, issueIDs []forge.ID) (map[forge.ID][]*issues.Label, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID][]*issues.Label{}
	for k := range t.st.issueLabels {
		if slices.Contains(issueIDs, k.issue) {
			l := t.st.labels[k.label]
			out[k.issue] = append(out[k.issue], &l)
		}
	}
	for _, ls := range out {
		issues.SortLabels(ls)
	}
	return out, nil
}

func (t issueTx) CreateMilestone(ctx context.Context, m *issues.Milestone) error {
	if err := writeRef(ctx, t, t.st.repos, m.RepoID, "create milestone: repository"); err != nil {
		return err
	}
	m.ID = t.st.nextID("milestone")
	t.st.milestones[m.ID] = inMilestone(m)
	return nil
}

func (t issueTx) MilestoneByID(ctx context.Context, repoID, id forge.ID) (*issues.Milestone, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	m, ok := t.st.milestones[id]
	if !ok || m.RepoID != repoID {
		return nil, notFound("milestone")
	}
	return &m, nil
}

func (t issueTx) MilestonesByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*issues.Milestone, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]*issues.Milestone, len(ids))
	for _, id := range ids {
		if m, ok := t.st.milestones[id]; ok {
			out[id] = &m
		}
	}
	return out, nil
}

func (t issueTx) UpdateMilestone(ctx context.Context, m *issues.Milestone) error {
	return updateRow(ctx, t, t.st.milestones, m.ID, "update milestone", func(old issues.Milestone) issues.Milestone {
		v := inMilestone(m)
		v.RepoID, v.Created = old.RepoID, old.Created
		return v
	})
}

func (t issueTx) DeleteMilestone(ctx context.Context, id forge.ID) error {
	return deleteRow(ctx, t, t.st.milestones, id, "delete milestone", func(id forge.ID) {
		delete(t.st.milestones, id)
		for iid, i := range t.st.issues {
			if i.MilestoneID == id {
				i.MilestoneID = 0
				t.st.issues[iid] = i
			}
		}
	})
}

func (t issueTx) ListMilestones(ctx context.Context, f issues.MilestoneFilter, o forge.ListOptions) ([]*issues.Milestone, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []issues.Milestone
	for _, m := range t.st.milestones {
		switch {
		case m.RepoID != f.RepoID:
			continue
		case f.State == issues.StateOpen && m.IsClosed, f.State == issues.StateClosed && !m.IsClosed:
			continue
		case f.Name != "" && m.Title != f.Name:
			continue
		case f.NameContains != "" && !strings.Contains(issues.UpperASCII(m.Title), issues.UpperASCII(f.NameContains)):
			continue
		case f.IDs != nil && !slices.Contains(f.IDs, m.ID):
			continue
		}
		all = append(all, m)
	}
	out, n := sortedPage(all, func(a, b issues.Milestone) int {
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	}, o)
	return out, n, nil
}
