package quota

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// The methods below are the Service's contract; their doc comments state
// the errors. Category of a missing account or organisation:
// forge.ErrNotFound; of a missing token scope or role: forge.ErrForbidden
// with Forgejo's message; of an anonymous actor: forge.ErrUnauthenticated.

// New returns a Service for cfg; forge.ErrInvalid without a Store.
func New(cfg ServiceConfig) (*Service, error) {
	if cfg.Store == nil {
		return nil, forge.Errorf(forge.ErrInvalid, "quota: ServiceConfig.Store is required")
	}
	return &Service{cfg: cfg, store: cfg.Store}, nil
}

// Enabled reports Config.Enabled: the quota API exists only when true.
func (s *Service) Enabled() bool { return s.cfg.Quota.Enabled }

// Config returns the [quota] configuration the Service was given.
func (s *Service) Config() Config { return s.cfg.Quota }

var errTODO = forge.Errorf(forge.ErrPrecondition, "quota: not implemented yet")

// Info returns the quota of t with names blank (GET /user/quota,
// /orgs/{org}/quota).
func (s *Service) Info(ctx context.Context, actor forge.Actor, t Target) (*Info, error) {
	return nil, errTODO
}

// Check reports whether t may still write into subject (GET
// /user/quota/check): Forgejo's evaluation with a delta of 0.
// forge.ErrInvalid "unrecognized quota limit subject: [subject: X]" for a
// missing or unknown subject.
func (s *Service) Check(ctx context.Context, actor forge.Actor, t Target, subject string) (bool, error) {
	return false, errTODO
}

// ListAttachments returns one page of the attachments charged to t, by size
// descending, and their number.
func (s *Service) ListAttachments(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]AttachmentUsage, int64, error) {
	return nil, 0, errTODO
}

// ListPackages returns one page of the package files charged to t (empty
// when the backend stores no packages).
func (s *Service) ListPackages(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]PackageUsage, int64, error) {
	return nil, 0, errTODO
}

// ListArtifacts returns one page of the unexpired artifacts charged to t.
func (s *Service) ListArtifacts(ctx context.Context, actor forge.Actor, t Target, o forge.ListOptions) ([]ArtifactUsage, int64, error) {
	return nil, 0, errTODO
}

// AdminInfo returns the quota of account username with names (GET
// /admin/users/{username}/quota).
func (s *Service) AdminInfo(ctx context.Context, actor forge.Actor, username string) (*Info, error) {
	return nil, errTODO
}

// SetUserGroups replaces the memberships of account username (POST
// /admin/users/{username}/quota/groups). groups nil changes nothing
// (Forgejo's quirk); forge.ErrInvalid "group not found: [group: X]" for a
// missing group, nothing changed.
func (s *Service) SetUserGroups(ctx context.Context, actor forge.Actor, username string, groups []string) error {
	return errTODO
}

// ListRules returns every rule with names.
func (s *Service) ListRules(ctx context.Context, actor forge.Actor) ([]Rule, error) {
	return nil, errTODO
}

// CreateRule creates a rule. forge.ErrInvalid "[Name]: Required",
// "[Limit]: Required", a subject error; forge.ErrConflict "rule already
// exists: [name: X]".
func (s *Service) CreateRule(ctx context.Context, actor forge.Actor, o RuleOption) (*Rule, error) {
	return nil, errTODO
}

// GetRule returns rule name; forge.ErrNotFound if none.
func (s *Service) GetRule(ctx context.Context, actor forge.Actor, name string) (*Rule, error) {
	return nil, errTODO
}

// EditRule changes rule name; forge.ErrNotFound; forge.ErrInvalid for a bad
// subject.
func (s *Service) EditRule(ctx context.Context, actor forge.Actor, name string, e RuleEdit) (*Rule, error) {
	return nil, errTODO
}

// DeleteRule removes rule name from everywhere; forge.ErrNotFound.
func (s *Service) DeleteRule(ctx context.Context, actor forge.Actor, name string) error {
	return errTODO
}

// ListGroups returns every group with its rules and names.
func (s *Service) ListGroups(ctx context.Context, actor forge.Actor) ([]Group, error) {
	return nil, errTODO
}

// CreateGroup creates a group and its rules in one transaction (existing
// rules are attached unchanged). forge.ErrInvalid "[Name]: Required";
// forge.ErrConflict "group already exists: [name: X]".
func (s *Service) CreateGroup(ctx context.Context, actor forge.Actor, o GroupOption) (*Group, error) {
	return nil, errTODO
}

// GetGroup returns group name; forge.ErrNotFound.
func (s *Service) GetGroup(ctx context.Context, actor forge.Actor, name string) (*Group, error) {
	return nil, errTODO
}

// DeleteGroup removes group name with its mappings; forge.ErrNotFound.
func (s *Service) DeleteGroup(ctx context.Context, actor forge.Actor, name string) error {
	return errTODO
}

// AddGroupRule attaches a rule; forge.ErrNotFound; forge.ErrConflict "rule
// already in group: [group: G, rule: R]".
func (s *Service) AddGroupRule(ctx context.Context, actor forge.Actor, group, rule string) error {
	return errTODO
}

// RemoveGroupRule detaches a rule; forge.ErrNotFound.
func (s *Service) RemoveGroupRule(ctx context.Context, actor forge.Actor, group, rule string) error {
	return errTODO
}

// GroupMembers lists the accounts of a group; forge.ErrNotFound.
func (s *Service) GroupMembers(ctx context.Context, actor forge.Actor, group string) ([]*forge.User, error) {
	return nil, errTODO
}

// AddGroupMember adds account username to a group; forge.ErrNotFound;
// forge.ErrConflict "user already in group: [group: G, userID: N]".
func (s *Service) AddGroupMember(ctx context.Context, actor forge.Actor, group, username string) error {
	return errTODO
}

// RemoveGroupMember removes account username from a group;
// forge.ErrNotFound.
func (s *Service) RemoveGroupMember(ctx context.Context, actor forge.Actor, group, username string) error {
	return errTODO
}

// Recount recomputes owner's usage from the source rows, repairs the
// counters when they drifted, and returns the drift (site administrators).
func (s *Service) Recount(ctx context.Context, actor forge.Actor, owner forge.ID) (Drift, error) {
	return Drift{}, errTODO
}
