package httpapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// OrgAvatarHandler serves /avatars/{key} as New will once it mounts
// serveAccountAvatar.
func (a *API) OrgAvatarHandler() http.Handler {
	r := chi.NewRouter()
	r.Get("/avatars/{key}", a.serveAccountAvatar)
	return r
}
