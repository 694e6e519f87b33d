package httpapi

import (
	"github.com/hearthforge/hearth/auth/oauthapps"
	"strings"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/cron"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/markup"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
)

// A gate is the permission check of an operation that Forgejo makes in
// its route middlewares (repoAssignment, reqRepoWriter, reqAdmin,
// reqOwner, reqOrgOwnership…) before it binds and validates the JSON
// body: serveRoute runs it after the scope, reqToken and reqSiteAdmin
// checks and before the handler, so that a caller without rights gets the
// same refusal (status and body) whatever the body, empty, no JSON or
// with invalid fields, instead of the 400/422 the handler would answer
// about the body. A gate checks what Forgejo checks before binding, no
// more: where Forgejo's handler checks the caller after binding (issue
// and pull request edits, file changes), the gate is the visibility of
// the repository or organisation, and an invalid body is 422 there as in
// Forgejo.
//
// A gate asks the domain service (a permission probe that runs the very
// check its operations run first, and changes nothing) and writes a
// refusal with the error writer of the operation's handler, so the answer
// is the one the operation gives with a valid body. It decides nothing:
// the service checks everything again when the handler calls it. A gate
// returns false when it answered.
type gate func(*call) bool

// check makes a gate of a probe and the handler's error writer.
func check(probe func(*call) error, write func(*call, error)) gate {
	return func(c *call) bool {
		if err := probe(c); err != nil {
			write(c, err)
			return false
		}
		return true
	}
}

// The handlers' error writers, as func(*call, error).
func repoErr(c *call, err error)     { c.repoError(err) }
func issueErr(c *call, err error)    { c.issueError(err) }
func orgErr(c *call, err error)      { c.orgError(err) }
func actionsErr(c *call, err error)  { c.actionsError(err) }
func hookErr(c *call, err error)     { c.hookError(err) }
func mirrorErr(c *call, err error)   { c.pushMirrorError(err) }
func wikiErr(c *call, err error)     { c.wikiError(err) }
func flagErr(c *call, err error)     { c.flagError(err) }
func orgLabelErr(c *call, err error) { c.orgLabelError(err) }

// declaration is what a domain declares of an operation it serves: its
// requirement and, when the requirement is gated, the gate running the
// domain's probe with the handler's error writer.
type declaration struct {
	req  forge.Requirement
	gate gate
}

// declarations are the operations whose domain states their requirement
// (forge.Requirement, by operationId): table derives their routes' scopes,
// token and administrator checks and gates from them. The repositories
// (repos.Requirements), issues and pull requests (issues.Requirements),
// users, tokens and their administration (auth.Requirements), webhooks
// (hooks.Requirements), Forgejo Actions (actions.Requirements),
// organisations and teams (orgs.Requirements), notifications
// (notify.Requirements) and quota (quota.Requirements, while enabled:
// disabled, its routes answer 404 to everyone) declare theirs; the other
// domains' requirements (mirrors, packages) are still written in the route
// table and in gates.
func (a *API) declarations() map[string]declaration {
	out := map[string]declaration{}
	declare := func(reqs map[string]forge.Requirement, probe func(op string) gate) {
		for op, req := range reqs {
			d := declaration{req: req}
			if req.Gate {
				d.gate = probe(op)
			}
			out[op] = d
		}
	}
	if a.cfg.Hooks != nil {
		probe := check(func(c *call) error {
			return a.cfg.Hooks.Authorize(c.r.Context(), c.actor, c.hookOwner())
		}, hookErr)
		declare(hooks.Requirements(), func(string) gate { return probe })
	}
	if a.cfg.Orgs != nil {
		declare(orgs.Requirements(), func(op string) gate {
			return func(c *call) bool {
				var team forge.ID
				if c.pathValue("id") != "" {
					id, ok := c.teamID()
					if !ok {
						return false
					}
					team = id
				}
				if err := a.cfg.Orgs.Authorize(c.r.Context(), c.actor, op, c.org(), team); err != nil {
					c.orgError(err)
					return false
				}
				return true
			}
		})
	}
	if a.cfg.Quota != nil && a.cfg.Quota.Enabled() {
		declare(quota.Requirements(), nil)
	}
	if a.cfg.Markup != nil {
		declare(markup.Requirements(), nil)
	}
	if a.cfg.Mirror != nil && a.cfg.Repos != nil {
		probe := check(func(c *call) error {
			return a.cfg.Mirror.AuthorizePush(c.r.Context(), c.actor, c.owner(), c.repo())
		}, mirrorErr)
		declare(mirror.Requirements(), func(string) gate { return probe })
	}
	if a.cfg.Packages != nil {
		declare(packages.Requirements(), nil)
	}
	if a.cfg.Federation.Enabled() {
		declare(federation.Requirements(), nil)
	}
	if a.cfg.Cron != nil {
		declare(cron.Requirements(), nil)
	}
	if a.cfg.Notify != nil {
		declare(notify.Requirements(), nil)
	}
	if a.cfg.GPGKeys != nil {
		declare(gpgkeys.Requirements(), nil)
	}
	if a.cfg.OAuthApps != nil {
		declare(oauthapps.Requirements(), nil)
	}
	if a.cfg.Feeds != nil {
		declare(feeds.Requirements(), nil)
	}
	if a.cfg.SSHKeys != nil {
		declare(sshkeys.Requirements(), nil)
	}
	if a.cfg.Repos != nil {
		// The wiki's and the flags' refusals are written as their
		// handlers write them.
		errs := map[string]func(*call, error){"repoCreateWikiPage": wikiErr, "repoEditWikiPage": wikiErr, "repoReplaceAllFlags": flagErr}
		declare(repos.Requirements(), func(op string) gate {
			writeErr, ok := errs[op]
			if !ok {
				writeErr = repoErr
			}
			if op == "createOrgRepo" {
				// Forgejo's orgAssignment: the organisation's visibility,
				// which forge/orgs decides (the route is served with it).
				return check(func(c *call) error {
					_, err := a.cfg.Orgs.Get(c.r.Context(), c.actor, c.org())
					return err
				}, orgErr)
			}
			return check(func(c *call) error {
				owner, name := c.namedRepo()
				return a.cfg.Repos.Authorize(c.r.Context(), c.actor, op, owner, name)
			}, writeErr)
		})
	}
	if a.cfg.Issues != nil {
		declare(issues.Requirements(), func(op string) gate { return a.issueGate(op) })
	}
	if a.cfg.Auth != nil {
		declare(auth.Requirements(), func(string) gate {
			return check(func(c *call) error {
				return a.cfg.Auth.AuthorizeTokens(c.r.Context(), c.actor, c.pathValue("username"))
			}, func(c *call, err error) { c.writeError(err) })
		})
	}
	if a.cfg.Actions != nil {
		declare(actions.Requirements(), func(op string) gate {
			return check(func(c *call) error {
				return a.cfg.Actions.Authorize(c.r.Context(), c.actor, op, actionsTarget(c))
			}, actionsErr)
		})
	}
	return out
}

// issueGate is the gate of the gated operation op of package issues: its
// probe (issues.Service.Authorize) on what the path names, with the error
// writer of op's handler (a pull request's writes issueError's: the
// merge answers pullError adds are not the probe's). An upload (POST
// …/assets) names its issue or comment by number, read as the upload's
// handler reads it; the organisation labels name the organisation.
func (a *API) issueGate(op string) gate {
	path := operationPath(op)
	upload := strings.HasSuffix(path, "/assets")
	comment := strings.Contains(path, "/comments/")
	write := issueErr
	switch {
	case upload:
		write = func(c *call, err error) { c.attachmentError(err) }
	case strings.HasPrefix(path, "/orgs/"):
		write = orgLabelErr
	}
	return func(c *call) bool {
		t := issues.Target{Owner: c.owner(), Name: c.repo(), Org: c.org()}
		if upload {
			at, ok := c.attachmentTarget(comment)
			if !ok {
				return false
			}
			t.Attachment = at
		}
		if err := a.cfg.Issues.Authorize(c.r.Context(), c.actor, op, t); err != nil {
			write(c, err)
			return false
		}
		return true
	}
}

// operationPath is the path of the operation op in Forgejo's document
// (operations_gen.go), "" for no operation.
func operationPath(op string) string {
	for _, o := range operations {
		if o.ID == op {
			return o.Path
		}
	}
	return ""
}
