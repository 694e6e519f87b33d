package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toBranch converts a branch as Forgejo's convert.ToBranch; html is the
// repository's web URL, canMerge whether the caller may write.
func toBranch(html string, b *repos.Branch, canMerge bool) wire.Branch {
	cm := b.Commit
	out := wire.Branch{
		Name: b.Name,
		Commit: &wire.PayloadCommit{ID: cm.ID, Message: cm.Message, URL: html + "/commit/" + cm.ID,
			Author:       &wire.PayloadUser{Name: cm.Author.Name, Email: cm.Author.Email},
			Committer:    &wire.PayloadUser{Name: cm.Committer.Name, Email: cm.Committer.Email},
			Verification: unsigned(), Timestamp: cm.Committer.When.UTC()},
		Protected: b.Protected, UserCanPush: b.CanPush, UserCanMerge: canMerge, StatusCheckContexts: []string{},
	}
	if r := b.Rule; r != nil {
		out.RequiredApprovals, out.EnableStatusCheck = r.RequiredApprovals, r.EnableStatusCheck
		out.EffectiveBranchProtectionName = r.RuleName
		if r.StatusCheckContexts != nil {
			out.StatusCheckContexts = r.StatusCheckContexts
		}
	}
	return out
}

func (c *call) toBranch(v *repos.View, b *repos.Branch) wire.Branch {
	return toBranch(c.repoURL(v.Repo), b, v.CanWrite())
}

// listBranches is GET /repos/{owner}/{repo}/branches.
func (a *API) listBranches(c *call) {
	v, list, err := a.cfg.Repos.Branches(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	o := c.listOptions()
	total := len(list)
	out := []wire.Branch{}
	for _, b := range forge.Page(list, o) {
		out = append(out, c.toBranch(v, b))
	}
	c.writePage(int64(total), o, out)
}

// getBranch is GET /repos/{owner}/{repo}/branches/{branch}.
func (a *API) getBranch(c *call) {
	v, b, err := a.cfg.Repos.GetBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toBranch(v, b))
}

// createBranch is POST /repos/{owner}/{repo}/branches: 201 from
// old_ref_name, else old_branch_name, else the default branch.
func (a *API) createBranch(c *call) {
	var o wire.CreateBranchRepoOption
	if !c.decode(&o) || !c.present("NewBranchName", o.BranchName != "") {
		return
	}
	from := cmpOrStr(deref(o.OldRefName), deref(o.OldBranchName))
	v, b, err := a.cfg.Repos.CreateBranch(c.r.Context(), c.actor, c.owner(), c.repo(), o.BranchName, from)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, c.toBranch(v, b))
}

// deleteBranch is DELETE /repos/{owner}/{repo}/branches/{branch}.
func (a *API) deleteBranch(c *call) {
	c.noContentOr(a.cfg.Repos.DeleteBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch")), with(c.repoError))
}

// renameBranch is PATCH /repos/{owner}/{repo}/branches/{branch}: 204.
func (a *API) renameBranch(c *call) {
	var o wire.UpdateBranchRepoOption
	if !c.decode(&o) || !c.present("Name", o.Name != "") {
		return
	}
	c.noContentOr(a.cfg.Repos.RenameBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"), o.Name), with(c.repoError, on(forge.ErrConflict, http.StatusUnprocessableEntity)))
}

// cmpOrStr is the first non-empty value.
func cmpOrStr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
