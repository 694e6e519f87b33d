package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

// orgError writes the errors of organisation and team operations in
// Forgejo's shapes:
//   - an unknown (or invisible) {org}: orgAssignment's
//     `{"message":"GetOrgByName","errors":["user redirect does not exist [name: x]"]}`;
//   - an unknown user named in the path: GetUserByParams'
//     `{"message":"GetUserByName","errors":[…]}`;
//   - an unknown team, or a user or repository not in it: ctx.NotFound()'s
//     default body;
//   - a repository whose owner is no organisation on the repository team
//     routes: 405 `repo is not owned by an organization`;
//
// and everything else through writeError.
func (c *call) orgError(err error, overrides ...statusFor) {
	var name *orgs.NotFoundError
	switch {
	case errors.As(err, &name):
		label := "GetUserByName"
		if org := c.pathValue("org"); org != "" && strings.EqualFold(org, name.Name) {
			label = "GetOrgByName"
		}
		c.notFoundBody(label, err.Error())
	case errors.Is(err, orgs.ErrNotOrgRepo):
		c.errorStatus(http.StatusMethodNotAllowed, err.Error())
	case errors.Is(err, forge.ErrNotFound):
		c.notFound()
	default:
		c.writeError(err, overrides...)
	}
}

// userLookupError is orgError for the routes below /users/{username}: an
// unknown {username} is Forgejo's UserAssignmentAPI 404
// `{"message":"user redirect does not exist [name: x]"}`.
func (c *call) userLookupError(err error, overrides ...statusFor) {
	var name *orgs.NotFoundError
	if errors.As(err, &name) && strings.EqualFold(name.Name, c.pathValue("username")) {
		c.errorStatus(http.StatusNotFound, err.Error())
		return
	}
	c.orgError(err, overrides...)
}

// repoTeamError writes the errors of /repos/{owner}/{repo}/teams/**: an
// unknown owner or a repository the actor may not see as the repository
// routes answer them, the rest as orgError.
func (c *call) repoTeamError(err error) {
	var owner *repos.OwnerNotFoundError
	if errors.As(err, &owner) || errors.Is(err, repos.ErrRepoNotFound) {
		c.repoError(err)
		return
	}
	c.orgError(err)
}
