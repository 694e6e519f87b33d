package issues

import (
	"embed"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// labelTemplateFS holds Forgejo's label template sets (options/label), one
// JSON file per set: a list of {name, exclusive, color, description}.
//
//go:embed options/label/*.json
var labelTemplateFS embed.FS

// LabelTemplate is one label of a template set.
type LabelTemplate struct {
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	Color       string `json:"color"`
	Description string `json:"description"`
}

// LabelTemplateNames returns the names of the label template sets, sorted
// (GET /label/templates).
func LabelTemplateNames() []string {
	entries, _ := labelTemplateFS.ReadDir("options/label") // embedded: cannot fail
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	slices.Sort(out)
	return out
}

// LabelTemplates returns the labels of the template set name (GET
// /label/templates/{name}), in the set's order. forge.ErrNotFound when
// there is no such set.
func LabelTemplates(name string) ([]LabelTemplate, error) {
	if !slices.Contains(LabelTemplateNames(), name) {
		return nil, forge.Errorf(forge.ErrNotFound, msgNotFound)
	}
	b, err := labelTemplateFS.ReadFile("options/label/" + name + ".json")
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, msgNotFound)
	}
	var out []LabelTemplate
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
