package hooks

// PackagistMessage is the body of a packagist delivery (Forgejo's
// PackagistPayload): the package to update.
type PackagistMessage struct {
	PackagistRepository struct {
		URL string `json:"url"`
	} `json:"repository"`
}

// packagistRequest posts the package URL of the hook's meta
// (package_url) to the hook's URL (Packagist's
// https://packagist.org/api/update-package?username=…&apiToken=…, as
// Forgejo's form builds it), whatever the event, as Forgejo does.
func packagistRequest(h *Hook, t *Task) (Request, error) {
	var m PackagistMessage
	m.PackagistRepository.URL = h.Meta["package_url"]
	return jsonRequest(h, t, m, h.URL)
}
