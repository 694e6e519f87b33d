package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
)

// quotaTx implements quota.Tx over one memstore transaction. The
// quota.UsageTx methods are on the base tx, so every domain Tx has them.
type quotaTx struct{ *tx }

var (
	_ quota.Tx      = quotaTx{}
	_ quota.UsageTx = (*tx)(nil)
)

// Quota returns the store package quota consumes.
func (s *Store) Quota() quota.Store { return storeOf(s, func(t *tx) quota.Tx { return quotaTx{t} }) }

// repoBucket keys a repository's counter; ownerBucket an account's own.
type repoBucket struct {
	repo forge.ID
	b    quota.Bucket
}

type ownerBucket struct {
	owner forge.ID
	b     quota.Bucket
}

type groupRule struct{ group, rule string }

type groupMember struct {
	group string
	owner forge.ID
}

// quotaState is the quota part of a state: rules, groups, their mappings,
// memberships and the usage counters. Counters of a deleted repository or
// account are never read again (ids are not reused).
type quotaState struct {
	rules      map[string]quota.Rule // Subjects never modified in place
	groups     map[string]struct{}
	groupRules map[groupRule]struct{}
	members    map[groupMember]struct{}
	repoUsage  map[repoBucket]int64
	ownerUsage map[ownerBucket]int64
	// reservations by id; one whose repository is gone is deleted with
	// it (live skips it: the SQL backends' ON DELETE CASCADE).
	reservations map[forge.ID]quota.Reservation
}

func (q quotaState) clone() quotaState {
	return quotaState{
		rules: cloneMap(q.rules), groups: cloneMap(q.groups),
		groupRules: cloneMap(q.groupRules), members: cloneMap(q.members),
		repoUsage: cloneMap(q.repoUsage), ownerUsage: cloneMap(q.ownerUsage),
		reservations: cloneMap(q.reservations),
	}
}

// liveReservation returns reservation id unless it is missing or its
// repository or account was deleted.
func (s *state) liveReservation(id forge.ID) (quota.Reservation, bool) {
	r, ok := s.quota.reservations[id]
	if !ok {
		return r, false
	}
	if _, ok := s.users[r.Owner.ID]; !ok {
		return r, false
	}
	if r.Owner.RepoID != 0 {
		if _, ok := s.repos[r.Owner.RepoID]; !ok {
			return r, false
		}
	}
	return r, true
}

// reserved sums the live reservations of owner by bucket.
func (s *state) reserved(owner forge.ID) quota.Used {
	var u quota.Used
	for id, r := range s.quota.reservations {
		if r.Owner.ID != owner {
			continue
		}
		if r, ok := s.liveReservation(id); ok {
			_ = u.Add(r.Bucket, r.Bytes)
		}
	}
	return u
}

// Reserve records a reservation (quota.ReservationTx).
func (t *tx) Reserve(ctx context.Context, r *quota.Reservation) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !r.Bucket.Valid() || r.Bytes < 0 {
		return forge.Errorf(forge.ErrInvalid, "reserve: bucket %q, %d bytes", string(r.Bucket), r.Bytes)
	}
	if _, ok := t.st.users[r.Owner.ID]; !ok {
		return missingRef("reserve: account")
	}
	if _, ok := t.st.repos[r.Owner.RepoID]; r.Owner.RepoID != 0 && !ok {
		return missingRef("reserve: repository")
	}
	for id, old := range t.st.quota.reservations {
		if _, live := t.st.liveReservation(id); !live || old.Owner.ID == r.Owner.ID && !ts(old.Expires).After(ts(r.Created)) {
			delete(t.st.quota.reservations, id)
		}
	}
	r.ID = t.st.nextID("quota_reservation")
	stored := *r
	stored.Created, stored.Expires = ts(r.Created), ts(r.Expires)
	t.st.quota.reservations[r.ID] = stored
	return nil
}

// ReleaseReservation deletes a reservation (quota.ReservationTx).
func (t *tx) ReleaseReservation(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	_, ok := t.st.liveReservation(id)
	delete(t.st.quota.reservations, id)
	if !ok {
		return forge.Errorf(forge.ErrNotFound, "quota reservation does not exist [id: %d]", id)
	}
	return nil
}

// countAsset adds delta to a repository's derived attachment counter: the
// attachment row writers call it, as the SQL backend's triggers do.
func (s *state) countAsset(repo forge.ID, b quota.Bucket, delta int64) {
	if delta == 0 {
		return
	}
	k := repoBucket{repo, b}
	if v := s.quota.repoUsage[k] + delta; v != 0 {
		s.quota.repoUsage[k] = v
	} else {
		delete(s.quota.repoUsage, k)
	}
}

// deleteIssueAssetsWhere deletes the issue attachments del selects and
// releases their bytes.
func (s *state) deleteIssueAssetsWhere(del func(forge.ID, issues.Attachment) bool) {
	for id, a := range s.issueAssets {
		if del(id, a) {
			s.countAsset(a.RepoID, quota.BucketAttachmentsIssues, -a.Size)
			delete(s.issueAssets, id)
		}
	}
}

// deleteReleaseAssetsWhere is deleteIssueAssetsWhere for release
// attachments.
func (s *state) deleteReleaseAssetsWhere(del func(forge.ID, repos.Attachment) bool) {
	for id, a := range s.attachments {
		if del(id, a) {
			s.countAsset(a.RepoID, quota.BucketAttachmentsReleases, -a.Size)
			delete(s.attachments, id)
		}
	}
}

// AddUsage adds to a repository's or an account's counter (quota.UsageTx).
func (t *tx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if !b.Valid() || b.Derived() {
		return forge.Errorf(forge.ErrInvalid, "add usage: bucket %q is not a counter", string(b))
	}
	if owner.RepoID != 0 {
		if _, ok := t.st.repos[owner.RepoID]; !ok {
			return missingRef("add usage: repository")
		}
		t.st.countAsset(owner.RepoID, b, delta)
		return nil
	}
	if _, ok := t.st.users[owner.ID]; !ok {
		return missingRef("add usage: account")
	}
	k := ownerBucket{owner.ID, b}
	if v := t.st.quota.ownerUsage[k] + delta; v != 0 {
		t.st.quota.ownerUsage[k] = v
	} else {
		delete(t.st.quota.ownerUsage, k)
	}
	return nil
}

// Usage sums an account's repositories and own counters (quota.UsageTx).
func (t *tx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	if err := t.read(ctx); err != nil {
		return quota.Used{}, err
	}
	var u quota.Used
	for _, r := range t.st.repos {
		if r.OwnerID != owner {
			continue
		}
		_ = u.Add(quota.RepoBucket(r.Private), r.Size)
		for _, b := range quota.Buckets {
			_ = u.Add(b, t.st.quota.repoUsage[repoBucket{r.ID, b}])
		}
	}
	held := t.st.reserved(owner)
	for _, b := range quota.Buckets {
		_ = u.Add(b, t.st.quota.ownerUsage[ownerBucket{owner, b}]+held.Get(b))
	}
	return u, nil
}

// group returns a group with its rules ordered by name.
func (s *state) quotaGroup(name string) quota.Group {
	g := quota.Group{Name: name, Rules: []quota.Rule{}}
	for k := range s.quota.groupRules {
		if k.group == name {
			g.Rules = append(g.Rules, copyRule(s.quota.rules[k.rule]))
		}
	}
	slices.SortFunc(g.Rules, func(a, b quota.Rule) int { return cmp.Compare(a.Name, b.Name) })
	return g
}

func copyRule(r quota.Rule) quota.Rule {
	r.Subjects = slices.Clone(r.Subjects)
	return r
}

func sortGroups(gs []quota.Group) []quota.Group {
	slices.SortFunc(gs, func(a, b quota.Group) int { return cmp.Compare(a.Name, b.Name) })
	return gs
}

// QuotaGroupsOf returns an account's explicit groups (quota.UsageTx).
func (t *tx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []quota.Group{}
	for k := range t.st.quota.members {
		if k.owner == owner {
			out = append(out, t.st.quotaGroup(k.group))
		}
	}
	return sortGroups(out), nil
}

// QuotaGroupsNamed returns the existing groups of names (quota.UsageTx).
func (t *tx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []quota.Group{}
	seen := map[string]bool{}
	for _, n := range names {
		if _, ok := t.st.quota.groups[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, t.st.quotaGroup(n))
		}
	}
	return sortGroups(out), nil
}
