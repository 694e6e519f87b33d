package openapi_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/hearthforge/hearth/httpapi/openapi"
)

// servedElsewhere are the schemas of the operations Hearth serves, which
// other helpers describe in required/repos.json and required/users.json
// while this list exists.
//
// servedElsewhere was the skip list of the schemas other work described
// at the same time; they are all described now.
var servedElsewhere = map[string]bool{}

var definitionRef = regexp.MustCompile(`#/definitions/([A-Za-z0-9_.]+)`)

// responseSchemas returns the names of the definitions a response of the
// OpenAPI 2 document doc can carry: those its operations' and its shared
// responses refer to, and those these refer to in turn. The shared response
// parameterBodies is skipped: go-swagger uses it to declare request bodies.
func responseSchemas(t *testing.T, doc []byte) map[string]bool {
	t.Helper()
	var d struct {
		Paths       map[string]map[string]json.RawMessage `json:"paths"`
		Responses   map[string]json.RawMessage            `json:"responses"`
		Definitions map[string]json.RawMessage            `json:"definitions"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	var todo []string
	refs := func(raw []byte) {
		for _, m := range definitionRef.FindAllSubmatch(raw, -1) {
			todo = append(todo, string(m[1]))
		}
	}
	for name, r := range d.Responses {
		if name != "parameterBodies" {
			refs(r)
		}
	}
	for _, ops := range d.Paths {
		for _, op := range ops {
			var o struct {
				Responses json.RawMessage `json:"responses"`
			}
			if json.Unmarshal(op, &o) == nil {
				refs(o.Responses)
			}
		}
	}
	seen := map[string]bool{}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[name] {
			continue
		}
		seen[name] = true
		refs(d.Definitions[name])
	}
	return seen
}

// hasProperties reports whether the definition name of doc is an object
// with properties (enums, arrays, scalars and free-form objects have no
// fields to require).
func hasProperties(t *testing.T, doc []byte, name string) bool {
	t.Helper()
	var d struct {
		Definitions map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	return len(d.Definitions[name].Properties) > 0
}

func TestResponseSchemas(t *testing.T) {
	t.Parallel()
	doc := []byte(`{
		"paths": {"/a": {"get": {"parameters": [{"in": "body", "schema": {"$ref": "#/definitions/Body"}}],
			"responses": {"200": {"schema": {"type": "array", "items": {"$ref": "#/definitions/Outer"}}}}}}},
		"responses": {"shared": {"schema": {"$ref": "#/definitions/Shared"}},
			"parameterBodies": {"schema": {"$ref": "#/definitions/Options"}}},
		"definitions": {
			"Outer": {"properties": {"in": {"$ref": "#/definitions/Inner"}}},
			"Inner": {"properties": {"x": {"type": "string"}}},
			"Shared": {"properties": {"self": {"$ref": "#/definitions/Shared"}}},
			"Body": {"properties": {"x": {"type": "string"}}},
			"Options": {"properties": {"x": {"type": "string"}}}
		}}`)
	got := responseSchemas(t, doc)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{"Inner", "Outer", "Shared"}; !slices.Equal(names, want) {
		t.Errorf("response schemas %v, want %v", names, want)
	}
}

// TestOverlayCoversResponses checks that every response schema of the
// document with properties is described by some required/*.json file, so
// that every generated response DTO says which fields Forgejo emits.
func TestOverlayCoversResponses(t *testing.T) {
	t.Parallel()
	rules, err := openapi.Rules()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(openapi.Forgejo, &d); err != nil {
		t.Fatal(err)
	}
	for name := range servedElsewhere {
		if d.Definitions[name] == nil {
			t.Errorf("skip list names %s, which the document lacks", name)
		}
	}
	var missing []string
	for name := range responseSchemas(t, openapi.Forgejo) {
		if _, ok := rules[name]; ok || servedElsewhere[name] || !hasProperties(t, openapi.Forgejo, name) {
			continue
		}
		missing = append(missing, name)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("response schemas no overlay file describes: %v", missing)
	}
}
