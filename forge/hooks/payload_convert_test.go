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
		"wiki":      {typeHook(hooks.TypeSlack, "https://s.example/", nil), task(t, "wiki", "wiki", map[string]any{"action": "created"}), "unsupported event: wiki"},
		"release":   {typeHook(hooks.TypeSlack, "https://s.example/", nil), task(t, "release", "release", map[string]any{"action": "published"}), "release payload: incomplete payload"},
		"not json":  {typeHook(hooks.TypeDiscord, "https://d.example/", nil), &hooks.Task{Event: "push", EventType: "push", Payload: []byte("{")}, "push payload"},
		"no sender": {typeHook(hooks.TypeTelegram, "https://t.example/", nil), task(t, "issues", "issues", map[string]any{"action": "opened"}), "incomplete payload"},
		"too big":   {typeHook(hooks.TypeMatrix, "https://m.example/send", nil), task(t, "push", "push", big), "matrix payload size"},
	} {
		_, err := hooks.NewRequest(c.h, c.task)
		require.ErrorIs(t, err, forge.ErrInvalid, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
	assert.True(t, hooks.Deliverable(hooks.TypeSourcehutBuilds)) // through Service, with Config.Files
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

// TestTypeMetaKept: each type's own config keys are kept in Meta on
// create and edit (what its messages read), and the "config" Forgejo
// shows holds them for slack only.
func TestTypeMetaKept(t *testing.T) {
	t.Parallel()
	assert.Equal(t, map[string]string{"username": "bot", "icon_url": "https://i/x.png"},
		hooks.MetaOf(hooks.TypeDiscord, hooks.Settings{"url": "u", "username": "bot", "icon_url": "https://i/x.png", "channel": "x"}))
	assert.Equal(t, map[string]string{"room_id": "!r", "message_type": "2"},
		hooks.MetaOf(hooks.TypeMatrix, hooks.Settings{"room_id": "!r", "message_type": "2", "secret": "s"}))
	assert.Equal(t, map[string]string{"package_url": "https://p/x"}, hooks.MetaOf(hooks.TypePackagist, hooks.Settings{"package_url": "https://p/x"}))
	assert.Empty(t, hooks.MetaOf(hooks.TypeMSTeams, hooks.Settings{"username": "bot"}))

	d := typeHook(hooks.TypeDiscord, "https://d/", map[string]string{"username": "bot"})
	assert.Equal(t, map[string]string{"url": "https://d/", "content_type": "json"}, hooks.HookConfig(d))
	s := typeHook(hooks.TypeSlack, "https://s/", map[string]string{"channel": "#c"})
	assert.Equal(t, map[string]string{"url": "https://s/", "content_type": "json", "channel": "#c"}, hooks.HookConfig(s))
}
