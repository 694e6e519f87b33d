package httpapi_test

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crossRepoWorld is the world of TestAccessMatrixCrossRepo: callers who
// could read a repository, made a fork of it (or opened a pull request
// from it) and then lost that access, while its owner went on committing.
//
//   - reader and keeper are read collaborators of olivia's private
//     olivia/secret; reader forked it as reader/copy (another name) and
//     opened pull request pull in reader/copy with head olivia:feature;
//     keeper forked it as keeper/secret. Then reader was removed.
//   - fan forked olivia's public olivia/open as fan/open; then olivia made
//     olivia/open private.
//   - teamr, a member of acme's read team, forked acme's private acme/core
//     as teamr/core; then teamr left the team.
//   - reader, keeper, fan and teamr each made a pull mirror {caller}/mirrored
//     of the source they could read (over this server's git endpoint).
//
// After the losses olivia committed newSecret to olivia/secret main,
// newFeature to its feature branch, newOpen to olivia/open main and
// newCore to acme/core main: none of them may reach a repository of a
// caller who lost access.
type crossRepoWorld struct {
	pull                                    string
	newSecret, newFeature, newOpen, newCore string
}

// seedCrossRepo builds the crossRepoWorld in e.
func seedCrossRepo(t *testing.T, e *env) *crossRepoWorld {
	w := &crossRepoWorld{}
	ok := func(r resp, why string) resp {
		t.Helper()
		require.True(t, r.StatusCode/100 == 2, "seed %s: %d %s", why, r.StatusCode, r.body)
		return r
	}
	commitFile := func(repo, branch, path string) string {
		t.Helper()
		r := ok(e.do(as("olivia", "POST", "/repos/"+repo+"/contents/"+path, map[string]any{"branch": branch,
			"content": base64.StdEncoding.EncodeToString([]byte(path + "\n")), "message": "add " + path})), "commit "+path)
		return r.json(t)["commit"].(map[string]any)["sha"].(string)
	}
	for _, u := range []string{"olivia", "reader", "keeper", "fan", "teamr"} {
		e.createUser(u)
	}
	ok(e.do(as("olivia", "POST", "/user/repos", map[string]any{"name": "secret", "private": true, "auto_init": true})), "secret")
	ok(e.do(as("olivia", "POST", "/user/repos", map[string]any{"name": "open", "auto_init": true})), "open")
	ok(e.do(as("olivia", "POST", "/orgs", map[string]any{"username": "acme"})), "acme")
	team := ok(e.do(as("olivia", "POST", "/orgs/acme/teams", map[string]any{"name": "readers", "permission": "read",
		"includes_all_repositories": true, "units": []string{"repo.code", "repo.issues", "repo.pulls"}})), "team").json(t)
	teamID := strconv.FormatInt(int64(team["id"].(float64)), 10)
	ok(e.do(as("olivia", "PUT", "/teams/"+teamID+"/members/teamr", nil)), "team member")
	ok(e.do(as("olivia", "POST", "/orgs/acme/repos", map[string]any{"name": "core", "private": true, "auto_init": true})), "core")
	for _, c := range []string{"reader", "keeper"} {
		ok(e.do(as("olivia", "PUT", "/repos/olivia/secret/collaborators/"+c, map[string]any{"permission": "read"})), "collaborator")
	}
	commitFile("olivia/secret", "main", "feature-base.txt")
	ok(e.do(as("olivia", "POST", "/repos/olivia/secret/branches", map[string]any{"new_branch_name": "feature"})), "feature")
	commitFile("olivia/secret", "feature", "feature.txt")

	ok(e.do(as("reader", "POST", "/repos/olivia/secret/forks", map[string]any{"name": "copy"})), "reader's fork")
	ok(e.do(as("keeper", "POST", "/repos/olivia/secret/forks", map[string]any{})), "keeper's fork")
	ok(e.do(as("fan", "POST", "/repos/olivia/open/forks", map[string]any{})), "fan's fork")
	ok(e.do(as("teamr", "POST", "/repos/acme/core/forks", map[string]any{})), "teamr's fork")
	pr := ok(e.do(as("reader", "POST", "/repos/reader/copy/pulls", map[string]any{"head": "olivia:feature", "base": "main",
		"title": "from the parent"})), "pull from the parent").json(t)
	w.pull = strconv.FormatInt(int64(pr["number"].(float64)), 10)
	// Pull mirrors of the sources, made while they could be read (with
	// the caller's credentials, or none for the public one).
	for _, m := range []struct{ caller, from string }{{"reader", "olivia/secret"}, {"keeper", "olivia/secret"},
		{"fan", "olivia/open"}, {"teamr", "acme/core"}} {
		body := map[string]any{"clone_addr": e.srv.URL + "/" + m.from + ".git", "repo_name": "mirrored", "mirror": true}
		if m.caller != "fan" {
			body["auth_username"], body["auth_password"] = m.caller, m.caller+"-password"
		}
		ok(e.do(as(m.caller, "POST", "/repos/migrate", body)), "mirror of "+m.caller)
	}

	// The losses.
	ok(e.do(as("olivia", "DELETE", "/repos/olivia/secret/collaborators/reader", nil)), "remove reader")
	ok(e.do(as("olivia", "PATCH", "/repos/olivia/open", map[string]any{"private": true})), "open turns private")
	ok(e.do(as("olivia", "DELETE", "/teams/"+teamID+"/members/teamr", nil)), "teamr leaves")

	// The owners go on committing.
	w.newSecret = commitFile("olivia/secret", "main", "after-secret.txt")
	w.newFeature = commitFile("olivia/secret", "feature", "after-feature.txt")
	w.newOpen = commitFile("olivia/open", "main", "after-open.txt")
	w.newCore = commitFile("acme/core", "main", "after-core.txt")
	return w
}

// TestAccessMatrixCrossRepo is the access matrix of the operations that
// move objects from one repository into another, or tell of them
// (sync_fork GET and POST, fork, a pull request from another repository
// of the network and its later merge, compare across forks, migration
// from this same server and a pull mirror's later sync), for callers who
// lost read access to the source:
// a removed collaborator, a parent turned private, a removed team member;
// with the callers who kept it as the control. Each row's status is
// written here, from the rule (the source must be readable by the caller
// at that moment): a parent the caller cannot read is answered as a parent
// that is gone (400 `The Repo must be a fork`, as Forgejo answers for a
// fork whose parent was deleted); a repository the caller cannot read is
// 404; a migration the server's git endpoint refuses is 422. Afterwards no
// commit made after the loss is in the caller's repositories.
func TestAccessMatrixCrossRepo(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	w := seedCrossRepo(t, e)
	pull := func(head string) map[string]any {
		return map[string]any{"head": head, "base": "main", "title": "cross"}
	}
	migrate := func(from, name, user string) map[string]any {
		m := map[string]any{"clone_addr": e.srv.URL + "/" + from + ".git", "repo_name": name}
		if user != "" {
			m["auth_username"], m["auth_password"] = user, user+"-password"
		}
		return m
	}
	rows := []struct {
		who, caller, method, path string
		body                      any
		want                      int
	}{
		// A removed collaborator.
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/sync_fork", nil, http.StatusBadRequest},
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/sync_fork/main", nil, http.StatusBadRequest},
		{"removed collaborator", "reader", "POST", "/repos/reader/copy/sync_fork", nil, http.StatusBadRequest},
		{"removed collaborator", "reader", "POST", "/repos/reader/copy/sync_fork/main", nil, http.StatusBadRequest},
		{"removed collaborator", "reader", "POST", "/repos/olivia/secret/forks", map[string]any{"name": "again"}, http.StatusNotFound},
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/compare/main...olivia:main", nil, http.StatusNotFound},
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/compare/main...olivia/secret:main", nil, http.StatusNotFound},
		{"removed collaborator", "reader", "POST", "/repos/reader/copy/pulls", pull("olivia:main"), http.StatusNotFound},
		{"removed collaborator", "reader", "POST", "/repos/reader/copy/pulls", pull("olivia/secret:main"), http.StatusNotFound},
		// The pull request opened before the loss merges the head it had:
		// the parent's later commits are not fetched (checked below).
		{"removed collaborator", "reader", "POST", "/repos/reader/copy/pulls/" + w.pull + "/merge", map[string]any{"Do": "merge"}, http.StatusOK},
		{"removed collaborator", "reader", "POST", "/repos/migrate", migrate("olivia/secret", "stolen", "reader"), http.StatusUnprocessableEntity},
		{"removed collaborator", "reader", "POST", "/repos/migrate", migrate("olivia/secret", "stolen", ""), http.StatusUnprocessableEntity},
		{"removed collaborator", "reader", "POST", "/repos/migrate", map[string]any{"clone_addr": "/tmp", "repo_name": "stolen"}, http.StatusUnprocessableEntity},
		{"removed collaborator", "reader", "POST", "/repos/migrate", map[string]any{"clone_addr": "file:///tmp", "repo_name": "stolen"}, http.StatusUnprocessableEntity},
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/git/commits/" + w.newSecret, nil, http.StatusNotFound},
		{"removed collaborator", "reader", "GET", "/repos/reader/copy/git/commits/" + w.newFeature, nil, http.StatusNotFound},
		// A pull mirror's sync failing is recorded, not answered (200, as
		// Forgejo queues it); nothing arrives.
		{"removed collaborator", "reader", "POST", "/repos/reader/mirrored/mirror-sync", nil, http.StatusOK},
		{"removed collaborator", "reader", "GET", "/repos/reader/mirrored/git/commits/" + w.newSecret, nil, http.StatusNotFound},

		// A parent turned private.
		{"parent turned private", "fan", "GET", "/repos/fan/open/sync_fork", nil, http.StatusBadRequest},
		{"parent turned private", "fan", "GET", "/repos/fan/open/sync_fork/main", nil, http.StatusBadRequest},
		{"parent turned private", "fan", "POST", "/repos/fan/open/sync_fork", nil, http.StatusBadRequest},
		{"parent turned private", "fan", "POST", "/repos/fan/open/sync_fork/main", nil, http.StatusBadRequest},
		{"parent turned private", "fan", "POST", "/repos/olivia/open/forks", map[string]any{"name": "again"}, http.StatusNotFound},
		{"parent turned private", "fan", "GET", "/repos/fan/open/compare/main...olivia:main", nil, http.StatusNotFound},
		{"parent turned private", "fan", "POST", "/repos/fan/open/pulls", pull("olivia:main"), http.StatusNotFound},
		{"parent turned private", "fan", "POST", "/repos/migrate", migrate("olivia/open", "stolen", "fan"), http.StatusUnprocessableEntity},
		{"parent turned private", "fan", "POST", "/repos/migrate", migrate("olivia/open", "stolen", ""), http.StatusUnprocessableEntity},
		{"parent turned private", "fan", "GET", "/repos/fan/open/git/commits/" + w.newOpen, nil, http.StatusNotFound},
		{"parent turned private", "fan", "POST", "/repos/fan/mirrored/mirror-sync", nil, http.StatusOK},
		{"parent turned private", "fan", "GET", "/repos/fan/mirrored/git/commits/" + w.newOpen, nil, http.StatusNotFound},

		// A removed team member.
		{"removed team member", "teamr", "GET", "/repos/teamr/core/sync_fork", nil, http.StatusBadRequest},
		{"removed team member", "teamr", "GET", "/repos/teamr/core/sync_fork/main", nil, http.StatusBadRequest},
		{"removed team member", "teamr", "POST", "/repos/teamr/core/sync_fork", nil, http.StatusBadRequest},
		{"removed team member", "teamr", "POST", "/repos/teamr/core/sync_fork/main", nil, http.StatusBadRequest},
		{"removed team member", "teamr", "POST", "/repos/acme/core/forks", map[string]any{"name": "again"}, http.StatusNotFound},
		{"removed team member", "teamr", "GET", "/repos/teamr/core/compare/main...acme:main", nil, http.StatusNotFound},
		{"removed team member", "teamr", "POST", "/repos/teamr/core/pulls", pull("acme:main"), http.StatusNotFound},
		{"removed team member", "teamr", "POST", "/repos/migrate", migrate("acme/core", "stolen", "teamr"), http.StatusUnprocessableEntity},
		{"removed team member", "teamr", "POST", "/repos/migrate", migrate("acme/core", "stolen", ""), http.StatusUnprocessableEntity},
		{"removed team member", "teamr", "GET", "/repos/teamr/core/git/commits/" + w.newCore, nil, http.StatusNotFound},
		{"removed team member", "teamr", "POST", "/repos/teamr/mirrored/mirror-sync", nil, http.StatusOK},
		{"removed team member", "teamr", "GET", "/repos/teamr/mirrored/git/commits/" + w.newCore, nil, http.StatusNotFound},

		// The control: a read collaborator who kept the access.
		{"kept access", "keeper", "GET", "/repos/keeper/secret/compare/main...olivia:main", nil, http.StatusOK},
		{"kept access", "keeper", "POST", "/repos/migrate", migrate("olivia/secret", "copied", "keeper"), http.StatusCreated},
		{"kept access", "keeper", "POST", "/repos/keeper/secret/pulls", pull("olivia:feature"), http.StatusCreated},
		{"kept access", "keeper", "GET", "/repos/keeper/secret/sync_fork/main", nil, http.StatusOK},
		{"kept access", "keeper", "POST", "/repos/keeper/secret/sync_fork/main", nil, http.StatusNoContent},
		{"kept access", "keeper", "GET", "/repos/keeper/secret/git/commits/" + w.newSecret, nil, http.StatusOK},
		{"kept access", "keeper", "POST", "/repos/keeper/mirrored/mirror-sync", nil, http.StatusOK},
		{"kept access", "keeper", "GET", "/repos/keeper/mirrored/git/commits/" + w.newSecret, nil, http.StatusOK},
	}
	for _, r := range rows {
		got := e.do(as(r.caller, r.method, r.path, r.body))
		assert.Equal(t, r.want, got.StatusCode, "%s: %s %s %s: %s", r.who, r.caller, r.method, r.path, got.body)
	}

	// Nothing the callers who lost access could not read reached their
	// repositories: the forks' main branches are where the forks left
	// them, no repository "stolen" or "again" exists.
	for _, c := range []struct{ caller, fork, parent string }{
		{"reader", "reader/copy", ""}, {"fan", "fan/open", w.newOpen}, {"teamr", "teamr/core", w.newCore}} {
		b := e.do(as(c.caller, "GET", "/repos/"+c.fork+"/branches/main", nil))
		require.Equal(t, http.StatusOK, b.StatusCode, "%s", b.body)
		if c.parent != "" {
			assert.NotEqual(t, c.parent, b.json(t)["commit"].(map[string]any)["id"], "%s was not synced", c.fork)
		}
		for _, name := range []string{"stolen", "again"} {
			r := e.do(as(c.caller, "GET", "/repos/"+c.caller+"/"+name, nil))
			assert.Equal(t, http.StatusNotFound, r.StatusCode, "%s/%s was not created", c.caller, name)
		}
	}
	m := e.do(as("reader", "GET", "/repos/reader/copy/pulls/"+w.pull, nil))
	require.Equal(t, http.StatusOK, m.StatusCode, "%s", m.body)
	assert.NotEqual(t, w.newFeature, m.json(t)["head"].(map[string]any)["sha"], "the pull request's head was not refetched")
}

// TestPullHeadOwnerFindsForkOfAnotherName: a head written "owner:branch"
// names the owner's fork of the base repository whatever its name, as
// Forgejo's parseCompareInfo (GetForkedRepo) finds it: bob's fork of
// olivia/proj is bob/elsewhere, and both the pull request and the
// comparison find it; an owner without a fork is 404.
func TestPullHeadOwnerFindsForkOfAnotherName(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	for _, u := range []string{"olivia", "bob", "carl"} {
		e.createUser(u)
	}
	e.expect(e.do(as("olivia", "POST", "/user/repos", map[string]any{"name": "proj", "auto_init": true})), http.StatusCreated, "")
	e.expect(e.do(as("bob", "POST", "/repos/olivia/proj/forks", map[string]any{"name": "elsewhere"})), http.StatusAccepted, "")
	r := e.do(as("bob", "POST", "/repos/bob/elsewhere/contents/topic.txt", map[string]any{"new_branch": "topic",
		"content": base64.StdEncoding.EncodeToString([]byte("topic\n")), "message": "topic"}))
	e.expect(r, http.StatusCreated, "")
	sha := r.json(t)["commit"].(map[string]any)["sha"].(string)

	r = e.do(as("bob", "POST", "/repos/olivia/proj/pulls", map[string]any{"head": "bob:topic", "base": "main", "title": "topic"}))
	require.Equal(t, http.StatusCreated, r.StatusCode, "%s", r.body)
	head := r.json(t)["head"].(map[string]any)
	assert.Equal(t, "bob/elsewhere", head["repo"].(map[string]any)["full_name"])
	assert.Equal(t, sha, head["sha"])

	r = e.do(as("carl", "GET", "/repos/olivia/proj/compare/main...bob:topic", nil))
	require.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
	assert.Equal(t, float64(1), r.json(t)["total_commits"])

	r = e.do(as("carl", "POST", "/repos/olivia/proj/pulls", map[string]any{"head": "carl:topic", "base": "main", "title": "none"}))
	assert.Equal(t, http.StatusNotFound, r.StatusCode, "carl has no fork: %s", r.body)
}

// TestCompareAcrossForksCopiesNothing: comparing a base repository with a
// branch of a fork reads the fork's objects without copying them into the
// base: bob, a reader of carol's private fork, compares the public parent
// with it (the fork is carol's private organisation's, hush/proj), and
// dave, who reads only the parent, finds neither the fork's commit nor a
// ref naming it there.
func TestCompareAcrossForksCopiesNothing(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	for _, u := range []string{"olivia", "carol", "bob", "dave"} {
		e.createUser(u)
	}
	e.expect(e.do(as("olivia", "POST", "/user/repos", map[string]any{"name": "proj", "auto_init": true})), http.StatusCreated, "")
	e.expect(e.do(as("carol", "POST", "/orgs", map[string]any{"username": "hush", "visibility": "private"})), http.StatusCreated, "")
	e.expect(e.do(as("carol", "POST", "/repos/olivia/proj/forks", map[string]any{"organization": "hush"})), http.StatusAccepted, "")
	e.expect(e.do(as("carol", "PUT", "/repos/hush/proj/collaborators/bob", map[string]any{"permission": "read"})), http.StatusNoContent, "")
	e.expect(e.do(as("dave", "GET", "/repos/hush/proj", nil)), http.StatusNotFound, "")
	r := e.do(as("carol", "POST", "/repos/hush/proj/contents/wip.txt", map[string]any{"new_branch": "wip",
		"content": base64.StdEncoding.EncodeToString([]byte("private work\n")), "message": "private work"}))
	e.expect(r, http.StatusCreated, "")
	sha := r.json(t)["commit"].(map[string]any)["sha"].(string)

	r = e.do(as("bob", "GET", "/repos/olivia/proj/compare/main...hush:wip", nil))
	require.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
	assert.Equal(t, float64(1), r.json(t)["total_commits"])
	r = e.do(as("dave", "GET", "/repos/olivia/proj/compare/main...hush:wip", nil))
	assert.Equal(t, http.StatusNotFound, r.StatusCode, "%s", r.body)

	r = e.do(as("dave", "GET", "/repos/olivia/proj/git/commits/"+sha, nil))
	assert.Equal(t, http.StatusNotFound, r.StatusCode, "the fork's commit is not in the parent: %s", r.body)
	r = e.do(as("dave", "GET", "/repos/olivia/proj/git/refs", nil))
	require.Equal(t, http.StatusOK, r.StatusCode, "%s", r.body)
	assert.NotContains(t, string(r.body), sha, "no ref of the parent names the fork's commit")
}
