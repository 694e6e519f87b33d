// Package contract is the test support of Forgejo's API contract: its
// OpenAPI document as the contract tests check it (strict: object schemas
// admit no property they do not name), and the validation of a JSON body
// against one of its schemas. httpapi's response checker and the webhook
// payload contract test share it.
package contract

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/hearthforge/hearth/httpapi/openapi"
)

// Doc returns Forgejo's document, loaded once, as the contract checks it:
// the same document and required lists the DTOs are generated from, every
// object schema strict (see strict). Callers must not change it.
var Doc = sync.OnceValues(func() (*openapi3.T, error) {
	doc, err := openapi.V3()
	if err != nil {
		return nil, err
	}
	rules, err := openapi.Rules()
	if err != nil {
		return nil, err
	}
	exact := map[*openapi3.Schema]bool{}
	for name, rule := range rules {
		s := doc.Components.Schemas[name].Value
		exact[s] = true
		// Known gaps, listed with their owner in openapi/required/*.json.
		s.Required = slices.DeleteFunc(s.Required, func(p string) bool { return rule.Pending[p] != "" })
	}
	// Forgejo's api.User.MarshalJSON adds "username" (the login again)
	// to every user it writes, beyond its document.
	doc.Components.Schemas["User"].Value.Properties["username"] = openapi3.NewSchemaRef("", openapi3.NewStringSchema())
	strict(doc, exact)
	return doc, nil
})

// CheckSchema validates the JSON body against the schema name of doc;
// an error names what does not fit.
func CheckSchema(doc *openapi3.T, name string, body []byte) error {
	ref := doc.Components.Schemas[name]
	if ref == nil {
		return fmt.Errorf("no schema %s in the document", name)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("body is not JSON: %v: %s", err, body)
	}
	if err := ref.Value.VisitJSON(v); err != nil {
		return fmt.Errorf("body is not a %s: %v: %s", name, err, body)
	}
	return nil
}

// strict forbids unknown properties in every object schema of doc. In the
// schemas of exact (those openapi/required/*.json describes), required
// properties and nullability are the overlay's, exactly. Elsewhere it
// admits null where Forgejo's Go types may produce it and Swagger 2.0
// cannot say so: properties that are arrays (nil slices), objects (nil
// pointers) and strings (*string, *time.Time), and items of arrays of
// objects ([]*T). Null integers and booleans still fail.
func strict(doc *openapi3.T, exact map[*openapi3.Schema]bool) {
	no := false
	seen := map[*openapi3.Schema]bool{}
	var walk func(*openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			s.AdditionalProperties.Has = &no
		}
		for name, p := range s.Properties {
			walk(p)
			if exact[s] {
				continue
			}
			switch {
			case p.Ref != "":
				s.Properties[name] = &openapi3.SchemaRef{Value: &openapi3.Schema{Nullable: true, AllOf: openapi3.SchemaRefs{p}}}
			case p.Value != nil && (p.Value.Type == nil || p.Value.Type.Is("array") || p.Value.Type.Is("object") || p.Value.Type.Is("string")):
				p.Value.Nullable = true
			}
		}
		walk(s.Items)
		if s.Items != nil && s.Items.Ref != "" {
			// []*T may hold nil (FilesResponse.files for deleted files).
			s.Items = &openapi3.SchemaRef{Value: &openapi3.Schema{Nullable: true, AllOf: openapi3.SchemaRefs{s.Items}}}
		}
		walk(s.AdditionalProperties.Schema)
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, r := range list {
				walk(r)
			}
		}
	}
	for _, s := range doc.Components.Schemas {
		walk(s)
	}
	for _, r := range doc.Components.Responses {
		if r.Value != nil {
			for _, mt := range r.Value.Content {
				walk(mt.Schema)
			}
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						walk(mt.Schema)
					}
				}
			}
		}
	}
}
