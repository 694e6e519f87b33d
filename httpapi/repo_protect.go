package httpapi

import (
	"net/http"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// branchProtectionJSON is Forgejo's BranchProtection (and, without the
// timestamps, CreateBranchProtectionOption and EditBranchProtectionOption).
type branchProtectionJSON struct {
	BranchName                    string    `json:"branch_name"`
	RuleName                      string    `json:"rule_name"`
	EnablePush                    bool      `json:"enable_push"`
	EnablePushWhitelist           bool      `json:"enable_push_whitelist"`
	PushWhitelistUsernames        []string  `json:"push_whitelist_usernames"`
	PushWhitelistTeams            []string  `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       bool      `json:"push_whitelist_deploy_keys"`
	EnableMergeWhitelist          bool      `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       []string  `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           []string  `json:"merge_whitelist_teams"`
	EnableStatusCheck             bool      `json:"enable_status_check"`
	StatusCheckContexts           []string  `json:"status_check_contexts"`
	RequiredApprovals             int64     `json:"required_approvals"`
	EnableApprovalsWhitelist      bool      `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   []string  `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       []string  `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        bool      `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests bool      `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         bool      `json:"block_on_outdated_branch"`
	DismissStaleApprovals         bool      `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          bool      `json:"ignore_stale_approvals"`
	RequireSignedCommits          bool      `json:"require_signed_commits"`
	ProtectedFilePatterns         string    `json:"protected_file_patterns"`
	UnprotectedFilePatterns       string    `json:"unprotected_file_patterns"`
	ApplyToAdmins                 bool      `json:"apply_to_admins"`
	Created                       time.Time `json:"created_at"`
	Updated                       time.Time `json:"updated_at"`
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func toProtection(p *repos.BranchProtection) branchProtectionJSON {
	branch := p.RuleName
	if p.IsGlob() {
		branch = "" // the deprecated branch_name is empty for patterns
	}
	return branchProtectionJSON{
		BranchName: branch, RuleName: p.RuleName, EnablePush: p.EnablePush, EnablePushWhitelist: p.EnablePushWhitelist,
		PushWhitelistUsernames: nonNil(p.PushWhitelistUsernames), PushWhitelistTeams: nonNil(p.PushWhitelistTeams),
		PushWhitelistDeployKeys: p.PushWhitelistDeployKeys, EnableMergeWhitelist: p.EnableMergeWhitelist,
		MergeWhitelistUsernames: nonNil(p.MergeWhitelistUsernames), MergeWhitelistTeams: nonNil(p.MergeWhitelistTeams),
		EnableStatusCheck: p.EnableStatusCheck, StatusCheckContexts: nonNil(p.StatusCheckContexts),
		RequiredApprovals: p.RequiredApprovals, EnableApprovalsWhitelist: p.EnableApprovalsWhitelist,
		ApprovalsWhitelistUsernames: nonNil(p.ApprovalsWhitelistUsernames), ApprovalsWhitelistTeams: nonNil(p.ApprovalsWhitelistTeams),
		BlockOnRejectedReviews: p.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: p.BlockOnOfficialReviewRequests,
		BlockOnOutdatedBranch: p.BlockOnOutdatedBranch, DismissStaleApprovals: p.DismissStaleApprovals,
		IgnoreStaleApprovals: p.IgnoreStaleApprovals, RequireSignedCommits: p.RequireSignedCommits,
		ProtectedFilePatterns: p.ProtectedFilePatterns, UnprotectedFilePatterns: p.UnprotectedFilePatterns,
		ApplyToAdmins: p.ApplyToAdmins, Created: apiTime(p.Created), Updated: apiTime(p.Updated),
	}
}

// protectionEdit is EditBranchProtectionOption: every field optional.
type protectionEdit struct {
	EnablePush                    *bool     `json:"enable_push"`
	EnablePushWhitelist           *bool     `json:"enable_push_whitelist"`
	PushWhitelistUsernames        *[]string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            *[]string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       *bool     `json:"push_whitelist_deploy_keys"`
	EnableMergeWhitelist          *bool     `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       *[]string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           *[]string `json:"merge_whitelist_teams"`
	EnableStatusCheck             *bool     `json:"enable_status_check"`
	StatusCheckContexts           *[]string `json:"status_check_contexts"`
	RequiredApprovals             *int64    `json:"required_approvals"`
	EnableApprovalsWhitelist      *bool     `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   *[]string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       *[]string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        *bool     `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests *bool     `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         *bool     `json:"block_on_outdated_branch"`
	DismissStaleApprovals         *bool     `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          *bool     `json:"ignore_stale_approvals"`
	RequireSignedCommits          *bool     `json:"require_signed_commits"`
	ProtectedFilePatterns         *string   `json:"protected_file_patterns"`
	UnprotectedFilePatterns       *string   `json:"unprotected_file_patterns"`
	ApplyToAdmins                 *bool     `json:"apply_to_admins"`
}

func setp[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// edit is the typed edit the service applies (same fields, no JSON tags).
func (e protectionEdit) edit() repos.ProtectionEdit { return repos.ProtectionEdit(e) }

// listProtections is GET /repos/{owner}/{repo}/branch_protections.
func (a *API) listProtections(c *call) {
	list, err := a.cfg.Repos.ListProtections(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	out := make([]branchProtectionJSON, len(list))
	for i, p := range list {
		out[i] = toProtection(p)
	}
	c.json(http.StatusOK, out)
}

// getProtection is GET /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) getProtection(c *call) {
	p, err := a.cfg.Repos.GetProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toProtection(p))
}

// createProtection is POST /repos/{owner}/{repo}/branch_protections: 201;
// 400 without a rule name, 403 when the rule exists, 422 unknown users.
func (a *API) createProtection(c *call) {
	var o struct {
		BranchName string `json:"branch_name"`
		RuleName   string `json:"rule_name"`
		protectionEdit
	}
	if !c.decode(&o) {
		return
	}
	p := repos.BranchProtection{RuleName: o.RuleName}
	if p.RuleName == "" {
		p.RuleName = o.BranchName
	}
	o.protectionEdit.edit().Apply(&p)
	created, err := a.cfg.Repos.CreateProtection(c.r.Context(), c.actor, c.owner(), c.repo(), p)
	if err != nil {
		c.repoError(err, on(repos.ErrRuleNameEmpty, http.StatusBadRequest), on(forge.ErrConflict, http.StatusForbidden))
		return
	}
	c.json(http.StatusCreated, toProtection(created))
}

// editProtection is PATCH /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) editProtection(c *call) {
	var e protectionEdit
	if !c.decode(&e) {
		return
	}
	p, err := a.cfg.Repos.EditProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name"), e.edit())
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toProtection(p))
}

// deleteProtection is DELETE /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) deleteProtection(c *call) {
	if err := a.cfg.Repos.DeleteProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name")); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}
