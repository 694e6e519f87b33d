package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/storage/dbtest"
)

// TestSearchUsersHandler drives searchUsers directly (its route line is the
// lead's to add to routes.go): Forgejo's {"ok":true,"data":[…]} body,
// X-Total-Count, paging and visibility for anonymous and signed-in callers.
func TestSearchUsersHandler(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dbtest.Open(t, ":memory:")
	svc, err := auth.New(auth.Config{Store: db.Auth(), Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}})
	require.NoError(t, err)
	no := false
	_, err = svc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(t, err)
	root, err := svc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	require.NoError(t, err)
	for _, o := range []auth.CreateUserOptions{
		{Name: "alpha", Email: "alpha@example.com", Password: "alpha-password", MustChangePassword: &no},
		{Name: "alpine", Email: "alpine@example.com", Password: "alpine-password", MustChangePassword: &no, Visibility: "limited"},
		{Name: "beta", Email: "beta@example.com", Password: "beta-password", MustChangePassword: &no},
	} {
		_, err := svc.CreateUser(ctx, root, o)
		require.NoError(t, err)
	}
	a, err := New(Config{Auth: svc})
	require.NoError(t, err)

	type result struct {
		OK   bool             `json:"ok"`
		Data []map[string]any `json:"data"`
	}
	search := func(query, user, pass string) (*httptest.ResponseRecorder, result) {
		t.Helper()
		req := httptest.NewRequest("GET", "/api/v1/users/search?"+query, nil)
		if user != "" {
			req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
		}
		rec := httptest.NewRecorder()
		c := a.newCall(rec, req)
		if c.authenticate() {
			a.searchUsers(c)
		}
		var out result
		if rec.Code == http.StatusOK {
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
		}
		return rec, out
	}
	logins := func(r result) []string {
		out := []string{}
		for _, u := range r.Data {
			out = append(out, u["login"].(string))
		}
		return out
	}

	rec, res := search("q=alp", "", "")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.True(t, res.OK)
	require.Equal(t, []string{"alpha"}, logins(res), "anonymous callers see public users")
	assert.Equal(t, "1", rec.Header().Get("X-Total-Count"))
	assert.NotEqual(t, "alpha@example.com", res.Data[0]["email"], "no e-mail for anonymous callers")

	rec, res = search("q=alp", "beta", "beta-password")
	assert.Equal(t, []string{"alpha", "alpine"}, logins(res), "signed-in callers see limited users")
	assert.Equal(t, "2", rec.Header().Get("X-Total-Count"))

	rec, res = search("limit=2&page=1&sort=newest", "root", "rootpassword")
	assert.Equal(t, []string{"beta", "alpine"}, logins(res))
	assert.Equal(t, "4", rec.Header().Get("X-Total-Count"))
	assert.Contains(t, rec.Header().Get("Link"), `rel="next"`)

	_, res = search("uid=4", "", "")
	assert.Equal(t, []string{"beta"}, logins(res))
	_, res = search("uid=-1", "", "")
	assert.Equal(t, []string{"Ghost"}, logins(res))
	_, res = search("uid=x&q=beta", "", "")
	assert.Equal(t, []string{"beta"}, logins(res), "a uid that is not a number is no filter")

	rec, _ = search("", "root", "wrong")
	assert.Equal(t, http.StatusUnauthorized, rec.Code)
}
