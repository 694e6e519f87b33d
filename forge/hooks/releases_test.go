package hooks_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
)

func TestReleaseAction(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		op                          string
		draft, wasDraft, tagCreated bool
		want                        string
	}{
		{"create", false, false, false, hooks.ReleasePublished},
		{"create", true, false, false, ""},
		{"edit", false, false, false, hooks.ReleaseUpdated},
		{"edit", false, true, false, hooks.ReleasePublished},
		{"edit", false, false, true, hooks.ReleasePublished},
		{"edit", true, true, false, ""},
		{"edit", true, false, false, ""},
		{"delete", false, false, false, hooks.ReleaseDeleted},
		{"delete", true, false, false, ""},
		{"other", false, false, false, ""},
	} {
		assert.Equal(t, c.want, hooks.ReleaseAction(c.op, c.draft, c.wasDraft, c.tagCreated), "%+v", c)
	}
}

// TestReleaseMessages: a release payload converts for every chat type,
// with Forgejo's line ("[owner/repo] Release created: v1.0 by alice" and
// its type's links).
func TestReleaseMessages(t *testing.T) {
	t.Parallel()
	repo := map[string]any{"full_name": "alice/proj", "html_url": "https://forge.example/alice/proj", "name": "proj"}
	sender := map[string]any{"login": "alice", "username": "alice"}
	rel := map[string]any{"tag_name": "v1.0", "name": "One", "body": "notes", "html_url": "https://forge.example/alice/proj/releases/tag/v1.0"}
	for _, c := range []struct {
		typ    hooks.Type
		action string
		want   string
	}{
		{hooks.TypeSlack, "published", `"[alice/proj] Release created: \u003chttps://forge.example/alice/proj/releases/tag/v1.0|v1.0\u003e by ` + "`alice`" + `"`},
		{hooks.TypeDiscord, "updated", `[alice/proj] Release updated: v1.0`},
		{hooks.TypeDingtalk, "deleted", `[alice/proj] Release deleted: v1.0 by alice`},
		{hooks.TypeTelegram, "published", `[alice/proj] Release created: \u003ca href=\"https://forge.example/alice/proj/releases/tag/v1.0\" rel=\"nofollow\"\u003ev1.0\u003c/a\u003e by alice`},
		{hooks.TypeMSTeams, "published", `Release created: v1.0`},
		{hooks.TypeFeishu, "published", `[alice/proj] Release created: v1.0 by alice`},
		{hooks.TypeMatrix, "published", `Release created: \u003ca href=\"https://forge.example/alice/proj/releases/tag/v1.0\"\u003ev1.0\u003c/a\u003e by alice`},
		{hooks.TypeWechatwork, "published", `[alice/proj] Release created: v1.0 by alice`},
	} {
		meta := map[string]string{}
		switch c.typ {
		case hooks.TypeSlack:
			meta["channel"] = "#dev"
		case hooks.TypeMatrix:
			meta["room_id"], meta["message_type"] = "!r", "1"
		case hooks.TypeTelegram:
			meta["chat_id"] = "1"
		}
		h := &hooks.Hook{ID: 1, RepoID: 1, Type: c.typ, URL: "https://receiver.example/x", ContentType: hooks.ContentJSON,
			HTTPMethod: "POST", Meta: meta, Active: true}
		b, err := json.Marshal(map[string]any{"action": c.action, "release": rel, "repository": repo, "sender": sender})
		require.NoError(t, err)
		req, err := hooks.NewRequest(h, &hooks.Task{ID: 1, HookID: 1, UUID: "u", Event: "release", EventType: "release", Payload: b})
		require.NoError(t, err, c.typ)
		assert.Contains(t, string(req.Body), c.want, "%s: %s", c.typ, req.Body)
	}
}
