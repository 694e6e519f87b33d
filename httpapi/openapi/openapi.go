// Package openapi holds Forgejo v15.0.3's OpenAPI 2.0 document and the
// overlay that says which response fields Forgejo always emits, and turns
// them into the OpenAPI 3 document that the generator (httpapi/internal/
// wiregen) and the contract test both read.
package openapi

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
)

// Forgejo is Forgejo v15.0.3's OpenAPI 2.0 document (MIT licensed for
// interoperability).
//
//go:embed forgejo-v15.0.3.json
var Forgejo []byte

// overlay is required/*.json: per schema, the fields Forgejo tags
// omitempty and the fields that may be null. One file per area (repos,
// users, issues…) so that areas are described independently; a schema may
// be named in one file only.
//
//go:embed required/*.json
var overlay embed.FS

// Overlay returns the overlay files concatenated in name order (what the
// generated files' input hash covers).
func Overlay() []byte {
	var b []byte
	for _, name := range overlayNames() {
		data, _ := overlay.ReadFile(name)
		b = append(b, data...)
	}
	return b
}

func overlayNames() []string {
	entries, _ := fs.Glob(overlay, "required/*.json")
	sort.Strings(entries)
	return entries
}

// SchemaRule is one schema's entry in the overlay.
type SchemaRule struct {
	// Source is the Forgejo file the rule was read from.
	Source string `json:"source"`
	// OmitEmpty lists the properties Forgejo may leave out; every other
	// property of the schema is required.
	OmitEmpty []string `json:"omitempty"`
	// Nullable lists the properties that may be null.
	Nullable []string `json:"nullable"`
	// Pending lists required properties Hearth does not emit yet, each
	// with the file that must add it. The DTOs require them; the contract
	// test tolerates their absence (only theirs) until they are fixed.
	Pending map[string]string `json:"pending"`
}

// Rules parses the overlay files. A schema named by two files is an error.
func Rules() (map[string]SchemaRule, error) {
	all := map[string]SchemaRule{}
	from := map[string]string{}
	for _, name := range overlayNames() {
		data, err := overlay.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", name, err)
		}
		var o struct {
			Schemas map[string]SchemaRule `json:"schemas"`
		}
		if err := json.Unmarshal(data, &o); err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", name, err)
		}
		for schema, rule := range o.Schemas {
			if prev, dup := from[schema]; dup {
				return nil, fmt.Errorf("openapi: schema %s is described by both %s and %s", schema, prev, name)
			}
			from[schema], all[schema] = name, rule
		}
	}
	return all, nil
}

// V3 converts the document to OpenAPI 3 and applies the overlay: the
// properties of every listed schema are required but for its omitempty
// list, and its nullable properties admit null. It fails when the overlay
// names a schema or property the document does not have.
func V3() (*openapi3.T, error) {
	var doc2 openapi2.T
	if err := json.Unmarshal(Forgejo, &doc2); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	doc, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("openapi: convert to OpenAPI 3: %w", err)
	}
	rules, err := Rules()
	if err != nil {
		return nil, err
	}
	if err := Apply(doc, rules); err != nil {
		return nil, err
	}
	return doc, nil
}

// Apply applies rules to doc's schemas, as V3 does.
func Apply(doc *openapi3.T, rules map[string]SchemaRule) error {
	for name, rule := range rules {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			return fmt.Errorf("openapi: the overlay names schema %s, which the document lacks", name)
		}
		s := ref.Value
		optional := map[string]bool{}
		names := append(append([]string{}, rule.OmitEmpty...), rule.Nullable...)
		for p := range rule.Pending {
			names = append(names, p)
		}
		for _, p := range names {
			if s.Properties[p] == nil {
				return fmt.Errorf("openapi: the overlay names %s.%s, which the document lacks", name, p)
			}
		}
		for _, p := range rule.OmitEmpty {
			optional[p] = true
		}
		s.Required = nil
		for p := range s.Properties {
			if !optional[p] {
				s.Required = append(s.Required, p)
			}
		}
		sort.Strings(s.Required)
		for _, p := range rule.Nullable {
			prop := s.Properties[p]
			if prop.Ref != "" {
				// A $ref cannot carry nullable: wrap it.
				s.Properties[p] = &openapi3.SchemaRef{Value: &openapi3.Schema{Nullable: true, AllOf: openapi3.SchemaRefs{prop}}}
				continue
			}
			prop.Value.Nullable = true
		}
	}
	return nil
}
