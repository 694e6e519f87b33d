package httpapi_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/42wim/httpsig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// federationPaths are the twelve federation operations with concrete
// paths (user and repository 1: root and a repository that need not
// exist).
var federationPaths = []struct{ method, path string }{
	{"GET", "/api/v1/nodeinfo"},
	{"GET", "/api/v1/activitypub/actor"},
	{"POST", "/api/v1/activitypub/actor/inbox"},
	{"POST", "/api/v1/activitypub/actor/outbox"},
	{"GET", "/api/v1/activitypub/repository-id/1"},
	{"POST", "/api/v1/activitypub/repository-id/1/inbox"},
	{"POST", "/api/v1/activitypub/repository-id/1/outbox"},
	{"GET", "/api/v1/activitypub/user-id/1"},
	{"POST", "/api/v1/activitypub/user-id/1/inbox"},
	{"GET", "/api/v1/activitypub/user-id/1/outbox"},
	{"GET", "/api/v1/activitypub/user-id/1/activities/1"},
	{"GET", "/api/v1/activitypub/user-id/1/activities/1/activity"},
}

// TestFederationOffAnswersAsUnknownRoute: with federation off (no
// service, or one not enabled: Forgejo's default) each of the twelve
// operations answers exactly what an unknown /api/v1 route answers, for
// an anonymous caller and for wrong credentials alike (Forgejo registers
// none of them).
func TestFederationOffAnswersAsUnknownRoute(t *testing.T) {
	t.Parallel()
	off, err := federation.New(federation.Config{})
	require.NoError(t, err)
	for name, mutate := range map[string]func(*httpapi.Config){
		"no service": func(*httpapi.Config) {},
		"disabled":   func(c *httpapi.Config) { c.Federation = off },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, mutate)
			for _, creds := range []req{{}, {user: "root", pass: "wrong"}} {
				for _, op := range federationPaths {
					unknown := e.do(req{method: op.method, path: "/api/v1/no-such-route", user: creds.user, pass: creds.pass, body: "{}"})
					got := e.do(req{method: op.method, path: op.path, user: creds.user, pass: creds.pass, body: "{}"})
					assert.Equal(t, http.StatusNotFound, got.StatusCode, "%s %s", op.method, op.path)
					assert.Equal(t, unknown.StatusCode, got.StatusCode, "%s %s", op.method, op.path)
					assert.Equal(t, string(unknown.body), string(got.body), "%s %s", op.method, op.path)
					assert.Equal(t, unknown.Header.Get("Content-Type"), got.Header.Get("Content-Type"))
					// Another method is unknown too, not 405.
					got = e.do(req{method: "PUT", path: op.path, user: creds.user, pass: creds.pass})
					assert.Equal(t, http.StatusNotFound, got.StatusCode, "PUT %s", op.path)
				}
			}
		})
	}
}

// fedEnv is an API with federation on, and a remote actor: a loopback
// server publishing an actor document with its key, whose requests the
// test signs.
type fedEnv struct {
	*env
	b      *base
	remote *httptest.Server
	key    *rsa.PrivateKey // the remote actor's
	keyID  string
}

func newFedEnv(t *testing.T) *fedEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	repoSvc, _ := b.repoService(t)
	fed, err := federation.New(federation.Config{Enabled: true, Store: b.db.Federation(),
		Keys: &federation.MemoryKeys{Bits: 2048}, Resolver: site.RemoteKeys{Client: http.DefaultClient}, Clock: b.clock})
	require.NoError(t, err)
	e := b.serve(t, httpapi.Config{Auth: b.auth, Repos: repoSvc, Git: b.git, Federation: fed})
	f := &fedEnv{env: e, b: b}
	f.key, err = rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	f.remote = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/actor":
			writeRemoteActor(w, f.remote.URL+"/actor", &f.key.PublicKey)
		case "/impostor": // publishes another key under the id it is asked for
			other, _ := rsa.GenerateKey(rand.Reader, 2048)
			writeRemoteActor(w, f.remote.URL+"/impostor", &other.PublicKey)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.remote.Close)
	f.keyID = f.remote.URL + "/actor#main-key"
	return f
}

func writeRemoteActor(w http.ResponseWriter, id string, pub *rsa.PublicKey) {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	w.Header().Set("Content-Type", "application/activity+json")
	json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "Person", "publicKey": map[string]any{
		"id": id + "#main-key", "owner": id, "publicKeyPem": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))}})
}

// signed sends a request signed by key under keyID over (request-target),
// host, date and, with a body, digest; tamper, when set, changes the
// request after signing.
func (f *fedEnv) signed(method, path string, body []byte, key *rsa.PrivateKey, keyID string, tamper func(*http.Request)) resp {
	f.t.Helper()
	r, err := http.NewRequest(method, f.srv.URL+path, bytes.NewReader(body))
	require.NoError(f.t, err)
	r.Header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	r.Header.Set("Host", r.URL.Host)
	r.Header.Set("Content-Type", "application/activity+json")
	headers := []string{httpsig.RequestTarget, "host", "date"}
	if body != nil {
		headers = append(headers, "digest")
	}
	signer, _, err := httpsig.NewSigner([]httpsig.Algorithm{httpsig.RSA_SHA256}, httpsig.DigestSha256, headers, httpsig.Signature, 0)
	require.NoError(f.t, err)
	require.NoError(f.t, signer.SignRequest(key, keyID, r, body))
	if tamper != nil {
		tamper(r)
	}
	res, err := http.DefaultClient.Do(r)
	require.NoError(f.t, err)
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	require.NoError(f.t, err)
	return resp{res, data}
}

// sign is signed by the remote actor, untampered.
func (f *fedEnv) sign(method, path string, body []byte) resp {
	f.t.Helper()
	return f.signed(method, path, body, f.key, f.keyID, nil)
}

// userID returns the id of the account name.
func (f *fedEnv) userID(name string) forge.ID {
	f.t.Helper()
	var id forge.ID
	require.NoError(f.t, f.b.db.Auth().View(context.Background(), func(tx auth.Tx) error {
		u, err := tx.UserByName(context.Background(), name)
		if err == nil {
			id = u.ID
		}
		return err
	}))
	return id
}

// setUser changes the stored account name.
func (f *fedEnv) setUser(name string, change func(*forge.User)) {
	f.t.Helper()
	require.NoError(f.t, f.b.db.Auth().Update(context.Background(), func(tx auth.Tx) error {
		u, err := tx.UserByName(context.Background(), name)
		if err != nil {
			return err
		}
		change(u)
		return tx.UpdateUser(context.Background(), u)
	}))
}

func path(format string, id forge.ID) string {
	return "/api/v1/activitypub/" + format + "/" + strconv.FormatInt(id, 10)
}

// TestFederationNodeInfoCountsRealData: /nodeinfo with federation on
// counts what the store holds (individual accounts, by last sign-in within
// a month and six months of the clock, issues with pull requests, comments
// of every kind), keeps its answer 180 seconds, and needs no scope.
func TestFederationNodeInfoCountsRealData(t *testing.T) {
	t.Parallel()
	f := newFedEnv(t)
	now := f.b.clock.Now()
	for _, name := range []string{"alice", "bob", "carol"} {
		f.createUser(name)
	}
	f.setUser("alice", func(u *forge.User) { u.LastLogin = now.Add(-24 * time.Hour) }) // month and half-year
	f.setUser("bob", func(u *forge.User) { u.LastLogin = now.AddDate(0, -3, 0) })      // half-year only
	f.setUser("carol", func(u *forge.User) { u.LastLogin = now.AddDate(-1, 0, 0) })    // neither
	f.setUser("root", func(u *forge.User) { u.LastLogin = now.Add(-time.Minute) })     // month and half-year
	r := f.do(rootReq("POST", "/user/repos", map[string]any{"name": "proj"}))
	f.expect(r, http.StatusCreated, "")
	repoID := forge.ID(r.json(t)["id"].(float64))
	ctx := context.Background()
	require.NoError(t, f.b.db.Issues().Update(ctx, func(tx issues.Tx) error {
		for i, pull := range []bool{false, false, true} {
			n, err := tx.NextIssueIndex(ctx, repoID)
			if err != nil {
				return err
			}
			is := &issues.Issue{RepoID: repoID, Index: n, PosterID: 1, Title: "i" + strconv.Itoa(i), IsPull: pull, Created: now, Updated: now}
			if err := tx.CreateIssue(ctx, is); err != nil {
				return err
			}
			for _, typ := range []issues.CommentType{issues.CommentPlain, issues.CommentClose} {
				if err := tx.CreateComment(ctx, &issues.Comment{IssueID: is.ID, Type: typ, PosterID: 1, Body: "c", Created: now, Updated: now}); err != nil {
					return err
				}
			}
		}
		return nil
	}))

	r = f.do(req{method: "GET", path: "/api/v1/nodeinfo"})
	f.expect(r, http.StatusOK, "")
	var info map[string]any
	require.NoError(t, json.Unmarshal(r.body, &info))
	assert.Equal(t, "2.1", info["version"])
	assert.Equal(t, "forgejo", info["software"].(map[string]any)["name"])
	assert.Equal(t, []any{"activitypub"}, info["protocols"])
	assert.Equal(t, map[string]any{"inbound": []any{}, "outbound": []any{"rss2.0"}}, info["services"])
	assert.Equal(t, map[string]any{
		"users":      map[string]any{"total": 4.0, "activeMonth": 2.0, "activeHalfyear": 3.0},
		"localPosts": 3.0, "localComments": 6.0,
	}, info["usage"])

	// Kept for 180 seconds: a new account shows after that.
	f.createUser("dave")
	r = f.do(req{method: "GET", path: "/api/v1/nodeinfo"})
	assert.Equal(t, 4.0, r.json(t)["usage"].(map[string]any)["users"].(map[string]any)["total"])
	f.b.clock.Step(181 * time.Second)
	r = f.do(req{method: "GET", path: "/api/v1/nodeinfo"})
	assert.Equal(t, 5.0, r.json(t)["usage"].(map[string]any)["users"].(map[string]any)["total"])

	// No scope: a token of any scope reads it.
	tok := f.token("root", "read:user")
	f.expect(f.do(req{method: "GET", path: "/api/v1/nodeinfo", token: tok}), http.StatusOK, "")
}

// TestFederationActorDocuments: the instance actor is fetchable unsigned,
// with the instance key; a public person and a public repository are
// described to a signed request (the person with its own key, the same
// on every fetch); private accounts, private repositories and unknown ids
// are 404; a token without the activitypub scope is refused. Every
// document is checked by the contract checker (checkActivityDocument).
func TestFederationActorDocuments(t *testing.T) {
	t.Parallel()
	f := newFedEnv(t)
	f.createUser("alice")
	f.createUser("hidden")
	f.setUser("hidden", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	r := f.do(rootReq("POST", "/user/repos", map[string]any{"name": "open"}))
	f.expect(r, http.StatusCreated, "")
	openID := forge.ID(r.json(t)["id"].(float64))
	r = f.do(rootReq("POST", "/user/repos", map[string]any{"name": "secret", "private": true}))
	f.expect(r, http.StatusCreated, "")
	secretID := forge.ID(r.json(t)["id"].(float64))
	root := f.srv.URL + "/"

	r = f.do(req{method: "GET", path: "/api/v1/activitypub/actor"})
	f.expect(r, http.StatusOK, "")
	actor := r.json(t)
	assert.Equal(t, []any{"https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"}, actor["@context"])
	assert.Equal(t, root+"api/v1/activitypub/actor", actor["id"])
	assert.Equal(t, "Application", actor["type"])
	instanceKey := parsePublicKey(t, actor)

	alice := f.userID("alice")
	r = f.sign("GET", path("user-id", alice), nil)
	f.expect(r, http.StatusOK, "")
	person := r.json(t)
	assert.Equal(t, "Person", person["type"])
	assert.Equal(t, root+"api/v1/activitypub/user-id/"+strconv.FormatInt(alice, 10), person["id"])
	assert.Equal(t, map[string]any{"en": "alice"}, person["preferredUsername"])
	assert.Equal(t, root+"alice", person["url"])
	aliceKey := parsePublicKey(t, person)
	assert.False(t, aliceKey.Equal(instanceKey), "a person has a key of its own")
	r = f.sign("GET", path("user-id", alice), nil)
	assert.True(t, aliceKey.Equal(parsePublicKey(t, r.json(t))), "the key is kept")

	r = f.sign("GET", path("repository-id", openID), nil)
	f.expect(r, http.StatusOK, "")
	assert.Equal(t, "Repository", r.json(t)["type"])
	assert.Equal(t, map[string]any{"en": "open"}, r.json(t)["name"])

	for _, p := range []string{path("user-id", f.userID("hidden")), path("user-id", 9999), path("repository-id", secretID),
		path("repository-id", 9999), path("user-id", f.userID("hidden")) + "/outbox", path("repository-id", secretID) + "/outbox"} {
		method := "GET"
		if p == path("repository-id", secretID)+"/outbox" {
			method = "POST"
		}
		r = f.sign(method, p, nil)
		assert.Equal(t, http.StatusNotFound, r.StatusCode, "%s: %s", p, r.body)
	}

	// Outboxes: empty collections.
	r = f.sign("GET", path("user-id", alice)+"/outbox", nil)
	f.expect(r, http.StatusOK, "")
	assert.Equal(t, "OrderedCollection", r.json(t)["type"])
	assert.Equal(t, []any{}, r.json(t)["orderedItems"])
	f.expect(f.sign("POST", "/api/v1/activitypub/actor/outbox", nil), http.StatusOK, "")
	f.expect(f.sign("POST", path("repository-id", openID)+"/outbox", nil), http.StatusOK, "")
	// No activity is federated: every activity id is unknown.
	f.expect(f.sign("GET", path("user-id", alice)+"/activities/1", nil), http.StatusNotFound, "")
	f.expect(f.sign("GET", path("user-id", alice)+"/activities/1/activity", nil), http.StatusNotFound, "")

	// Scope: activitypub is required of tokens.
	tok := f.token("root", "read:user")
	f.expect(f.do(req{method: "GET", path: "/api/v1/activitypub/actor", token: tok}), http.StatusForbidden,
		"token does not have at least one of required scope(s): [read:activitypub]")
	tok = f.token("root", "read:activitypub")
	f.expect(f.do(req{method: "GET", path: "/api/v1/activitypub/actor", token: tok}), http.StatusOK, "")
}

func parsePublicKey(t *testing.T, doc map[string]any) *rsa.PublicKey {
	t.Helper()
	k, ok := doc["publicKey"].(map[string]any)
	require.True(t, ok, "publicKey in %v", doc)
	block, _ := pem.Decode([]byte(k["publicKeyPem"].(string)))
	require.NotNil(t, block)
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	require.NoError(t, err)
	return pub.(*rsa.PublicKey)
}

// TestFederationSignatures: every /activitypub route but GET /actor
// needs a valid HTTP signature: unsigned requests, signatures by a key
// the key id's document does not publish, a signed request whose body,
// path or signed header changed, and a body whose digest is not signed
// are 400 `request signature verification failed` (Forgejo's
// ReqHTTPSignature) and change nothing; a signed request is served.
func TestFederationSignatures(t *testing.T) {
	t.Parallel()
	f := newFedEnv(t)
	const refused = "request signature verification failed"
	activity := []byte(`{"type":"Follow","actor":"` + f.remote.URL + `/actor"}`)

	f.expect(f.sign("POST", "/api/v1/activitypub/actor/inbox", activity), http.StatusNoContent, "")
	for _, op := range federationPaths[2:] {
		r := f.do(req{method: op.method, path: op.path, body: "{}"})
		f.expect(r, http.StatusBadRequest, refused)
	}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	cases := map[string]resp{
		"another key":      f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, other, f.keyID, nil),
		"impostor's key":   f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, other, f.remote.URL+"/impostor#main-key", nil),
		"unknown key id":   f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, f.key, f.remote.URL+"/nobody#main-key", nil),
		"key id not a URL": f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, f.key, "main-key", nil),
		"body changed": f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, f.key, f.keyID, func(r *http.Request) {
			changed := []byte(`{"type":"Delete"}`)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(changed)), int64(len(changed))
		}),
		"body and digest changed": f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, f.key, f.keyID, func(r *http.Request) {
			changed := []byte(`{"type":"Delete"}`)
			sum := sha256.Sum256(changed)
			r.Header.Set("Digest", "SHA-256="+base64.StdEncoding.EncodeToString(sum[:]))
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(changed)), int64(len(changed))
		}),
		"path changed": f.signed("POST", "/api/v1/activitypub/actor/outbox", nil, f.key, f.keyID, func(r *http.Request) {
			r.URL.Path = "/api/v1/activitypub/actor/inbox"
		}),
		"date changed": f.signed("POST", "/api/v1/activitypub/actor/inbox", activity, f.key, f.keyID, func(r *http.Request) {
			r.Header.Set("Date", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		}),
	}
	// A body whose digest the signature does not cover.
	r, err := http.NewRequest("POST", f.srv.URL+"/api/v1/activitypub/actor/inbox", bytes.NewReader(activity))
	require.NoError(t, err)
	r.Header.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	r.Header.Set("Host", r.URL.Host)
	signer, _, err := httpsig.NewSigner([]httpsig.Algorithm{httpsig.RSA_SHA256}, httpsig.DigestSha256,
		[]string{httpsig.RequestTarget, "host", "date"}, httpsig.Signature, 0)
	require.NoError(t, err)
	require.NoError(t, signer.SignRequest(f.key, f.keyID, r, nil))
	res, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	cases["digest unsigned"] = resp{res, data}
	for name, r := range cases {
		assert.Equal(t, http.StatusBadRequest, r.StatusCode, "%s: %s", name, r.body)
	}

	// A well-signed activity to a person or a repository is read but not
	// acted on (Hearth processes no federated activity yet): 501, and a
	// body that is no activity is 422.
	f.createUser("alice")
	f.expect(f.sign("POST", path("user-id", f.userID("alice"))+"/inbox", activity), http.StatusNotImplemented, "")
	f.expect(f.sign("POST", path("user-id", f.userID("alice"))+"/inbox", []byte(`[1]`)), http.StatusUnprocessableEntity, "")
	f.expect(f.sign("POST", path("user-id", 9999)+"/inbox", activity), http.StatusNotFound, "")
}
