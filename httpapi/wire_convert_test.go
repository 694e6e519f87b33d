package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// TestEditOptionsAppliesEachFieldAlone: every field of Forgejo's
// EditRepoOption reaches repos.EditOptions, and a request naming one field
// sets that field only.
func TestEditOptionsAppliesEachFieldAlone(t *testing.T) {
	t.Parallel()
	in := reflect.TypeOf(wire.EditRepoOption{})
	for i := range in.NumField() {
		f := in.Field(i)
		var o wire.EditRepoOption
		v := reflect.ValueOf(&o).Elem().Field(i)
		v.Set(reflect.New(f.Type.Elem()))
		e := reflect.ValueOf(editOptions(o))
		set := 0
		for j := range e.NumField() {
			if !e.Field(j).IsNil() {
				set++
			}
		}
		if set != 1 {
			t.Errorf("%s alone sets %d fields of repos.EditOptions, want 1", f.Name, set)
		}
	}
	name, tracker := "renamed", wire.ExternalTracker{ExternalTrackerURL: "https://t.example", ExternalTrackerStyle: "numeric"}
	e := editOptions(wire.EditRepoOption{Name: &name, ExternalTracker: &tracker})
	if *e.Name != "renamed" || e.ExternalTracker.URL != "https://t.example" || e.ExternalTracker.Style != "numeric" {
		t.Errorf("got %+v %+v", *e.Name, *e.ExternalTracker)
	}
}

// TestCreateOptionsReadsLeftOutFieldsAsZero: a field the request leaves
// out is its zero value.
func TestCreateOptionsReadsLeftOutFieldsAsZero(t *testing.T) {
	t.Parallel()
	var o wire.CreateRepoOption
	if err := json.Unmarshal([]byte(`{"name":"r","private":true,"object_format_name":"sha256","auto_init":true,"readme":"Default"}`), &o); err != nil {
		t.Fatal(err)
	}
	got := createOptions(o)
	want := repos.CreateOptions{Name: "r", Private: true, AutoInit: true, Readme: "Default", ObjectFormat: forge.ObjectFormat("sha256")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestErrorBodies: Forgejo's error shapes, from the generated types:
// {message, url}; {message} alone for account-state checks; not-found with
// errors [] (never null).
func TestErrorBodies(t *testing.T) {
	t.Parallel()
	a := &API{cfg: Config{RootURL: "https://example.org/"}}
	for _, tt := range []struct {
		name  string
		write func(*call)
		want  string
	}{
		{"error", func(c *call) { c.errorStatus(422, "bad") }, `{"message":"bad","url":"https://example.org/api/swagger"}`},
		{"bare", func(c *call) { c.bareError(403, "inactive") }, `{"message":"inactive"}`},
		{"not found", func(c *call) { c.notFound() },
			`{"errors":[],"message":"The target couldn't be found.","url":"https://example.org/api/swagger"}`},
		{"owner not found", func(c *call) { c.notFoundBody("GetUserByName", "user redirect does not exist") },
			`{"errors":["user redirect does not exist"],"message":"GetUserByName","url":"https://example.org/api/swagger"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tt.write(a.newCall(rec, httptest.NewRequest("GET", "/api/v1/x", nil)))
			if got := rec.Body.String(); got != tt.want+"\n" {
				t.Errorf("body %s, want %s", got, tt.want)
			}
		})
	}
}
