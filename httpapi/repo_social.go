package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// presence is presenceOr for the repository services' checks (errors
// through repoError).
func (c *call) presence(ok bool, err error) {
	c.presenceOr(ok, err, with(c.repoError))
}

// listCollaborators is GET /repos/{owner}/{repo}/collaborators.
func (a *API) listCollaborators(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.ListCollaborators(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	pageAs(c, list, total, o, err, with(c.repoError), each(func(cl repos.Collaborator) wire.User { return c.toUser(cl.User) }))
}

// checkCollaborator is GET /repos/{owner}/{repo}/collaborators/{collaborator}:
// 204 if one, 404 otherwise.
func (a *API) checkCollaborator(c *call) {
	c.presence(a.cfg.Repos.IsCollaborator(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("collaborator")))
}

// addCollaborator is PUT /repos/{owner}/{repo}/collaborators/{collaborator}.
func (a *API) addCollaborator(c *call) {
	var o wire.AddCollaboratorOption
	if !c.decode(&o) {
		return
	}
	mode, err := repos.ParseAccessMode(string(valueOf(o.Permission)))
	if err == nil {
		err = a.cfg.Repos.AddCollaborator(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("collaborator"), mode)
	}
	if err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// deleteCollaborator is DELETE /repos/{owner}/{repo}/collaborators/{collaborator}.
func (a *API) deleteCollaborator(c *call) {
	c.noContentOr(a.cfg.Repos.RemoveCollaborator(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("collaborator")), with(c.repoError))
}

// collaboratorPermission is GET .../collaborators/{collaborator}/permission.
func (a *API) collaboratorPermission(c *call) {
	u, mode, err := a.cfg.Repos.UserPermission(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("collaborator"))
	if err != nil {
		c.repoError(err)
		return
	}
	perm := repos.AccessModeString(mode)
	if mode == forge.AccessModeOwner {
		perm = "admin" // Forgejo reports owners as admin
	}
	user := c.toUser(u)
	c.json(http.StatusOK, wire.RepoCollaboratorPermission{Permission: perm, RoleName: perm, User: &user})
}

// toWatch answers Forgejo's WatchInfo; created_at is the repository's
// creation time, not the watch's (Forgejo's quirk, kept).
// Reason is always null, as Forgejo's.
func (c *call) toWatch(v *repos.View) wire.WatchInfo {
	api := c.repoAPIURL(v.Repo)
	return wire.WatchInfo{Subscribed: true, CreatedAt: apiTime(v.Repo.Created), URL: api + "/subscription", RepositoryURL: api}
}

// getSubscription is GET /repos/{owner}/{repo}/subscription: 404 when not
// watching.
func (a *API) getSubscription(c *call) {
	v, err := a.cfg.Repos.Subscription(c.r.Context(), c.actor, c.owner(), c.repo())
	jsonAs(c, http.StatusOK, v, err, with(c.repoError), c.toWatch)
}

// putSubscription is PUT /repos/{owner}/{repo}/subscription.
func (a *API) putSubscription(c *call) {
	v, err := a.cfg.Repos.Watch(c.r.Context(), c.actor, c.owner(), c.repo())
	jsonAs(c, http.StatusOK, v, err, with(c.repoError), c.toWatch)
}

// deleteSubscription is DELETE /repos/{owner}/{repo}/subscription: 204,
// also when not watching.
func (a *API) deleteSubscription(c *call) {
	c.noContentOr(a.cfg.Repos.Unwatch(c.r.Context(), c.actor, c.owner(), c.repo()), with(c.repoError))
}

// listSubscribers is GET /repos/{owner}/{repo}/subscribers.
func (a *API) listSubscribers(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.Watchers(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	pageAs(c, list, total, o, err, with(c.repoError), c.toUsers)
}

// listStargazers is GET /repos/{owner}/{repo}/stargazers.
func (a *API) listStargazers(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Repos.Stargazers(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	pageAs(c, list, total, o, err, with(c.repoError), c.toUsers)
}

// checkStarred is GET /user/starred/{owner}/{repo}: 204 or 404.
func (a *API) checkStarred(c *call) {
	c.presence(a.cfg.Repos.IsStarred(c.r.Context(), c.actor, c.owner(), c.repo()))
}

// star is PUT and DELETE /user/starred/{owner}/{repo}.
func (a *API) star(on bool) func(*call) {
	return func(c *call) {
		c.noContentOr(a.cfg.Repos.Star(c.r.Context(), c.actor, c.owner(), c.repo(), on), with(c.repoError))
	}
}

// listTopics is GET /repos/{owner}/{repo}/topics.
func (a *API) listTopics(c *call) {
	v, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	topics := v.Repo.Topics
	if topics == nil {
		topics = []string{}
	}
	c.json(http.StatusOK, wire.TopicName{TopicNames: topics})
}

// putTopics is PUT /repos/{owner}/{repo}/topics.
func (a *API) putTopics(c *call) {
	var o wire.RepoTopicOptions
	if !c.decode(&o) {
		return
	}
	if _, err := a.cfg.Repos.SetTopics(c.r.Context(), c.actor, c.owner(), c.repo(), valueOf(o.Topics)); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// addTopic and deleteTopic are PUT and DELETE /repos/{owner}/{repo}/topics/{topic}.
func (a *API) addTopic(c *call) {
	if _, err := a.cfg.Repos.AddTopic(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("topic")); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

func (a *API) deleteTopic(c *call) {
	if _, err := a.cfg.Repos.RemoveTopic(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("topic")); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}
