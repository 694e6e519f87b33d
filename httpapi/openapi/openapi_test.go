package openapi_test

import (
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/hearthforge/hearth/httpapi/openapi"
)

func doc() *openapi3.T {
	str := func() *openapi3.SchemaRef { return &openapi3.SchemaRef{Value: openapi3.NewStringSchema()} }
	return &openapi3.T{Components: &openapi3.Components{Schemas: openapi3.Schemas{
		"Thing": {Value: &openapi3.Schema{Properties: openapi3.Schemas{
			"a": str(), "b": str(), "c": str(), "other": {Ref: "#/components/schemas/Other", Value: &openapi3.Schema{}},
		}}},
		"Other": {Value: &openapi3.Schema{}},
	}}}
}

func TestApply(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		rule     openapi.SchemaRule
		schema   string
		required []string
		nullable []string
		fails    bool
	}{
		"all required":      {rule: openapi.SchemaRule{}, schema: "Thing", required: []string{"a", "b", "c", "other"}},
		"omitempty":         {rule: openapi.SchemaRule{OmitEmpty: []string{"b"}}, schema: "Thing", required: []string{"a", "c", "other"}},
		"nullable":          {rule: openapi.SchemaRule{Nullable: []string{"c", "other"}}, schema: "Thing", required: []string{"a", "b", "c", "other"}, nullable: []string{"c", "other"}},
		"pending required":  {rule: openapi.SchemaRule{Pending: map[string]string{"a": "x.go"}}, schema: "Thing", required: []string{"a", "b", "c", "other"}},
		"unknown schema":    {rule: openapi.SchemaRule{}, schema: "Nope", fails: true},
		"unknown omitempty": {rule: openapi.SchemaRule{OmitEmpty: []string{"z"}}, schema: "Thing", fails: true},
		"unknown nullable":  {rule: openapi.SchemaRule{Nullable: []string{"z"}}, schema: "Thing", fails: true},
		"unknown pending":   {rule: openapi.SchemaRule{Pending: map[string]string{"z": "x.go"}}, schema: "Thing", fails: true},
	} {
		d := doc()
		err := openapi.Apply(d, map[string]openapi.SchemaRule{tt.schema: tt.rule})
		if tt.fails {
			if err == nil {
				t.Errorf("%s: applied", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		s := d.Components.Schemas[tt.schema].Value
		if !slices.Equal(s.Required, tt.required) {
			t.Errorf("%s: required %v, want %v", name, s.Required, tt.required)
		}
		for p, ref := range s.Properties {
			got := ref.Value.Nullable
			if want := slices.Contains(tt.nullable, p); got != want {
				t.Errorf("%s: %s nullable %v, want %v", name, p, got, want)
			}
		}
		if tt.schema == "Thing" && d.Components.Schemas["Other"].Value.Nullable {
			t.Errorf("%s: a nullable reference made the referenced schema nullable everywhere", name)
		}
	}
}

// TestV3 checks the checked-in overlay applies to the document.
func TestV3(t *testing.T) {
	t.Parallel()
	d, err := openapi.V3()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Components.Schemas); n != 244 {
		t.Errorf("%d schemas, want 244", n)
	}
	if !slices.Contains(d.Components.Schemas["Repository"].Value.Required, "full_name") {
		t.Error("Repository.full_name is not required")
	}
}
