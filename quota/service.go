package quota

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// OrgRoles finds an organisation and the actor's role in it
// (forge/orgs.Service.MemberRole): owner for members of its Owners team and
// site administrators. A not-found error for organisations the actor may
// not see.
type OrgRoles interface {
	MemberRole(ctx context.Context, actor forge.Actor, org string) (o *forge.User, owner, member bool, err error)
}

// ServiceConfig configures a Service. Store is required.
type ServiceConfig struct {
	Store Store
	// Quota is the [quota] configuration.
	Quota Config
	// Orgs resolves organisations for /orgs/{org}/quota*. Nil answers those
	// calls with forge.ErrNotFound.
	Orgs OrgRoles
}

// Service reads quota for owners and administers rules, groups and
// memberships. Every method checks the actor itself: token scopes
// (read:user for the actor's own quota, read:organization for an
// organisation's, read:admin/write:admin for the administration) and
// roles (organisation owner, site administrator). It is safe for
// concurrent use.
type Service struct {
	cfg   ServiceConfig
	store Store
}

// Info is an owner's quota as Forgejo's QuotaInfo: usage and the groups
// that apply. Groups is empty (not nil) when only the built-in default
// applies. In the user and organisation views names are blank.
type Info struct {
	Used   Used
	Groups []Group
}

// Target names whose quota a user-side call reads: the actor's own (Org
// "") or organisation Org's (the actor must own it).
type Target struct{ Org string }

// RuleOption creates a rule (CreateQuotaRuleOptions). Limit nil is
// "[Limit]: Required" for CreateRule and 0 (deny) inside CreateGroup.
type RuleOption struct {
	Name     string
	Limit    *int64
	Subjects []string
}

// RuleEdit changes a rule (EditQuotaRuleOptions): nil fields are left
// unchanged.
type RuleEdit struct {
	Limit    *int64
	Subjects *[]string
}

// GroupOption creates a group with rules (CreateQuotaGroupOptions).
type GroupOption struct {
	Name  string
	Rules []RuleOption
}
