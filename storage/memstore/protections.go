package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func clone[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append([]T{}, s...)
}

// copyProtection copies a rule; user whitelists are kept as ids only (the
// names are the service's view of them, as in the SQL backends).
func copyProtection(p *repos.BranchProtection) repos.BranchProtection {
	v := *p
	v.PushWhitelistUserIDs, v.PushWhitelistTeams = clone(p.PushWhitelistUserIDs), clone(p.PushWhitelistTeams)
	v.MergeWhitelistUserIDs, v.MergeWhitelistTeams = clone(p.MergeWhitelistUserIDs), clone(p.MergeWhitelistTeams)
	v.StatusCheckContexts = clone(p.StatusCheckContexts)
	v.ApprovalsWhitelistUserIDs = clone(p.ApprovalsWhitelistUserIDs)
	v.ApprovalsWhitelistTeams = clone(p.ApprovalsWhitelistTeams)
	v.PushWhitelistUsernames, v.MergeWhitelistUsernames, v.ApprovalsWhitelistUsernames = nil, nil, nil
	v.Created, v.Updated = ts(p.Created), ts(p.Updated)
	return v
}

// liveUsers returns ids without those of users that no longer exist (the
// SQL backends drop whitelist rows with their user).
func (s *state) liveUsers(ids []forge.ID) []forge.ID {
	var out []forge.ID // nil when empty, as the SQL backends read it
	for _, id := range ids {
		if _, ok := s.users[id]; ok {
			out = append(out, id)
		}
	}
	return out
}

// readProtection is the stored rule p as a read returns it.
func (s *state) readProtection(p *repos.BranchProtection) *repos.BranchProtection {
	v := copyProtection(p)
	v.PushWhitelistUserIDs = s.liveUsers(v.PushWhitelistUserIDs)
	v.MergeWhitelistUserIDs = s.liveUsers(v.MergeWhitelistUserIDs)
	v.ApprovalsWhitelistUserIDs = s.liveUsers(v.ApprovalsWhitelistUserIDs)
	return &v
}

// readTagProtection is the stored tag rule p as a read returns it.
func (s *state) readTagProtection(p *repos.TagProtection) *repos.TagProtection {
	v := copyTagProtection(p)
	v.WhitelistUserIDs = append([]forge.ID{}, s.liveUsers(v.WhitelistUserIDs)...) // never nil, as the SQL backends
	return &v
}

func (s *state) protectionByName(repoID forge.ID, rule string) (repos.BranchProtection, bool) {
	for _, p := range s.protections {
		if p.RepoID == repoID && p.RuleName == rule {
			return p, true
		}
	}
	return repos.BranchProtection{}, false
}

func protectionNotFound(rule string) error {
	return notFound("branch protection")
}

func (t *tx) CreateProtection(ctx context.Context, p *repos.BranchProtection) error {
	if err := writeRef(ctx, t, t.st.repos, p.RepoID, "branch protection"); err != nil {
		return err
	}
	if _, ok := t.st.protectionByName(p.RepoID, p.RuleName); ok {
		return conflict("branch protection")
	}
	v := copyProtection(p)
	v.ID = t.st.nextID("protected_branch")
	t.st.protections[v.ID] = v
	p.ID = v.ID
	return nil
}

func (t *tx) Protection(ctx context.Context, repoID forge.ID, rule string) (*repos.BranchProtection, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	p, ok := t.st.protectionByName(repoID, rule)
	if !ok {
		return nil, protectionNotFound(rule)
	}
	return t.st.readProtection(&p), nil
}

func (t *tx) ListProtections(ctx context.Context, repoID forge.ID) ([]*repos.BranchProtection, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	list := []*repos.BranchProtection{}
	for _, p := range t.st.protections {
		if p.RepoID == repoID {
			list = append(list, t.st.readProtection(&p))
		}
	}
	slices.SortFunc(list, func(a, b *repos.BranchProtection) int { return cmp.Compare(a.ID, b.ID) })
	return list, nil
}

// UpdateProtection writes the rule with id p.ID; its repository and
// creation time stay as stored.
func (t *tx) UpdateProtection(ctx context.Context, p *repos.BranchProtection) error {
	old, err := writeRow(ctx, t, t.st.protections, p.ID, "branch protection")
	if err != nil {
		return err
	}
	if o, ok := t.st.protectionByName(old.RepoID, p.RuleName); ok && o.ID != p.ID {
		return conflict("branch protection")
	}
	v := copyProtection(p)
	v.RepoID, v.Created = old.RepoID, old.Created
	t.st.protections[p.ID] = v
	return nil
}

func (t *tx) DeleteProtection(ctx context.Context, repoID forge.ID, rule string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	p, ok := t.st.protectionByName(repoID, rule)
	if !ok {
		return protectionNotFound(rule)
	}
	delete(t.st.protections, p.ID)
	return nil
}

// copyTagProtection copies a tag rule; its whitelist is kept as ids only.
func copyTagProtection(p *repos.TagProtection) repos.TagProtection {
	v := *p
	v.WhitelistUserIDs = append([]forge.ID{}, p.WhitelistUserIDs...)
	v.WhitelistUsernames = nil
	v.WhitelistTeams = append([]string{}, p.WhitelistTeams...)
	v.Created, v.Updated = ts(p.Created), ts(p.Updated)
	return v
}

func tagProtectionNotFound(id forge.ID) error {
	return notFound("tag protection")
}

func (t *tx) CreateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	if err := writeRef(ctx, t, t.st.repos, p.RepoID, "tag protection"); err != nil {
		return err
	}
	v := copyTagProtection(p)
	v.ID = t.st.nextID("protected_tag")
	t.st.tagProts[v.ID] = v
	p.ID = v.ID
	return nil
}

func (t *tx) TagProtection(ctx context.Context, repoID, id forge.ID) (*repos.TagProtection, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	p, ok := t.st.tagProts[id]
	if !ok || p.RepoID != repoID {
		return nil, tagProtectionNotFound(id)
	}
	return t.st.readTagProtection(&p), nil
}

func (t *tx) ListTagProtections(ctx context.Context, repoID forge.ID) ([]*repos.TagProtection, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	list := []*repos.TagProtection{}
	for _, p := range t.st.tagProts {
		if p.RepoID == repoID {
			list = append(list, t.st.readTagProtection(&p))
		}
	}
	slices.SortFunc(list, func(a, b *repos.TagProtection) int { return cmp.Compare(a.ID, b.ID) })
	return list, nil
}

// UpdateTagProtection writes the rule p.ID of repository p.RepoID; its
// creation time stays as stored.
func (t *tx) UpdateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	old, ok := t.st.tagProts[p.ID]
	if !ok || old.RepoID != p.RepoID {
		return notFound("tag protection")
	}
	v := copyTagProtection(p)
	v.Created = old.Created
	t.st.tagProts[p.ID] = v
	return nil
}

func (t *tx) DeleteTagProtection(ctx context.Context, repoID, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if p, ok := t.st.tagProts[id]; !ok || p.RepoID != repoID {
		return tagProtectionNotFound(id)
	}
	delete(t.st.tagProts, id)
	return nil
}

func (t *tx) SetTransfer(ctx context.Context, tr *repos.Transfer) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if tr.Doer == nil || tr.Recipient == nil {
		return forge.Errorf(forge.ErrInvalid, "repository transfer: invalid value")
	}
	if err := t.st.refs("repository transfer", tr.RepoID, tr.Doer.ID); err != nil {
		return err
	}
	if _, ok := t.st.users[tr.Recipient.ID]; !ok {
		return missingRef("repository transfer")
	}
	for _, id := range tr.TeamIDs {
		if _, ok := t.st.teams[id]; !ok {
			return missingRef("repository transfer")
		}
	}
	t.st.transfers[tr.RepoID] = transferRow{doer: tr.Doer.ID, recipient: tr.Recipient.ID, created: ts(tr.Created),
		teams: slices.Clone(tr.TeamIDs)}
	return nil
}

// Transfer returns the pending transfer with only the ids of its doer and
// recipient set, as the SQL backends do.
func (t *tx) Transfer(ctx context.Context, repoID forge.ID) (*repos.Transfer, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	tr, ok := t.st.transfers[repoID]
	if !ok {
		return nil, notFound("repository transfer")
	}
	return tr.transfer(repoID, t.st.teams), nil
}

func (t *tx) DeleteTransfer(ctx context.Context, repoID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	delete(t.st.transfers, repoID)
	return nil
}

func (t *tx) RecountForks(ctx context.Context, repoID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	r, ok := t.st.repos[repoID]
	if !ok {
		return nil // an UPDATE that matches no row
	}
	r.NumForks = 0
	for _, f := range t.st.repos {
		if f.ForkID == repoID {
			r.NumForks++
		}
	}
	t.st.repos[repoID] = r
	return nil
}
