package hooks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// TestNewRequestRefusals: what a type cannot send is forge.ErrInvalid,
// never a panic: sourcehut_builds, an event a type has no message for, a
// payload that is not an event, a matrix message of 64 KiB or more.
func TestNewRequestRefusals(t *testing.T) {
	t.Parallel()
	big := fixturePush()
	big.Commits[0].Message = strings.Repeat("x", 70<<10)
	for name, c := range map[string]struct {
		h    *hooks.Hook
		task *hooks.Task
		msg  string
	}{
		"sourcehut": {typeHook(hooks.TypeSourcehutBuilds, "https://builds.example/query", nil), pushTask(t), "not delivered"},
		"release":   {typeHook(hooks.TypeSlack, "https://s.example/", nil), task(t, "release", "release", map[string]any{"action": "published"}), "unsupported event: release"},
		"not json":  {typeHook(hooks.TypeDiscord, "https://d.example/", nil), &hooks.Task{Event: "push", EventType: "push", Payload: []byte("{")}, "push payload"},
		"no sender": {typeHook(hooks.TypeTelegram, "https://t.example/", nil), task(t, "issues", "issues", map[string]any{"action": "opened"}), "incomplete payload"},
		"too big":   {typeHook(hooks.TypeMatrix, "https://m.example/send", nil), task(t, "push", "push", big), "matrix payload size"},
	} {
		_, err := hooks.NewRequest(c.h, c.task)
		require.ErrorIs(t, err, forge.ErrInvalid, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
	assert.False(t, hooks.Deliverable(hooks.TypeSourcehutBuilds))
	assert.False(t, hooks.Deliverable("irc"))
	for _, typ := range []hooks.Type{hooks.TypeForgejo, hooks.TypeSlack, hooks.TypeMatrix, hooks.TypePackagist} {
		assert.True(t, hooks.Deliverable(typ), typ)
	}
}

// TestChatHeadersAndSecret: converted messages carry the delivery headers
// of native hooks, signed over the body actually sent, and the hook's
// Authorization header.
func TestChatHeadersAndSecret(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeDiscord, "https://d.example/", map[string]string{"username": "f"})
	h.Secret, h.AuthorizationHeader = "s3cret", "Bearer x"
	r, err := hooks.NewRequest(h, issueTask(t))
	require.NoError(t, err)
	assert.Equal(t, hooks.Sign("s3cret", r.Body), r.Header["X-Forgejo-Signature"])
	assert.Equal(t, "sha256="+hooks.Sign("s3cret", r.Body), r.Header["X-Hub-Signature-256"])
	assert.Equal(t, "issues", r.Header["X-Forgejo-Event"])
	assert.Equal(t, "uuid-1", r.Header["X-Gitea-Delivery"])
	assert.Equal(t, "Bearer x", r.Header["Authorization"])
	h.HTTPMethod = "GET" // chat types always POST their JSON body
	r, err = hooks.NewRequest(h, issueTask(t))
	require.NoError(t, err)
	assert.Equal(t, "POST", r.Method)
	assert.NotEmpty(t, r.Body)
}

// BenchmarkNewRequest measures converting a two-commit push for each type
// (the work the worker adds per delivery).
func BenchmarkNewRequest(b *testing.B) {
	body, err := json.Marshal(fixturePush())
	require.NoError(b, err)
	tk := &hooks.Task{ID: 1, HookID: 1, UUID: "uuid-1", Event: "push", EventType: "push", Payload: body}
	for _, typ := range []hooks.Type{hooks.TypeForgejo, hooks.TypeSlack, hooks.TypeDiscord, hooks.TypeTelegram,
		hooks.TypeMSTeams, hooks.TypeMatrix} {
		h := typeHook(typ, "https://x.example/", map[string]string{"channel": "c"})
		b.Run(string(typ), func(b *testing.B) {
			for b.Loop() {
				if _, err := hooks.NewRequest(h, tk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
