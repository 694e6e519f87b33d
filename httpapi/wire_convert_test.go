package httpapi

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// TestUserFromShowsWhatForgejoShows: the e-mail only to signed-in callers
// (a hidden one only to the user and administrators), sign-in details only
// to the user and administrators; a pure function of its arguments.
func TestUserFromShowsWhatForgejoShows(t *testing.T) {
	t.Parallel()
	u := &forge.User{ID: 7, Name: "Alice", Email: "alice@example.com", LoginName: "ldap-alice", LoginSource: 3,
		IsAdmin: true, IsActive: true, Language: "fr-FR", Created: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	hidden := *u
	hidden.HideEmail = true
	self := forge.Actor{User: u}
	other := forge.Actor{User: &forge.User{ID: 8, Name: "bob"}}
	admin := forge.Actor{User: &forge.User{ID: 1, Name: "root", IsAdmin: true}}
	const placeholder = "alice@noreply.example.org"
	for _, tt := range []struct {
		name      string
		actor     forge.Actor
		user      *forge.User
		email     string
		loginName string
	}{
		{"anonymous", forge.Anonymous, u, placeholder, ""},
		{"other", other, u, "alice@example.com", ""},
		{"other, hidden", other, &hidden, placeholder, ""},
		{"self, hidden", self, &hidden, "alice@example.com", "ldap-alice"},
		{"admin, hidden", admin, &hidden, "alice@example.com", "ldap-alice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := userFrom("https://example.org/", placeholder, tt.actor, tt.user)
			if got.Email != tt.email || got.LoginName != tt.loginName {
				t.Errorf("email %q login_name %q, want %q %q", got.Email, got.LoginName, tt.email, tt.loginName)
			}
			authed := tt.loginName != ""
			if got.IsAdmin != authed || got.IsActive != authed || (got.SourceID == 3) != authed || (got.Language != "") != authed {
				t.Errorf("sign-in details shown %v, want %v: %+v", !authed, authed, got)
			}
			if got.UserName != "Alice" || got.HTMLURL != "https://example.org/Alice" || !got.Created.Equal(u.Created) {
				t.Errorf("got %+v", got)
			}
			if !authed && !got.LastLogin.Equal(time.Unix(0, 0)) {
				t.Errorf("last_login %v shown", got.LastLogin)
			}
		})
	}
}

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
