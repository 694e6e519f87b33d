package hooks_test

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge/hooks", forgetest.DomainBadDeps)
}

func TestCheckConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		typ  hooks.Type
		cfg  hooks.Settings
		want string // "" for valid
		bad  bool   // a 400 rather than 422
	}{
		{"forgejo", hooks.Settings{"url": "https://example.com/h", "content_type": "json"}, "", false},
		{"gitea", hooks.Settings{"url": "http://example.com", "content_type": "form"}, "", false},
		{"forgejo", hooks.Settings{"content_type": "json"}, "Missing config option: url", false},
		{"forgejo", hooks.Settings{"url": "https://example.com"}, "Missing config option: content_type", false},
		{"forgejo", hooks.Settings{"url": "https://example.com", "content_type": "xml"}, "Invalid content type", false},
		{"forgejo", hooks.Settings{"url": "ftp://example.com", "content_type": "json"}, "Invalid url", false},
		{"forgejo", hooks.Settings{"url": "not a url", "content_type": "json"}, "Invalid url", false},
		{"slack", hooks.Settings{"url": "https://example.com", "content_type": "json"}, "Missing config option: channel", false},
		{"slack", hooks.Settings{"url": "https://example.com", "content_type": "json", "channel": "#"}, "Invalid slack channel name", true},
		{"slack", hooks.Settings{"url": "https://example.com", "content_type": "json", "channel": "#dev"}, "", false},
	} {
		err := hooks.CheckConfig(c.typ, c.cfg)
		if c.want == "" {
			assert.NoError(t, err, c.cfg)
			continue
		}
		require.Error(t, err, c.cfg)
		assert.Equal(t, c.want, err.Error())
		assert.ErrorIs(t, err, forge.ErrInvalid)
		var br *hooks.BadRequestError
		assert.Equal(t, c.bad, errors.As(err, &br), c.want)
	}
}

func TestTypes(t *testing.T) {
	t.Parallel()
	for _, ty := range []hooks.Type{"forgejo", "gitea", "gogs", "slack", "discord", "dingtalk", "telegram", "msteams", "feishu", "matrix", "wechatwork", "packagist", "sourcehut_builds"} {
		assert.True(t, ty.Valid(), ty)
	}
	for _, ty := range []hooks.Type{"", "github", "Forgejo"} {
		assert.False(t, ty.Valid(), ty)
	}
}

func TestNormalizeEvents(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"push"}, hooks.NormalizeEvents(nil))
	assert.Equal(t, []string{"create", "issues_only", "issue_assign", "issue_label", "issue_milestone", "issue_comment"},
		hooks.NormalizeEvents([]string{"issues", "Create", "issues", ""}), "issues is the issue family, as Forgejo's issuesHook")
	assert.Equal(t, []string{"pull_request_only", "pull_request_assign", "pull_request_label", "pull_request_milestone",
		"pull_request_comment", "pull_request_review", "pull_request_review_request", "pull_request_sync"},
		hooks.NormalizeEvents([]string{"pull_request"}), "pull_request is the pull request family, as Forgejo's pullHook")
	assert.Equal(t, []string{"issues_only", "pull_request_sync"}, hooks.NormalizeEvents([]string{"pull_request_sync", "issues_only"}))
	assert.Equal(t, []string{"push"}, hooks.NormalizeEvents([]string{"push", "bogus"}), "unknown words are ignored, as Forgejo")
	assert.Equal(t, []string{}, hooks.NormalizeEvents([]string{"bogus"}))
}

// TestShownEvents: the answer's events are Forgejo's HookEvents keys: the
// family's members, issues_only shown as issues.
func TestShownEvents(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ stored, want []string }{
		{hooks.NormalizeEvents([]string{"issues", "push"}),
			[]string{"push", "issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"}},
		{hooks.NormalizeEvents([]string{"pull_request"}),
			[]string{"pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone", "pull_request_comment",
				"pull_request_review", "pull_request_review_request", "pull_request_sync"}},
		{[]string{"issues_only"}, []string{"issues"}},
		{[]string{"issues"}, []string{"issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"}},
		{[]string{"release", "create"}, []string{"create", "release"}},
		{[]string{}, []string{}},
	} {
		assert.Equal(t, c.want, hooks.ShownEvents(c.stored), "%v", c.stored)
	}
}

func TestSubscribes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		events []string
		event  string
		want   bool
	}{
		{[]string{"push"}, "push", true},
		{[]string{"push"}, "create", false},
		{[]string{"issues"}, "issues_only", true},
		{[]string{"issues"}, "issue_label", true},
		{[]string{"issues"}, "issue_comment", true},
		{[]string{"issues_only"}, "issue_comment", false},
		{[]string{"issues_only"}, "issue_label", false},
		{[]string{"issue_comment"}, "issue_comment", true},
		{[]string{"pull_request"}, "pull_request_sync", true},
		{[]string{"pull_request"}, "pull_request_comment", true},
		{[]string{"pull_request_only"}, "pull_request_comment", false},
	} {
		assert.Equal(t, c.want, hooks.Subscribes(c.events, c.event), "%v %s", c.events, c.event)
	}
}

func TestMatchBranchFilter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		filter, branch string
		want           bool
	}{
		{"", "main", true},
		{"*", "feature/x", true},
		{"main", "main", true},
		{"main", "dev", false},
		{"{main,release/*}", "release/1.0", true},
		{"{main,release/*}", "dev", false},
		{"feature/*", "feature/a/b", true}, // no separator: * spans '/', as Forgejo
		{"main", "", true},                 // events without a branch pass
		{"[", "main", false},               // a filter that does not compile passes nothing
	} {
		assert.Equal(t, c.want, hooks.MatchBranchFilter(c.filter, c.branch), "%q %q", c.filter, c.branch)
	}
	assert.False(t, hooks.ValidBranchFilter("["))
	assert.True(t, hooks.ValidBranchFilter("{a,b}"))
}

func TestParseSystemFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  hooks.Settings
		want bool
		err  bool
	}{
		{hooks.Settings{}, false, false},
		{hooks.Settings{"is_system_webhook": "true"}, true, false},
		{hooks.Settings{"is_system_webhook": "1"}, true, false},
		{hooks.Settings{"is_system_webhook": "false"}, false, false},
		{hooks.Settings{"is_system_webhook": "yes"}, false, true},
	} {
		got, err := hooks.ParseSystemFlag(c.cfg)
		if c.err {
			assert.EqualError(t, err, "Invalid is_system_webhook value")
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got, c.cfg)
	}
}

func TestAddressPolicy(t *testing.T) {
	t.Parallel()
	ip := netip.MustParseAddr
	for _, c := range []struct {
		list []string
		host string
		addr string
		want bool
	}{
		{nil, "example.com", "93.184.216.34", true},
		{nil, "localhost", "127.0.0.1", false},
		{nil, "x", "::1", false},
		{nil, "x", "10.0.0.1", false},
		{nil, "x", "192.168.1.1", false},
		{nil, "x", "169.254.169.254", false}, // metadata, link-local
		{nil, "x", "fe80::1", false},
		{nil, "x", "0.0.0.0", false},
		{nil, "x", "::ffff:127.0.0.1", false},
		{[]string{"loopback"}, "localhost", "127.0.0.1", true},
		{[]string{"loopback"}, "x", "93.184.216.34", false},
		{[]string{"private"}, "x", "172.16.5.4", true},
		{[]string{"private"}, "x", "127.0.0.1", false},
		{[]string{"external,loopback"}, "x", "127.0.0.1", true},
		{[]string{"10.1.0.0/16"}, "x", "10.1.2.3", true},
		{[]string{"10.1.0.0/16"}, "x", "10.2.2.3", false},
		{[]string{"*.internal.example"}, "ci.internal.example", "10.9.9.9", true},
		{[]string{"*.internal.example"}, "ci.other.example", "10.9.9.9", false},
		{[]string{"*"}, "x", "169.254.169.254", true},
	} {
		p, err := hooks.ParseAddressPolicy(c.list)
		require.NoError(t, err)
		assert.Equal(t, c.want, p.Allows(c.host, ip(c.addr)), "%v %s %s", c.list, c.host, c.addr)
	}
	_, err := hooks.ParseAddressPolicy([]string{"[bad"})
	assert.ErrorIs(t, err, forge.ErrInvalid)
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 10*time.Second, hooks.Backoff(1, 10*time.Second, time.Hour))
	assert.Equal(t, 40*time.Second, hooks.Backoff(3, 10*time.Second, time.Hour))
	assert.Equal(t, time.Hour, hooks.Backoff(30, 10*time.Second, time.Hour))
}

func TestBuildRequest(t *testing.T) {
	t.Parallel()
	h := &hooks.Hook{URL: "https://example.com/h", ContentType: hooks.ContentForm, Secret: "s3", AuthorizationHeader: "Bearer x"}
	k := &hooks.Task{UUID: "u-1", Event: "issues", EventType: "issue_label", Payload: []byte(`{"a":"b c"}`)}
	r := hooks.BuildRequest(h, k)
	assert.Equal(t, "POST", r.Method)
	assert.Equal(t, "payload=%7B%22a%22%3A%22b+c%22%7D", string(r.Body))
	assert.Equal(t, "application/x-www-form-urlencoded", r.Header["Content-Type"])
	assert.Equal(t, hooks.Sign("s3", r.Body), r.Header["X-Forgejo-Signature"], "the signature is of the body sent")
	assert.Equal(t, r.Header["X-Forgejo-Signature"], r.Header["X-Gitea-Signature"])
	assert.Equal(t, "sha256="+r.Header["X-Forgejo-Signature"], r.Header["X-Hub-Signature-256"])
	assert.Equal(t, "u-1", r.Header["X-Forgejo-Delivery"])
	assert.Equal(t, "issues", r.Header["X-Gitea-Event"])
	assert.Equal(t, "issue_label", r.Header["X-Forgejo-Event-Type"])
	assert.Equal(t, "Bearer x", r.Header["Authorization"])
	h.Secret = ""
	_, signed := hooks.BuildRequest(h, k).Header["X-Forgejo-Signature"]
	assert.False(t, signed)
}
