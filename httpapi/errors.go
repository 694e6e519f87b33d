package httpapi

import (
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge"
)

// statusFor overrides the status of errors matching Err (by errors.Is).
// Handlers use it for Forgejo's per-operation choices (400 vs 422).
type statusFor struct {
	Err    error
	Status int
}

// on is shorthand for a statusFor.
func on(err error, status int) statusFor { return statusFor{err, status} }

// defaultStatus maps forge categories to HTTP statuses.
var defaultStatus = []statusFor{
	{forge.ErrNotFound, http.StatusNotFound},
	{forge.ErrInvalid, http.StatusUnprocessableEntity},
	{forge.ErrConflict, http.StatusConflict},
	{forge.ErrForbidden, http.StatusForbidden},
	{forge.ErrUnauthenticated, http.StatusUnauthorized},
	{forge.ErrPrecondition, http.StatusUnprocessableEntity},
	{forge.ErrArchived, http.StatusLocked},
}

// writeError is the one place errors become responses: the first matching
// override, else the category's status, with Forgejo's body
// `{"message": <error text>, "url": <RootURL>api/swagger}`. Errors outside
// every category are 500s, logged, with the message blanked for
// non-administrators as in Forgejo's production mode.
func (c *call) writeError(err error, overrides ...statusFor) {
	if c.writeQuotaExceeded(err) { // 413 (quota_errors.go)
		return
	}
	for _, list := range [][]statusFor{overrides, defaultStatus} {
		for _, s := range list {
			if errors.Is(err, s.Err) {
				c.errorStatus(s.Status, err.Error())
				return
			}
		}
	}
	c.serverError(err)
}
