package httpapi

import (
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// listReposOf lists the repositories a user starred (starred) or watches:
// GET /user/starred, /user/subscriptions (self) and
// /users/{username}/starred, /users/{username}/subscriptions.
func (a *API) listReposOf(self, starred bool) func(*call) {
	return func(c *call) {
		var uid forge.ID
		if self {
			uid = c.actor.UserID()
		} else {
			u, err := a.cfg.Auth.User(c.r.Context(), c.actor, c.pathValue("username"))
			if err != nil {
				c.writeError(err)
				return
			}
			uid = u.ID
		}
		f := repos.RepoFilter{WatchedBy: uid}
		if starred {
			f = repos.RepoFilter{StarredBy: uid}
		}
		o := c.listOptions()
		list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, f, o)
		if err != nil {
			c.repoError(err)
			return
		}
		c.writeRepos(list, total, o)
	}
}
