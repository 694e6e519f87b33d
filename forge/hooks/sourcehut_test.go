package hooks_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// manifests is a hooks.FileReader over fixed files of commit c2.
type manifests map[string]string

func (m manifests) ReadFile(_ context.Context, _ forge.ID, rev, path string) ([]byte, error) {
	if v, ok := m[path]; ok && rev == c2 {
		return []byte(v), nil
	}
	return nil, forge.Errorf(forge.ErrNotFound, "no %s at %s", path, rev)
}

type sourcehutBody struct {
	Query     string `json:"query"`
	Error     string `json:"error"`
	Variables struct {
		Manifest   string   `json:"manifest"`
		Tags       []string `json:"tags"`
		Note       string   `json:"note"`
		Secrets    bool     `json:"secrets"`
		Execute    bool     `json:"execute"`
		Visibility string   `json:"visibility"`
	} `json:"variables"`
}

// TestSourcehutBuilds: a push reaches sourcehut_builds hooks on a loopback
// receiver as Forgejo's GraphQL submit mutation: the manifest read from
// the pushed commit with the submitter environment and the repository's
// source pinned to the commit, the tags, visibility and secrets of the
// hook, its Authorization header and no X-Forgejo headers or signature; a
// hook whose manifest is missing sends only Forgejo's error; an issue
// event is not converted (the task logs why).
func TestSourcehutBuilds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := newTypeReceiver(t)
	files := manifests{".builds/ci.yml": "image: alpine/edge\nsources:\n  - https://forge.example/alice/proj.git\ntasks:\n  - build: make\n",
		"bad.yml": "image: [unclosed\n"}
	e := newEnv(t, []string{"loopback"}, func(c *hooks.Config) { c.Timeout = 30 * time.Second; c.Files = files })
	mk := func(seg string, cfg hooks.Settings, events ...string) *hooks.Hook {
		cfg["url"], cfg["content_type"] = rc.srv.URL+"/"+seg, "json"
		h, err := e.hooks.Create(ctx, e.alice, hooks.RepoHooks("alice", "proj"), hooks.CreateOptions{Type: hooks.TypeSourcehutBuilds,
			Config: cfg, Events: events, AuthorizationHeader: "Bearer tok", Active: true})
		require.NoError(t, err)
		return h
	}
	mk("ok", hooks.Settings{"manifest_path": ".builds/ci.yml", "visibility": "PUBLIC", "secrets": "true", "secret": "s"}, "push")
	mk("missing", hooks.Settings{"manifest_path": ".builds/none.yml"}, "push")
	mk("bad", hooks.Settings{"manifest_path": "bad.yml"}, "push")
	issuesHook := mk("issues", hooks.Settings{"manifest_path": ".builds/ci.yml"}, "issues_only")
	e.push(t, repos.RefUpdate{Ref: "refs/heads/main", OldID: c1, NewID: c2})
	require.NoError(t, e.sinks.issueChanged(ctx, e.alice, issueView(e.repo, &issues.Issue{ID: 1, Index: 1, Title: "t", PosterID: e.alice.UserID()}, e.alice.User), hooks.ActionOpened))
	n, err := e.hooks.DeliverDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	got := rc.collect(t, 3)

	r := got["ok"]
	assert.Equal(t, "POST", r.method)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	assert.Equal(t, "Bearer tok", r.header.Get("Authorization"))
	assert.Empty(t, r.header.Get("X-Forgejo-Event"))
	assert.Empty(t, r.header.Get("X-Forgejo-Signature"))
	var b sourcehutBody
	require.NoError(t, json.Unmarshal(r.body, &b), "%s", r.body)
	assert.Empty(t, b.Error)
	assert.Contains(t, b.Query, "submit(")
	assert.Equal(t, []string{"alice/proj", "branch/main", ".builds/ci.yml"}, b.Variables.Tags)
	assert.True(t, b.Variables.Execute)
	assert.True(t, b.Variables.Secrets)
	assert.Equal(t, "PUBLIC", b.Variables.Visibility)
	var m struct {
		Image       string            `yaml:"image"`
		Sources     []string          `yaml:"sources"`
		Environment map[string]string `yaml:"environment"`
		Tasks       []map[string]string
	}
	require.NoError(t, yaml.Unmarshal([]byte(b.Variables.Manifest), &m), b.Variables.Manifest)
	assert.Equal(t, "alpine/edge", m.Image)
	assert.Equal(t, []string{"https://forge.example/alice/proj.git#" + c2}, m.Sources)
	assert.Equal(t, map[string]string{"BUILD_SUBMITTER": "forgejo", "BUILD_SUBMITTER_URL": "https://forge.example/",
		"GIT_REF": "refs/heads/main"}, m.Environment)
	assert.Equal(t, []map[string]string{{"build": "make"}}, m.Tasks)

	for seg, want := range map[string]string{"missing": `alice/proj:refs/heads/main could not open manifest ".builds/none.yml"`,
		"bad": `alice/proj:refs/heads/main could not decode manifest "bad.yml"`} {
		var b sourcehutBody
		require.NoError(t, json.Unmarshal(got[seg].body, &b), seg)
		assert.Equal(t, want, b.Error, seg)
		assert.Empty(t, b.Query, seg)
	}
	tasks := e.tasks(t, issuesHook.ID)
	require.Len(t, tasks, 1)
	assert.True(t, tasks[0].Delivered)
	assert.False(t, tasks[0].Succeeded)
	assert.Contains(t, tasks[0].ResponseBody, "unsupported event: issues")
}

func TestAdjustManifest(t *testing.T) {
	t.Parallel()
	clone := "https://forge.example/a/p.git"
	out, err := hooks.AdjustManifest([]byte("sources:\n  - https://other.example/x.git\n  - "+clone+"\nenvironment:\n  A: b\n"),
		clone, c1, "refs/tags/v1", "https://forge.example/", "m.yml")
	require.NoError(t, err)
	var m struct {
		Sources     []string          `yaml:"sources"`
		Environment map[string]string `yaml:"environment"`
	}
	require.NoError(t, yaml.Unmarshal(out, &m))
	assert.Equal(t, []string{"https://other.example/x.git", clone + "#" + c1}, m.Sources)
	assert.Equal(t, "b", m.Environment["A"])
	assert.Equal(t, "refs/tags/v1", m.Environment["GIT_REF"])
	_, err = hooks.AdjustManifest([]byte("- a list"), clone, c1, "refs/heads/main", "", "m.yml")
	assert.EqualError(t, err, `could not decode manifest "m.yml"`)
}
