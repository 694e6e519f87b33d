package httpapi_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngPixel is a 1×1 PNG image.
const pngPixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABc3UBGAAAAABJRU5ErkJggg=="

// emails returns the addresses of a GET /user/emails-like answer, each as
// "address verified primary".
func emailsOf(t *testing.T, r resp) []string {
	t.Helper()
	var out []string
	for _, e := range r.list(t) {
		s := e["email"].(string)
		if e["verified"].(bool) {
			s += " verified"
		}
		if e["primary"].(bool) {
			s += " primary"
		}
		out = append(out, s)
	}
	return out
}

// TestUserEmails: the actor's addresses, added all or none with Forgejo's
// refusals (malformed, a domain the rules refuse, in use by anyone in any
// case, given twice, none given), deleted with the primary one kept.
func TestUserEmails(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	const path = "/api/v1/user/emails"
	r := e.send(e.alice, "GET", path, nil, 200)
	assert.Equal(t, []string{"alice@example.com verified primary"}, emailsOf(t, r))
	r = e.send(e.alice, "POST", path, map[string]any{"emails": []string{"alice@work.test", "Alice.Home@Example.org"}}, 201)
	assert.Equal(t, []string{"alice@example.com verified primary", "alice@work.test verified", "Alice.Home@Example.org verified"},
		emailsOf(t, r), "201 with every address after")
	assert.Equal(t, float64(0), r.list(t)[0]["user_id"], "Forgejo's ToEmail carries no user")

	for _, c := range []struct {
		emails []string
		msg    string
	}{
		{nil, "Email list empty"},
		{[]string{}, "Email list empty"},
		{[]string{"not-an-address"}, `Email address "not-an-address" invalid`},
		{[]string{"-lead@example.org"}, `Email address "-lead@example.org" invalid`},
		{[]string{"Name <n@example.org>"}, `Email address "Name <n@example.org>" invalid`},
		{[]string{"ünï@example.org"}, `Email address "ünï@example.org" invalid`},
		{[]string{"a@-bad-.org"}, `Email address "a@-bad-.org" invalid`},
		{[]string{"fresh@example.org", "bob@EXAMPLE.com"}, "Email address has been used: bob@EXAMPLE.com"},
		{[]string{"ALICE@work.test"}, "Email address has been used: ALICE@work.test"},
		{[]string{"alice@example.com"}, "Email address has been used: alice@example.com"},
		{[]string{"twice@example.org", "Twice@example.org"}, "Email address has been used: Twice@example.org"},
		{[]string{"fresh@example.org", "bad"}, `Email address "bad" invalid`},
	} {
		r := e.do(req{method: "POST", path: path, token: e.alice, body: map[string]any{"emails": c.emails}})
		e.expect(r, 422, c.msg)
	}
	r = e.send(e.bob, "POST", path, map[string]any{"emails": []string{"fresh@example.org"}}, 201)
	assert.Contains(t, emailsOf(t, r), "fresh@example.org verified", "nothing of the refused lists was stored")
	e.expect(e.do(req{method: "POST", path: path, token: e.eve, body: map[string]any{"emails": []string{"alice.home@example.org"}}}),
		422, "Email address has been used: alice.home@example.org")
	e.expect(e.do(req{method: "POST", path: path, token: e.eve, body: `{"emails": "x"}`}), 422, "")

	// Deleting: nothing asked is nothing done; all or none.
	e.send(e.alice, "DELETE", path, map[string]any{"emails": []string{}}, 204)
	e.expect(e.do(req{method: "DELETE", path: path, token: e.alice, body: map[string]any{"emails": []string{"alice@work.test", "fresh@example.org"}}}),
		404, "Email address does not exist [email: fresh@example.org]")
	e.expect(e.do(req{method: "DELETE", path: path, token: e.alice, body: map[string]any{"emails": []string{"ALICE@example.com"}}}),
		422, "primary email address cannot be deleted [email: ALICE@example.com]")
	assert.Len(t, e.send(e.alice, "GET", path, nil, 200).list(t), 3)
	e.send(e.alice, "DELETE", path, map[string]any{"emails": []string{"ALICE@WORK.test"}}, 204)
	assert.Equal(t, []string{"alice@example.com verified primary", "Alice.Home@Example.org verified"},
		emailsOf(t, e.send(e.alice, "GET", path, nil, 200)))
	// The address is free again.
	e.send(e.eve, "POST", path, map[string]any{"emails": []string{"alice@work.test"}}, 201)
	// Nor can an administrator give a user another's further address.
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/admin/users/bob", token: e.root, body: map[string]any{"email": "alice@work.test"}}),
		400, "e-mail already in use [email: alice@work.test]")
}

// TestPeopleRefusals: who may not use the people operations. Anonymous
// callers need a token on /user; tokens need the user scope at the
// operation's level; /admin needs a site administrator with the admin
// scope; an account that may not act is refused before anything.
func TestPeopleRefusals(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	readUser, readAdmin := e.token("alice", "read:user"), e.token("root", "read:admin")
	for _, c := range []struct {
		method, path string
		body         any
		tok          string
		status       int
		msg          string
	}{
		{"GET", "/user/emails", nil, "", 401, "token is required"},
		{"GET", "/user/followers", nil, "", 401, "token is required"},
		{"GET", "/user/settings", nil, "", 401, "token is required"},
		{"GET", "/user/list_blocked", nil, "", 401, "token is required"},
		{"PUT", "/user/following/bob", nil, "", 401, "token is required"},
		{"POST", "/user/emails", map[string]any{"emails": []string{"x@example.org"}}, readUser, 403,
			"token does not have at least one of required scope(s): [write:user]"},
		{"PUT", "/user/block/bob", nil, readUser, 403, "token does not have at least one of required scope(s): [write:user]"},
		{"PUT", "/user/following/bob", nil, readUser, 403, "token does not have at least one of required scope(s): [write:user]"},
		{"PATCH", "/user/settings", map[string]any{"theme": "x"}, readUser, 403, "token does not have at least one of required scope(s): [write:user]"},
		{"POST", "/user/avatar", map[string]any{"image": pngPixel}, readUser, 403, "token does not have at least one of required scope(s): [write:user]"},
		{"GET", "/user/emails", nil, readAdmin, 403, "token does not have at least one of required scope(s): [read:user]"},
		{"GET", "/admin/emails", nil, e.alice, 403, "user should be the site admin"},
		{"GET", "/admin/emails/search?q=a", nil, e.alice, 403, "user should be the site admin"},
		{"GET", "/admin/users/bob/emails", nil, e.alice, 403, "user should be the site admin"},
		{"DELETE", "/admin/users/bob/emails", map[string]any{"emails": []string{"bob@example.com"}}, e.alice, 403, "user should be the site admin"},
		{"DELETE", "/admin/users/bob/emails", map[string]any{"emails": []string{}}, readAdmin, 403,
			"token does not have at least one of required scope(s): [write:admin]"},
		{"GET", "/admin/emails", nil, "", 401, "token is required"},
	} {
		r := e.do(req{method: c.method, path: "/api/v1" + c.path, token: c.tok, body: c.body})
		e.expect(r, c.status, c.msg)
	}
	// Reads under /users need no token.
	e.send("", "GET", "/api/v1/users/alice/followers", nil, 200)
	// An account that may not sign in is refused whatever it asks.
	e.send(e.root, "PATCH", "/api/v1/admin/users/eve", map[string]any{"prohibit_login": true}, 200)
	for _, p := range []string{"/user/emails", "/user/settings", "/user/followers", "/user/list_blocked"} {
		r := e.do(req{method: "GET", path: "/api/v1" + p, token: e.eve})
		assert.Equal(t, 403, r.StatusCode, "%s: %s", p, r.body)
	}
}

// TestAdminEmails: administrators list every person's addresses (primary
// ones with the account's activation), search them, and read and delete a
// user's.
func TestAdminEmails(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.bob, "POST", "/api/v1/user/emails", map[string]any{"emails": []string{"bobby@work.test"}}, 201)
	r := e.send(e.root, "GET", "/api/v1/admin/emails?limit=2", nil, 200)
	assert.Equal(t, "5", r.Header.Get("X-Total-Count"), "root, alice, bob (two), eve")
	assert.Contains(t, r.Header.Get("Link"), `rel="next"`)
	r = e.send(e.root, "GET", "/api/v1/admin/emails/search?q=BOB", nil, 200)
	require.Len(t, r.list(t), 2)
	first := r.list(t)[0]
	assert.Equal(t, "bob@example.com", first["email"])
	assert.Equal(t, "bob", first["username"])
	assert.NotZero(t, first["user_id"])
	assert.Equal(t, true, first["primary"])
	assert.Equal(t, "bobby@work.test", r.list(t)[1]["email"])

	r = e.send(e.root, "GET", "/api/v1/admin/users/bob/emails", nil, 200)
	assert.Equal(t, []string{"bob@example.com verified primary", "bobby@work.test verified"}, emailsOf(t, r))
	e.expect(e.do(req{method: "GET", path: "/api/v1/admin/users/nobody/emails", token: e.root}), 404, "user redirect does not exist [name: nobody]")
	e.expect(e.do(req{method: "DELETE", path: "/api/v1/admin/users/bob/emails", token: e.root,
		body: map[string]any{"emails": []string{"bob@example.com"}}}), 422, "primary email address cannot be deleted [email: bob@example.com]")
	e.send(e.root, "DELETE", "/api/v1/admin/users/bob/emails", map[string]any{"emails": []string{"BOBBY@work.test"}}, 204)
	assert.Len(t, e.send(e.root, "GET", "/api/v1/admin/users/bob/emails", nil, 200).list(t), 1)
}

// logins returns the logins of a list of users.
func logins(t *testing.T, r resp) []string { t.Helper(); return names(t, r, "login") }

// TestFollows: following is directed, counted in user answers
// (followers_count, following_count), listed and checked; following
// oneself or twice changes nothing; unknown and unseen users are 404.
func TestFollows(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	e.send(e.bob, "PUT", "/api/v1/user/following/alice", nil, 204)
	e.send(e.bob, "PUT", "/api/v1/user/following/alice", nil, 204)
	e.send(e.eve, "PUT", "/api/v1/user/following/ALICE", nil, 204)
	e.send(e.alice, "PUT", "/api/v1/user/following/alice", nil, 204)
	e.send(e.alice, "PUT", "/api/v1/user/following/bob", nil, 204)

	a := e.send("", "GET", "/api/v1/users/alice", nil, 200).json(t)
	assert.Equal(t, []any{float64(2), float64(1)}, []any{a["followers_count"], a["following_count"]})
	me := e.send(e.bob, "GET", "/api/v1/user", nil, 200).json(t)
	assert.Equal(t, []any{float64(1), float64(1)}, []any{me["followers_count"], me["following_count"]})

	r := e.send("", "GET", "/api/v1/users/alice/followers", nil, 200)
	assert.Equal(t, []string{"bob", "eve"}, logins(t, r))
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	assert.Equal(t, []string{"eve"}, logins(t, e.send("", "GET", "/api/v1/users/alice/followers?page=2&limit=1", nil, 200)))
	assert.Equal(t, []string{"bob"}, logins(t, e.send("", "GET", "/api/v1/users/alice/following", nil, 200)))
	assert.Equal(t, []string{"bob", "eve"}, logins(t, e.send(e.alice, "GET", "/api/v1/user/followers", nil, 200)))
	assert.Equal(t, []string{"alice"}, logins(t, e.send(e.bob, "GET", "/api/v1/user/following", nil, 200)))

	e.send(e.bob, "GET", "/api/v1/user/following/alice", nil, 204)
	e.send(e.alice, "GET", "/api/v1/user/following/eve", nil, 404)
	e.send("", "GET", "/api/v1/users/eve/following/alice", nil, 204)
	e.send("", "GET", "/api/v1/users/alice/following/eve", nil, 404)
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/alice/following/nobody"}), 404, "user redirect does not exist [name: nobody]")
	e.expect(e.do(req{method: "PUT", path: "/api/v1/user/following/nobody", token: e.bob}), 404, "user redirect does not exist [name: nobody]")
	e.expect(e.do(req{method: "GET", path: "/api/v1/users/nobody/followers"}), 404, "user redirect does not exist [name: nobody]")

	// A private user is seen by itself (and administrators) only: others
	// get 404 for it and do not see it in lists.
	e.send(e.root, "PATCH", "/api/v1/admin/users/eve", map[string]any{"visibility": "private"}, 200)
	assert.Equal(t, []string{"bob"}, logins(t, e.send(e.bob, "GET", "/api/v1/users/alice/followers", nil, 200)))
	assert.Equal(t, "1", e.send(e.bob, "GET", "/api/v1/users/alice/followers", nil, 200).Header.Get("X-Total-Count"))
	assert.Equal(t, []string{"bob", "eve"}, logins(t, e.send(e.eve, "GET", "/api/v1/users/alice/followers", nil, 200)))
	assert.Equal(t, []string{"bob", "eve"}, logins(t, e.send(e.root, "GET", "/api/v1/users/alice/followers", nil, 200)))
	e.send(e.bob, "PUT", "/api/v1/user/following/eve", nil, 404)
	e.send("", "GET", "/api/v1/users/eve/following", nil, 404)

	e.send(e.bob, "DELETE", "/api/v1/user/following/alice", nil, 204)
	e.send(e.bob, "DELETE", "/api/v1/user/following/alice", nil, 204)
	a = e.send("", "GET", "/api/v1/users/alice", nil, 200).json(t)
	assert.Equal(t, float64(1), a["followers_count"])
}

// TestBlockPrevents: what a block prevents, one subtest per action, as
// Forgejo checks IsBlocked: the blocked user may not follow the blocker
// nor be followed by it, star or watch its repositories, open issues in
// them, comment on or react to the blocker's issues, nor be added as a
// collaborator; blocking ends follows both ways and the blocked user's
// watches of the blocker's repositories.
func TestBlockPrevents(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	const blocked = "user is blocked by the poster or repository owner"
	index := e.newIssue(e.alice, "by alice")
	issue := e.proj + "/issues/" + strconv.Itoa(index)
	e.send(e.eve, "PUT", "/api/v1/user/following/alice", nil, 204)
	e.send(e.alice, "PUT", "/api/v1/user/following/eve", nil, 204)
	e.send(e.eve, "PUT", e.proj+"/subscription", nil, 200)

	e.send(e.alice, "PUT", "/api/v1/user/block/eve", nil, 204)
	e.send(e.alice, "PUT", "/api/v1/user/block/eve", nil, 204) // again: nothing
	e.send(e.alice, "PUT", "/api/v1/user/block/alice", nil, 204)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/user/block/nobody", token: e.alice}), 404, "user redirect does not exist [name: nobody]")
	r := e.send(e.alice, "GET", "/api/v1/user/list_blocked", nil, 200)
	require.Len(t, r.list(t), 1)
	assert.Equal(t, "1", r.Header.Get("X-Total-Count"))
	assert.NotZero(t, r.list(t)[0]["block_id"])
	assert.Empty(t, e.send(e.eve, "GET", "/api/v1/user/list_blocked", nil, 200).list(t), "blocks are directed")

	t.Run("FollowsEnded", func(t *testing.T) {
		e.send(e.eve, "GET", "/api/v1/user/following/alice", nil, 404)
		e.send(e.alice, "GET", "/api/v1/user/following/eve", nil, 404)
		a := e.send(e.alice, "GET", "/api/v1/user", nil, 200).json(t)
		assert.Equal(t, []any{float64(0), float64(0)}, []any{a["followers_count"], a["following_count"]})
	})
	t.Run("WatchEnded", func(t *testing.T) {
		e.send(e.eve, "GET", e.proj+"/subscription", nil, 404)
	})
	t.Run("Follow", func(t *testing.T) {
		e.expect(e.do(req{method: "PUT", path: "/api/v1/user/following/alice", token: e.eve}), 403, blocked)
		e.expect(e.do(req{method: "PUT", path: "/api/v1/user/following/eve", token: e.alice}), 403, blocked)
	})
	t.Run("Star", func(t *testing.T) {
		e.expect(e.do(req{method: "PUT", path: "/api/v1/user/starred/alice/proj", token: e.eve}), 403, blocked)
	})
	t.Run("Watch", func(t *testing.T) {
		e.expect(e.do(req{method: "PUT", path: e.proj + "/subscription", token: e.eve}), 403, blocked)
	})
	t.Run("Issue", func(t *testing.T) {
		e.expect(e.do(req{method: "POST", path: e.proj + "/issues", token: e.eve, body: map[string]any{"title": "t"}}), 403, blocked)
	})
	t.Run("Comment", func(t *testing.T) {
		e.expect(e.do(req{method: "POST", path: issue + "/comments", token: e.eve, body: map[string]any{"body": "b"}}), 403, blocked)
	})
	t.Run("Reaction", func(t *testing.T) {
		e.expect(e.do(req{method: "POST", path: issue + "/reactions", token: e.eve, body: map[string]any{"content": "+1"}}), 403, blocked)
	})
	t.Run("Collaborator", func(t *testing.T) {
		e.expect(e.do(req{method: "PUT", path: e.proj + "/collaborators/eve", token: e.alice,
			body: map[string]any{"permission": "write"}}), 403, blocked)
	})
	t.Run("OthersUnaffected", func(t *testing.T) {
		e.send(e.bob, "PUT", "/api/v1/user/starred/alice/proj", nil, 204)
		e.send(e.eve, "PUT", "/api/v1/user/following/bob", nil, 204)
	})

	// Unblocked, eve may act again; unblocking again changes nothing.
	e.send(e.alice, "PUT", "/api/v1/user/unblock/eve", nil, 204)
	e.send(e.alice, "PUT", "/api/v1/user/unblock/eve", nil, 204)
	e.expect(e.do(req{method: "PUT", path: "/api/v1/user/unblock/nobody", token: e.alice}), 404, "user redirect does not exist [name: nobody]")
	e.send(e.eve, "PUT", "/api/v1/user/following/alice", nil, 204)
	e.send(e.eve, "PUT", "/api/v1/user/starred/alice/proj", nil, 204)
	assert.Empty(t, e.send(e.alice, "GET", "/api/v1/user/list_blocked", nil, 200).list(t))
}

// TestUserSettings: the defaults, a partial update read back, and the
// profile rules of the update.
func TestUserSettings(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	s := e.send(e.bob, "GET", "/api/v1/user/settings", nil, 200).json(t)
	assert.Equal(t, map[string]any{"full_name": "", "website": "", "location": "", "pronouns": "", "language": "",
		"description": "", "theme": "", "diff_view_style": "", "hide_email": false, "hide_pronouns": false,
		"hide_activity": false, "enable_repo_unit_hints": true}, s)
	s = e.send(e.bob, "PATCH", "/api/v1/user/settings", map[string]any{"full_name": "Bob B", "website": "https://bob.test",
		"theme": "forgejo-dark", "hide_email": true, "hide_activity": true, "enable_repo_unit_hints": false}, 200).json(t)
	want := map[string]any{"full_name": "Bob B", "website": "https://bob.test", "location": "", "pronouns": "", "language": "",
		"description": "", "theme": "forgejo-dark", "diff_view_style": "", "hide_email": true, "hide_pronouns": false,
		"hide_activity": true, "enable_repo_unit_hints": false}
	assert.Equal(t, want, s)
	e.send(e.bob, "PATCH", "/api/v1/user/settings", map[string]any{"location": "Lyon"}, 200)
	want["location"] = "Lyon"
	assert.Equal(t, want, e.send(e.bob, "GET", "/api/v1/user/settings", nil, 200).json(t), "a field not given stays")
	u := e.send(e.alice, "GET", "/api/v1/users/bob", nil, 200).json(t)
	assert.Equal(t, "Bob B", u["full_name"])
	assert.NotEqual(t, "bob@example.com", u["email"], "hide_email hides the address from others")

	// Private pronouns are shown to signed-in users only.
	e.send(e.bob, "PATCH", "/api/v1/user/settings", map[string]any{"pronouns": "he/him", "hide_pronouns": true}, 200)
	assert.Equal(t, "", e.send("", "GET", "/api/v1/users/bob", nil, 200).json(t)["pronouns"])
	assert.Equal(t, "he/him", e.send(e.alice, "GET", "/api/v1/users/bob", nil, 200).json(t)["pronouns"])
	e.send(e.bob, "PATCH", "/api/v1/user/settings", map[string]any{"hide_pronouns": false}, 200)
	assert.Equal(t, "he/him", e.send("", "GET", "/api/v1/users/bob", nil, 200).json(t)["pronouns"])
	want["pronouns"] = "he/him"
	assert.Equal(t, want, e.send(e.bob, "GET", "/api/v1/user/settings", nil, 200).json(t))

	e.expect(e.do(req{method: "PATCH", path: "/api/v1/user/settings", token: e.bob, body: map[string]any{"website": "javascript:x"}}),
		422, "[Website]: ValidUrl")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/user/settings", token: e.bob,
		body: map[string]any{"theme": "t2", "full_name": strings.Repeat("x", 101)}}), 422, "full name is too long")
	assert.Equal(t, "forgejo-dark", e.send(e.bob, "GET", "/api/v1/user/settings", nil, 200).json(t)["theme"], "nothing half-written")
	e.expect(e.do(req{method: "PATCH", path: "/api/v1/user/settings", token: e.bob, body: `{"theme": 3}`}), 422, "")
}

// TestUserAvatar: an uploaded avatar is stored in the blob store, named by
// avatar_url and served there; deleting it brings back the e-mail's hash.
func TestUserAvatar(t *testing.T) {
	t.Parallel()
	e := newIssueEnv(t)
	before := e.send(e.bob, "GET", "/api/v1/user", nil, 200).json(t)["avatar_url"].(string)
	e.send(e.bob, "POST", "/api/v1/user/avatar", map[string]any{"image": pngPixel}, 204)
	url := e.send(e.alice, "GET", "/api/v1/users/bob", nil, 200).json(t)["avatar_url"].(string)
	assert.NotEqual(t, before, url)
	require.Contains(t, url, "/avatars/user-avatar-")
	res, err := http.Get(url)
	require.NoError(t, err)
	img, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	want, _ := base64.StdEncoding.DecodeString(pngPixel)
	assert.Equal(t, want, img)
	assert.Equal(t, "image/png", res.Header.Get("Content-Type"))

	e.expect(e.do(req{method: "POST", path: "/api/v1/user/avatar", token: e.bob,
		body: map[string]any{"image": base64.StdEncoding.EncodeToString([]byte("plain text"))}}), 422, "avatar is not a PNG, JPEG, GIF or WebP image")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/avatar", token: e.bob, body: map[string]any{"image": "%%%"}}), 422, "[Image]: invalid base64")
	e.expect(e.do(req{method: "POST", path: "/api/v1/user/avatar", token: e.bob, body: map[string]any{}}), 422,
		"avatar image must be between 1 byte and 1048576 bytes")
	assert.Equal(t, url, e.send(e.bob, "GET", "/api/v1/user", nil, 200).json(t)["avatar_url"], "refusals change nothing")

	e.send(e.bob, "DELETE", "/api/v1/user/avatar", nil, 204)
	assert.Equal(t, before, e.send(e.bob, "GET", "/api/v1/user", nil, 200).json(t)["avatar_url"])
	res, err = http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, 404, res.StatusCode, "the old image is gone")
	e.send(e.bob, "DELETE", "/api/v1/user/avatar", nil, 204)
}
