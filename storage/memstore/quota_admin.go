package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

func (t quotaTx) CreateRule(ctx context.Context, r *quota.Rule) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.rules[r.Name]; ok {
		return conflict("quota rule")
	}
	t.st.quota.rules[r.Name] = copyRule(*r)
	return nil
}

func (t quotaTx) RuleByName(ctx context.Context, name string) (*quota.Rule, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	r, ok := t.st.quota.rules[name]
	if !ok {
		return nil, notFound("quota rule")
	}
	r = copyRule(r)
	return &r, nil
}

func (t quotaTx) UpdateRule(ctx context.Context, r *quota.Rule) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.rules[r.Name]; !ok {
		return notFound("quota rule")
	}
	t.st.quota.rules[r.Name] = copyRule(*r)
	return nil
}

func (t quotaTx) DeleteRule(ctx context.Context, name string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.rules[name]; !ok {
		return notFound("quota rule")
	}
	delete(t.st.quota.rules, name)
	deleteWhere(t.st.quota.groupRules, func(k groupRule, _ struct{}) bool { return k.rule == name })
	return nil
}

func (t quotaTx) ListRules(ctx context.Context) ([]quota.Rule, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []quota.Rule{}
	for _, r := range t.st.quota.rules {
		out = append(out, copyRule(r))
	}
	slices.SortFunc(out, func(a, b quota.Rule) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

func (t quotaTx) CreateGroup(ctx context.Context, name string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.groups[name]; ok {
		return conflict("quota group")
	}
	t.st.quota.groups[name] = struct{}{}
	return nil
}

func (t quotaTx) GroupByName(ctx context.Context, name string) (*quota.Group, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	if _, ok := t.st.quota.groups[name]; !ok {
		return nil, notFound("quota group")
	}
	g := t.st.quotaGroup(name)
	return &g, nil
}

func (t quotaTx) ListGroups(ctx context.Context) ([]quota.Group, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []quota.Group{}
	for n := range t.st.quota.groups {
		out = append(out, t.st.quotaGroup(n))
	}
	return sortGroups(out), nil
}

func (t quotaTx) DeleteGroup(ctx context.Context, name string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.groups[name]; !ok {
		return notFound("quota group")
	}
	delete(t.st.quota.groups, name)
	deleteWhere(t.st.quota.groupRules, func(k groupRule, _ struct{}) bool { return k.group == name })
	deleteWhere(t.st.quota.members, func(k groupMember, _ struct{}) bool { return k.group == name })
	return nil
}

func (t quotaTx) AddGroupRule(ctx context.Context, group, rule string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.groups[group]; !ok {
		return missingRef("quota group rule: group")
	}
	if _, ok := t.st.quota.rules[rule]; !ok {
		return missingRef("quota group rule: rule")
	}
	k := groupRule{group, rule}
	if _, ok := t.st.quota.groupRules[k]; ok {
		return conflict("quota group rule")
	}
	t.st.quota.groupRules[k] = struct{}{}
	return nil
}

func (t quotaTx) RemoveGroupRule(ctx context.Context, group, rule string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := groupRule{group, rule}
	if _, ok := t.st.quota.groupRules[k]; !ok {
		return notFound("quota group rule")
	}
	delete(t.st.quota.groupRules, k)
	return nil
}

func (t quotaTx) AddGroupMember(ctx context.Context, group string, owner forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.quota.groups[group]; !ok {
		return missingRef("quota group member: group")
	}
	if _, ok := t.st.users[owner]; !ok {
		return missingRef("quota group member: account")
	}
	k := groupMember{group, owner}
	if _, ok := t.st.quota.members[k]; ok {
		return conflict("quota group member")
	}
	t.st.quota.members[k] = struct{}{}
	return nil
}

func (t quotaTx) RemoveGroupMember(ctx context.Context, group string, owner forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := groupMember{group, owner}
	if _, ok := t.st.quota.members[k]; !ok {
		return notFound("quota group member")
	}
	delete(t.st.quota.members, k)
	return nil
}

func (t quotaTx) RemoveMemberships(ctx context.Context, owner forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	deleteWhere(t.st.quota.members, func(k groupMember, _ struct{}) bool { return k.owner == owner })
	return nil
}

func (t quotaTx) GroupMembers(ctx context.Context, group string) ([]*forge.User, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	if _, ok := t.st.quota.groups[group]; !ok {
		return nil, notFound("quota group")
	}
	out := []*forge.User{}
	for k := range t.st.quota.members {
		if row, ok := t.st.users[k.owner]; ok && k.group == group {
			u := row.u
			out = append(out, &u)
		}
	}
	slices.SortFunc(out, func(a, b *forge.User) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// ListAttachmentUsage lists the issue, comment and release attachments of
// the owner's repositories by size descending, then id.
func (t quotaTx) ListAttachmentUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.AttachmentUsage, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []quota.AttachmentUsage
	for _, a := range t.st.issueAssets {
		r, ok := t.st.repos[a.RepoID]
		if !ok || r.OwnerID != owner {
			continue
		}
		u := quota.AttachmentUsage{ID: a.ID, Name: a.Name, Size: a.Size, RepoID: r.ID, OwnerName: t.st.users[r.OwnerID].u.Name,
			RepoName: r.Name, CommentID: a.CommentID}
		if is, ok := t.st.issues[a.IssueID]; ok {
			u.Index, u.IsPull = is.Index, is.IsPull
		}
		all = append(all, u)
	}
	for _, a := range t.st.attachments {
		r, ok := t.st.repos[a.RepoID]
		if !ok || r.OwnerID != owner {
			continue
		}
		all = append(all, quota.AttachmentUsage{ID: a.ID, Name: a.Name, Size: a.Size, RepoID: r.ID,
			OwnerName: t.st.users[r.OwnerID].u.Name, RepoName: r.Name, ReleaseID: a.ReleaseID, TagName: t.st.releases[a.ReleaseID].TagName})
	}
	slices.SortFunc(all, func(a, b quota.AttachmentUsage) int {
		return cmp.Or(cmp.Compare(b.Size, a.Size), cmp.Compare(a.ID, b.ID))
	})
	lo, hi := o.Bounds(len(all))
	return all[lo:hi], int64(len(all)), nil
}

// RecountUsage sums the source rows of the owner's repositories; LFS,
// artifacts and packages come from the optional recounters when this Tx
// has them, else from the counters.
func (t quotaTx) RecountUsage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	if err := t.read(ctx); err != nil {
		return quota.Used{}, err
	}
	counted, err := t.Usage(ctx, owner)
	if err != nil {
		return quota.Used{}, err
	}
	var u quota.Used
	for _, r := range t.st.repos {
		if r.OwnerID == owner {
			_ = u.Add(quota.RepoBucket(r.Private), r.Size)
		}
	}
	for _, a := range t.st.issueAssets {
		if r, ok := t.st.repos[a.RepoID]; ok && r.OwnerID == owner {
			u.AttachmentsIssues += a.Size
		}
	}
	for _, a := range t.st.attachments {
		if r, ok := t.st.repos[a.RepoID]; ok && r.OwnerID == owner {
			u.AttachmentsReleases += a.Size
		}
	}
	held := t.st.reserved(owner)
	u.LFS, u.Artifacts, u.Packages = counted.LFS-held.LFS, counted.Artifacts-held.Artifacts, counted.Packages-held.Packages
	var tx any = t
	if r, ok := tx.(quota.LFSUsageTx); ok {
		if u.LFS, err = r.RecountLFS(ctx, owner); err != nil {
			return quota.Used{}, err
		}
	}
	if r, ok := tx.(quota.ArtifactUsageTx); ok {
		if u.Artifacts, err = r.RecountArtifacts(ctx, owner); err != nil {
			return quota.Used{}, err
		}
	}
	if r, ok := tx.(quota.PackageUsageTx); ok {
		if u.Packages, err = r.RecountPackages(ctx, owner); err != nil {
			return quota.Used{}, err
		}
	}
	for _, b := range quota.Buckets { // reservations count as in Usage
		_ = u.Add(b, held.Get(b))
	}
	return u, nil
}

// RebuildUsage recounts the attachment counters of the owner's
// repositories from their rows.
func (t quotaTx) RebuildUsage(ctx context.Context, owner forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for k := range t.st.quota.repoUsage {
		if r, ok := t.st.repos[k.repo]; ok && r.OwnerID == owner && k.b.Derived() {
			delete(t.st.quota.repoUsage, k)
		}
	}
	for _, a := range t.st.issueAssets {
		if r, ok := t.st.repos[a.RepoID]; ok && r.OwnerID == owner {
			t.st.countAsset(a.RepoID, quota.BucketAttachmentsIssues, a.Size)
		}
	}
	for _, a := range t.st.attachments {
		if r, ok := t.st.repos[a.RepoID]; ok && r.OwnerID == owner {
			t.st.countAsset(a.RepoID, quota.BucketAttachmentsReleases, a.Size)
		}
	}
	return nil
}

func (t quotaTx) UsageOwners(ctx context.Context) ([]forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	seen := map[forge.ID]bool{}
	for k := range t.st.quota.repoUsage {
		if r, ok := t.st.repos[k.repo]; ok {
			seen[r.OwnerID] = true
		}
	}
	for k := range t.st.quota.ownerUsage {
		seen[k.owner] = true
	}
	for _, r := range t.st.repos {
		seen[r.OwnerID] = true
	}
	out := []forge.ID{}
	for id := range seen {
		if _, ok := t.st.users[id]; ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}
