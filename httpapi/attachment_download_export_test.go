package httpapi

import "net/http"

// DownloadAttachments exposes the /attachments/{uuid} handler to the
// tests of package httpapi_test until httpapi.go routes it.
func (a *API) DownloadAttachments() http.HandlerFunc { return a.downloadAttachments }
