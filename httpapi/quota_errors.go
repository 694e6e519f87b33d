package httpapi

import (
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/quota"
)

// quotaExceededBody is Forgejo's APIQuotaExceeded body: no url field, the
// username omitted when empty; the owner is whose quota is exceeded.
type quotaExceededBody struct {
	Message  string `json:"message"`
	UserID   int64  `json:"user_id"`
	Username string `json:"username,omitempty"`
}

// writeQuotaExceeded answers a *quota.ExceededError with 413 and Forgejo's
// body, and reports whether err was one (writeError calls it first).
func (c *call) writeQuotaExceeded(err error) bool {
	var qe *quota.ExceededError
	if !errors.As(err, &qe) {
		return false
	}
	c.json(http.StatusRequestEntityTooLarge, quotaExceededBody{Message: "quota exceeded", UserID: qe.UserID, Username: qe.Username})
	return true
}
