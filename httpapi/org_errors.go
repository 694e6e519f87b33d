package httpapi

import (
	"errors"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// orgError writes the errors of organisation and team operations in
// Forgejo's shapes: a missing (or invisible) organisation or user is
// APINotFound with the lookup's error in `errors`, as Forgejo's
// orgAssignment and GetUserByParams answer; everything else goes through
// writeError.
func (c *call) orgError(err error, overrides ...statusFor) {
	if errors.Is(err, forge.ErrNotFound) {
		c.notFoundBody("The target couldn't be found.", err.Error())
		return
	}
	c.writeError(err, overrides...)
}

// userLookupError is orgError for the routes below /users/{username}: an
// unknown user is Forgejo's UserAssignmentAPI 404.
func (c *call) userLookupError(err error, overrides ...statusFor) {
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
