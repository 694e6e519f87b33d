package httpapi

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/quota"
)

// The quota handlers (routes_quota.go). Every rule (who may read whose
// quota, the evaluation, the messages) is quota.Service's.

// quotaTarget is the actor's own quota, or the organisation of the path.
func (c *call) quotaTarget(org bool) quota.Target {
	if org {
		return quota.Target{Org: c.pathValue("org")}
	}
	return quota.Target{}
}

func toQuotaUsed(u quota.Used) wire.QuotaUsed {
	var w wire.QuotaUsed
	w.Size.Repos.Public, w.Size.Repos.Private = u.ReposPublic, u.ReposPrivate
	w.Size.Git.LFS = u.LFS
	w.Size.Assets.Attachments.Issues, w.Size.Assets.Attachments.Releases = u.AttachmentsIssues, u.AttachmentsReleases
	w.Size.Assets.Artifacts, w.Size.Assets.Packages.All = u.Artifacts, u.Packages
	return w
}

// toQuotaRule is Forgejo's QuotaRuleInfo: name and subjects omitted when
// empty (the user views blank the names).
func toQuotaRule(r quota.Rule) wire.QuotaRuleInfo {
	w := wire.QuotaRuleInfo{Limit: r.Limit}
	if r.Name != "" {
		w.Name = ptrTo(r.Name)
	}
	if len(r.Subjects) > 0 {
		s := make([]string, len(r.Subjects))
		for i, v := range r.Subjects {
			s[i] = v.String()
		}
		w.Subjects = &s
	}
	return w
}

func toQuotaGroup(g quota.Group) wire.QuotaGroup {
	w := wire.QuotaGroup{Rules: make([]wire.QuotaRuleInfo, len(g.Rules))}
	if g.Name != "" {
		w.Name = ptrTo(g.Name)
	}
	for i, r := range g.Rules {
		w.Rules[i] = toQuotaRule(r)
	}
	return w
}

func toQuotaGroups(gs []quota.Group) wire.QuotaGroupList {
	out := make(wire.QuotaGroupList, len(gs))
	for i, g := range gs {
		out[i] = toQuotaGroup(g)
	}
	return out
}

func toQuotaInfo(i *quota.Info) wire.QuotaInfo {
	gs := toQuotaGroups(i.Groups)
	return wire.QuotaInfo{Used: toQuotaUsed(i.Used), Groups: &gs}
}

// quotaInfo is GET /user/quota and /orgs/{org}/quota: names blank.
func (a *API) quotaInfo(org bool) func(*call) {
	return func(c *call) {
		info, err := a.cfg.Quota.Info(c.r.Context(), c.actor, c.quotaTarget(org))
		jsonAs(c, http.StatusOK, info, err, with(c.writeError), toQuotaInfo)
	}
}

// quotaCheck is GET /user/quota/check and /orgs/{org}/quota/check: a bare
// JSON boolean; 422 for a missing or unknown subject.
func (a *API) quotaCheck(org bool) func(*call) {
	return func(c *call) {
		ok, err := a.cfg.Quota.Check(c.r.Context(), c.actor, c.quotaTarget(org), c.r.URL.Query().Get("subject"))
		c.jsonOr(http.StatusOK, ok, err, with(c.writeError))
	}
}

// toQuotaAttachment is Forgejo's QuotaUsedAttachment: the URLs of the
// release, comment or issue that holds it (services/convert/quota.go).
func (c *call) toQuotaAttachment(u quota.AttachmentUsage) wire.QuotaUsedAttachment {
	root := c.rootURL()
	repoAPI := fmt.Sprintf("%sapi/v1/repos/%s/%s", root, u.OwnerName, u.RepoName)
	repoHTML := fmt.Sprintf("%s%s/%s", root, u.OwnerName, u.RepoName)
	var api, html string
	switch {
	case u.ReleaseID != 0:
		api = fmt.Sprintf("%s/releases/%d", repoAPI, u.ReleaseID)
		html = repoHTML + "/releases/tag/" + convert.PathEscapeSegments(u.TagName)
	case u.Index != 0:
		kind := "issues"
		if u.IsPull {
			kind = "pulls"
		}
		api = fmt.Sprintf("%s/issues/%d", repoAPI, u.Index)
		html = fmt.Sprintf("%s/%s/%d", repoHTML, kind, u.Index)
		if u.CommentID != 0 {
			api = fmt.Sprintf("%s/issues/comments/%d", repoAPI, u.CommentID)
			html = fmt.Sprintf("%s#issuecomment-%d", html, u.CommentID)
		}
	}
	w := wire.QuotaUsedAttachment{Name: u.Name, Size: u.Size, APIURL: fmt.Sprintf("%s/assets/%d", api, u.ID)}
	w.ContainedIn.APIURL, w.ContainedIn.HTMLURL = ptrTo(api), ptrTo(html)
	return w
}

// quotaAttachments is GET /user/quota/attachments and the organisation's.
func (a *API) quotaAttachments(org bool) func(*call) {
	return func(c *call) {
		o := c.listOptions()
		list, total, err := a.cfg.Quota.ListAttachments(c.r.Context(), c.actor, c.quotaTarget(org), o)
		if err != nil {
			c.writeError(err)
			return
		}
		out := make(wire.QuotaUsedAttachmentList, len(list))
		for i, u := range list {
			out[i] = c.toQuotaAttachment(u)
		}
		c.writePage(total, o, out)
	}
}

// quotaPackages is GET /user/quota/packages and the organisation's.
func (a *API) quotaPackages(org bool) func(*call) {
	return func(c *call) {
		o := c.listOptions()
		list, total, err := a.cfg.Quota.ListPackages(c.r.Context(), c.actor, c.quotaTarget(org), o)
		if err != nil {
			c.writeError(err)
			return
		}
		out := make(wire.QuotaUsedPackageList, len(list))
		for i, p := range list {
			// type is the display name, the address keeps the type's key
			// (Forgejo's Type.Name() and VersionHTMLURL).
			out[i] = wire.QuotaUsedPackage{Name: p.Name, Type: packages.Type(p.Type).Name(), Version: p.Version, Size: p.Size,
				HTMLURL: fmt.Sprintf("%s%s/-/packages/%s/%s/%s", c.rootURL(), p.OwnerName, url.PathEscape(p.Type),
					url.PathEscape(p.Name), url.PathEscape(p.Version))}
		}
		c.writePage(total, o, out)
	}
}

// quotaArtifacts is GET /user/quota/artifacts and the organisation's.
// html_url is always "" as Forgejo's (its run's repository is never
// loaded: a Forgejo bug kept for compatibility).
func (a *API) quotaArtifacts(org bool) func(*call) {
	return func(c *call) {
		o := c.listOptions()
		list, total, err := a.cfg.Quota.ListArtifacts(c.r.Context(), c.actor, c.quotaTarget(org), o)
		if err != nil {
			c.writeError(err)
			return
		}
		out := make(wire.QuotaUsedArtifactList, len(list))
		for i, p := range list {
			out[i] = wire.QuotaUsedArtifact{Name: p.Name, Size: p.Size}
		}
		c.writePage(total, o, out)
	}
}

func (a *API) quotaAdminInfo(c *call) {
	info, err := a.cfg.Quota.AdminInfo(c.r.Context(), c.actor, c.pathValue("username"))
	jsonAs(c, http.StatusOK, info, err, with(c.writeError), toQuotaInfo)
}

// quotaSetUserGroups is POST /admin/users/{username}/quota/groups.
func (a *API) quotaSetUserGroups(c *call) {
	var body struct {
		Groups *[]string `json:"groups"`
	}
	if !c.decode(&body) {
		return
	}
	var groups []string
	if body.Groups != nil {
		groups = *body.Groups
		if groups == nil {
			groups = []string{}
		}
	}
	c.noContentOr(a.cfg.Quota.SetUserGroups(c.r.Context(), c.actor, c.pathValue("username"), groups), with(c.writeError))
}

func (a *API) quotaListRules(c *call) {
	rules, err := a.cfg.Quota.ListRules(c.r.Context(), c.actor)
	if err != nil {
		c.writeError(err)
		return
	}
	out := convertAll(rules, toQuotaRule)
	c.json(http.StatusOK, out)
}

func ruleOption(w wire.CreateQuotaRuleOptions) quota.RuleOption {
	o := quota.RuleOption{Name: valueOf(w.Name), Limit: w.Limit}
	if w.Subjects != nil {
		o.Subjects = *w.Subjects
	}
	return o
}

func (a *API) quotaCreateRule(c *call) {
	var body wire.CreateQuotaRuleOptions
	if !c.decode(&body) {
		return
	}
	r, err := a.cfg.Quota.CreateRule(c.r.Context(), c.actor, ruleOption(body))
	jsonAs(c, http.StatusCreated, r, err, with(c.writeError), pointee(toQuotaRule))
}

func (a *API) quotaGetRule(c *call) {
	r, err := a.cfg.Quota.GetRule(c.r.Context(), c.actor, c.pathValue("quotarule"))
	jsonAs(c, http.StatusOK, r, err, with(c.writeError), pointee(toQuotaRule))
}

func (a *API) quotaEditRule(c *call) {
	var body wire.EditQuotaRuleOptions
	if !c.decode(&body) {
		return
	}
	r, err := a.cfg.Quota.EditRule(c.r.Context(), c.actor, c.pathValue("quotarule"), quota.RuleEdit{Limit: body.Limit, Subjects: body.Subjects})
	jsonAs(c, http.StatusOK, r, err, with(c.writeError), pointee(toQuotaRule))
}

func (a *API) quotaDeleteRule(c *call) {
	c.noContentOr(a.cfg.Quota.DeleteRule(c.r.Context(), c.actor, c.pathValue("quotarule")), with(c.writeError))
}

func (a *API) quotaListGroups(c *call) {
	gs, err := a.cfg.Quota.ListGroups(c.r.Context(), c.actor)
	jsonAs(c, http.StatusOK, gs, err, with(c.writeError), toQuotaGroups)
}

func (a *API) quotaCreateGroup(c *call) {
	var body wire.CreateQuotaGroupOptions
	if !c.decode(&body) {
		return
	}
	o := quota.GroupOption{Name: valueOf(body.Name)}
	if body.Rules != nil {
		for _, r := range *body.Rules {
			o.Rules = append(o.Rules, ruleOption(r))
		}
	}
	g, err := a.cfg.Quota.CreateGroup(c.r.Context(), c.actor, o)
	jsonAs(c, http.StatusCreated, g, err, with(c.writeError), pointee(toQuotaGroup))
}

func (a *API) quotaGetGroup(c *call) {
	g, err := a.cfg.Quota.GetGroup(c.r.Context(), c.actor, c.pathValue("quotagroup"))
	jsonAs(c, http.StatusOK, g, err, with(c.writeError), pointee(toQuotaGroup))
}

func (a *API) quotaDeleteGroup(c *call) {
	c.noContentOr(a.cfg.Quota.DeleteGroup(c.r.Context(), c.actor, c.pathValue("quotagroup")), with(c.writeError))
}

// quotaGroupRule adds or removes a rule of a group: 204 both (Forgejo's
// document says 201 for the removal; Forgejo answers 204).
func (a *API) quotaGroupRule(add bool) func(*call) {
	return func(c *call) {
		f := a.cfg.Quota.RemoveGroupRule
		if add {
			f = a.cfg.Quota.AddGroupRule
		}
		c.noContentOr(f(c.r.Context(), c.actor, c.pathValue("quotagroup"), c.pathValue("quotarule")), with(c.writeError))
	}
}

func (a *API) quotaGroupUsers(c *call) {
	users, err := a.cfg.Quota.GroupMembers(c.r.Context(), c.actor, c.pathValue("quotagroup"))
	jsonAs(c, http.StatusOK, users, err, with(c.writeError), c.toUsers)
}

func (a *API) quotaGroupUser(add bool) func(*call) {
	return func(c *call) {
		f := a.cfg.Quota.RemoveGroupMember
		if add {
			f = a.cfg.Quota.AddGroupMember
		}
		c.noContentOr(f(c.r.Context(), c.actor, c.pathValue("quotagroup"), c.pathValue("username")), with(c.writeError))
	}
}
