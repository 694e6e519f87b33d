package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// toProtection converts a branch protection as Forgejo's
// convert.ToBranchProtection (lists never null).
func toProtection(p *repos.BranchProtection) wire.BranchProtection {
	branch := p.RuleName
	if p.IsGlob() {
		branch = "" // the deprecated branch_name is empty for patterns
	}
	return wire.BranchProtection{
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

func setp[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// protectionEdit is the typed edit of Forgejo's EditBranchProtectionOption
// (every field optional: nil leaves it unchanged).
func protectionEdit(o wire.EditBranchProtectionOption) repos.ProtectionEdit {
	return repos.ProtectionEdit{
		EnablePush:                    o.EnablePush,
		EnablePushWhitelist:           o.EnablePushWhitelist,
		PushWhitelistUsernames:        o.PushWhitelistUsernames,
		PushWhitelistTeams:            o.PushWhitelistTeams,
		PushWhitelistDeployKeys:       o.PushWhitelistDeployKeys,
		EnableMergeWhitelist:          o.EnableMergeWhitelist,
		MergeWhitelistUsernames:       o.MergeWhitelistUsernames,
		MergeWhitelistTeams:           o.MergeWhitelistTeams,
		EnableStatusCheck:             o.EnableStatusCheck,
		StatusCheckContexts:           o.StatusCheckContexts,
		RequiredApprovals:             o.RequiredApprovals,
		EnableApprovalsWhitelist:      o.EnableApprovalsWhitelist,
		ApprovalsWhitelistUsernames:   o.ApprovalsWhitelistUsernames,
		ApprovalsWhitelistTeams:       o.ApprovalsWhitelistTeams,
		BlockOnRejectedReviews:        o.BlockOnRejectedReviews,
		BlockOnOfficialReviewRequests: o.BlockOnOfficialReviewRequests,
		BlockOnOutdatedBranch:         o.BlockOnOutdatedBranch,
		DismissStaleApprovals:         o.DismissStaleApprovals,
		IgnoreStaleApprovals:          o.IgnoreStaleApprovals,
		RequireSignedCommits:          o.RequireSignedCommits,
		ProtectedFilePatterns:         o.ProtectedFilePatterns,
		UnprotectedFilePatterns:       o.UnprotectedFilePatterns,
		ApplyToAdmins:                 o.ApplyToAdmins,
	}
}

// protectionCreate is the rule name and the settings of Forgejo's
// CreateBranchProtectionOption: rule_name, else the deprecated branch_name.
// The create option is the edit option plus those two names, field for
// field and JSON name for JSON name, so its settings are read as one.
func protectionCreate(o wire.CreateBranchProtectionOption) (string, repos.ProtectionEdit) {
	var e wire.EditBranchProtectionOption
	if b, err := json.Marshal(o); err == nil {
		_ = json.Unmarshal(b, &e) // same names and types: cannot fail
	}
	return cmpOrStr(deref(o.RuleName), deref(o.BranchName)), protectionEdit(e)
}

// listProtections is GET /repos/{owner}/{repo}/branch_protections.
func (a *API) listProtections(c *call) {
	list, err := a.cfg.Repos.ListProtections(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	out := convertAll(list, toProtection)
	c.json(http.StatusOK, out)
}

// getProtection is GET /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) getProtection(c *call) {
	p, err := a.cfg.Repos.GetProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name"))
	jsonAs(c, http.StatusOK, p, err, with(c.repoError), toProtection)
}

// createProtection is POST /repos/{owner}/{repo}/branch_protections: 201;
// 400 without a rule name, 403 when the rule exists, 422 unknown users.
func (a *API) createProtection(c *call) {
	var o wire.CreateBranchProtectionOption
	if !c.decode(&o) {
		return
	}
	name, edit := protectionCreate(o)
	p := repos.BranchProtection{RuleName: name}
	edit.Apply(&p)
	created, err := a.cfg.Repos.CreateProtection(c.r.Context(), c.actor, c.owner(), c.repo(), p)
	jsonAs(c, http.StatusCreated, created, err, with(c.repoError, on(repos.ErrRuleNameEmpty, http.StatusBadRequest), on(forge.ErrConflict, http.StatusForbidden)), toProtection)
}

// editProtection is PATCH /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) editProtection(c *call) {
	var o wire.EditBranchProtectionOption
	if !c.decode(&o) {
		return
	}
	p, err := a.cfg.Repos.EditProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name"), protectionEdit(o))
	jsonAs(c, http.StatusOK, p, err, with(c.repoError), toProtection)
}

// deleteProtection is DELETE /repos/{owner}/{repo}/branch_protections/{name}.
func (a *API) deleteProtection(c *call) {
	c.noContentOr(a.cfg.Repos.DeleteProtection(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("name")), with(c.repoError))
}
