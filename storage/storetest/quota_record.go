package storetest

// The recording wrappers of quota.Tx, and of the quota.UsageTx methods
// issues.Tx embeds (see record.go).

import (
	"context"
	"reflect"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
)

func addQuotaInterfaces(m map[string]reflect.Type) {
	m["quota.Tx"] = reflect.TypeFor[quota.Tx]()
}

func (r recBackend) Quota() quota.Store { return recQuotaStore{r.b.Quota(), r.rec} }

type recQuotaStore struct {
	s   quota.Store
	rec *recorder
}

func (r recQuotaStore) Update(ctx context.Context, fn func(quota.Tx) error) error {
	return r.s.Update(ctx, func(tx quota.Tx) error { return fn(recQuotaTx{tx, r.rec}) })
}

func (r recQuotaStore) View(ctx context.Context, fn func(quota.Tx) error) error {
	return r.s.View(ctx, func(tx quota.Tx) error { return fn(recQuotaTx{tx, r.rec}) })
}

type recQuotaTx struct {
	quota.Tx
	rec *recorder
}

func (x recQuotaTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("quota.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recQuotaTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("quota.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recQuotaTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("quota.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recQuotaTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("quota.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

func (x recQuotaTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.rec.hit("quota.Tx.UserByName")
	return x.Tx.UserByName(ctx, name)
}

func (x recQuotaTx) CreateRule(ctx context.Context, r *quota.Rule) error {
	x.rec.hit("quota.Tx.CreateRule")
	return x.Tx.CreateRule(ctx, r)
}

func (x recQuotaTx) RuleByName(ctx context.Context, name string) (*quota.Rule, error) {
	x.rec.hit("quota.Tx.RuleByName")
	return x.Tx.RuleByName(ctx, name)
}

func (x recQuotaTx) UpdateRule(ctx context.Context, r *quota.Rule) error {
	x.rec.hit("quota.Tx.UpdateRule")
	return x.Tx.UpdateRule(ctx, r)
}

func (x recQuotaTx) DeleteRule(ctx context.Context, name string) error {
	x.rec.hit("quota.Tx.DeleteRule")
	return x.Tx.DeleteRule(ctx, name)
}

func (x recQuotaTx) ListRules(ctx context.Context) ([]quota.Rule, error) {
	x.rec.hit("quota.Tx.ListRules")
	return x.Tx.ListRules(ctx)
}

func (x recQuotaTx) CreateGroup(ctx context.Context, name string) error {
	x.rec.hit("quota.Tx.CreateGroup")
	return x.Tx.CreateGroup(ctx, name)
}

func (x recQuotaTx) GroupByName(ctx context.Context, name string) (*quota.Group, error) {
	x.rec.hit("quota.Tx.GroupByName")
	return x.Tx.GroupByName(ctx, name)
}

func (x recQuotaTx) ListGroups(ctx context.Context) ([]quota.Group, error) {
	x.rec.hit("quota.Tx.ListGroups")
	return x.Tx.ListGroups(ctx)
}

func (x recQuotaTx) DeleteGroup(ctx context.Context, name string) error {
	x.rec.hit("quota.Tx.DeleteGroup")
	return x.Tx.DeleteGroup(ctx, name)
}

func (x recQuotaTx) AddGroupRule(ctx context.Context, group, rule string) error {
	x.rec.hit("quota.Tx.AddGroupRule")
	return x.Tx.AddGroupRule(ctx, group, rule)
}

func (x recQuotaTx) RemoveGroupRule(ctx context.Context, group, rule string) error {
	x.rec.hit("quota.Tx.RemoveGroupRule")
	return x.Tx.RemoveGroupRule(ctx, group, rule)
}

func (x recQuotaTx) AddGroupMember(ctx context.Context, group string, owner forge.ID) error {
	x.rec.hit("quota.Tx.AddGroupMember")
	return x.Tx.AddGroupMember(ctx, group, owner)
}

func (x recQuotaTx) RemoveGroupMember(ctx context.Context, group string, owner forge.ID) error {
	x.rec.hit("quota.Tx.RemoveGroupMember")
	return x.Tx.RemoveGroupMember(ctx, group, owner)
}

func (x recQuotaTx) RemoveMemberships(ctx context.Context, owner forge.ID) error {
	x.rec.hit("quota.Tx.RemoveMemberships")
	return x.Tx.RemoveMemberships(ctx, owner)
}

func (x recQuotaTx) GroupMembers(ctx context.Context, group string) ([]*forge.User, error) {
	x.rec.hit("quota.Tx.GroupMembers")
	return x.Tx.GroupMembers(ctx, group)
}

func (x recQuotaTx) ListAttachmentUsage(ctx context.Context, owner forge.ID, o forge.ListOptions) ([]quota.AttachmentUsage, int64, error) {
	x.rec.hit("quota.Tx.ListAttachmentUsage")
	return x.Tx.ListAttachmentUsage(ctx, owner, o)
}

func (x recQuotaTx) RecountUsage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("quota.Tx.RecountUsage")
	return x.Tx.RecountUsage(ctx, owner)
}

func (x recQuotaTx) RebuildUsage(ctx context.Context, owner forge.ID) error {
	x.rec.hit("quota.Tx.RebuildUsage")
	return x.Tx.RebuildUsage(ctx, owner)
}

func (x recQuotaTx) UsageOwners(ctx context.Context) ([]forge.ID, error) {
	x.rec.hit("quota.Tx.UsageOwners")
	return x.Tx.UsageOwners(ctx)
}

func (x recIssuesTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("issues.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recIssuesTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("issues.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recIssuesTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("issues.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recIssuesTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("issues.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

func (x recReposTx) Reserve(ctx context.Context, r *quota.Reservation) error {
	x.rec.hit("repos.Tx.Reserve")
	return x.Tx.Reserve(ctx, r)
}

func (x recReposTx) ReleaseReservation(ctx context.Context, id forge.ID) error {
	x.rec.hit("repos.Tx.ReleaseReservation")
	return x.Tx.ReleaseReservation(ctx, id)
}

func (x recReposTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.rec.hit("repos.Tx.AddUsage")
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x recReposTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.rec.hit("repos.Tx.Usage")
	return x.Tx.Usage(ctx, owner)
}

func (x recReposTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.rec.hit("repos.Tx.QuotaGroupsOf")
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x recReposTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.rec.hit("repos.Tx.QuotaGroupsNamed")
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

var (
	_ issues.Tx = recIssuesTx{}
	_ repos.Tx  = recReposTx{}
)
