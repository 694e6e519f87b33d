package httpapi

import (
	"errors"
	"net/http"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// quotaPushRefusal answers a push the owner's quota refuses
// (repos.Service.CheckPush's *quota.ExceededError), before git runs: in
// git's own report, each update refused with Forgejo's "Quota exceeded",
// when the client reads reports; else 413 with the quota body. It reports
// whether err was such a refusal.
func (a *API) quotaPushRefusal(w http.ResponseWriter, c *call, updates []repos.RefUpdate, caps []string, err error) bool {
	if !errors.Is(err, quota.ErrExceeded) {
		return false
	}
	if report := pushRefusal(updates, caps, "Quota exceeded"); report != nil {
		w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
		w.Header().Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
		w.Write(report)
		return true
	}
	return c.writeQuotaExceeded(err)
}
