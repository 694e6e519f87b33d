package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/hearthforge/hearth/httpapi/openapi"
)

// servedSpec is Forgejo's document cut down to the operations this handler serves,
// built once on first request.
type servedSpec struct {
	once sync.Once
	body []byte
	err  error
}

func (a *API) buildSpec() ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openapi.Forgejo, &doc); err != nil {
		return nil, err
	}
	served := map[string]map[string]bool{}
	table, _ := a.table()
	for _, rt := range table {
		if rt.missing {
			continue
		}
		if served[rt.Path] == nil {
			served[rt.Path] = map[string]bool{}
		}
		served[rt.Path][strings.ToLower(rt.Method)] = true
	}
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		ops, _ := item.(map[string]any)
		for method := range ops {
			if method != "parameters" && !served[path][method] {
				delete(ops, method)
			}
		}
		if len(ops) == 0 || (len(ops) == 1 && ops["parameters"] != nil) {
			delete(paths, path)
		}
	}
	info, _ := doc["info"].(map[string]any)
	if info != nil {
		info["description"] = "The operations of the Forgejo API that this Hearth server implements."
		info["x-hearth-version"] = Version
	}
	return json.Marshal(doc)
}

// serveSpec is GET /swagger.v1.json: Forgejo's document, limited to the
// operations Hearth implements.
func (a *API) serveSpec(w http.ResponseWriter, r *http.Request) {
	a.spec.once.Do(func() { a.spec.body, a.spec.err = a.buildSpec() })
	c := a.newCall(w, r)
	if a.spec.err != nil {
		c.serverError(a.spec.err)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	w.Write(a.spec.body)
}
