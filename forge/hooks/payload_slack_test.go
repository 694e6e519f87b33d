package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestSlackPayloads compares the slack messages with those Forgejo's
// services/webhook/slack.go builds for the same events.
func TestSlackPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeSlack, "https://hooks.slack.example/services/x", map[string]string{"channel": "#dev", "username": "forge", "icon_url": "https://icons.example/forge.png", "color": "#414141"})
	runPayloadCases(t, h, "POST", "https://hooks.slack.example/services/x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo:\\u003chttp://localhost:3000/test/repo/src/branch/test|test\\u003e] \\u003chttp://localhost:3000/test/repo/compare/2020558fe2e34debb818a514715839cabd25e778...2020558fe2e34debb818a514715839cabd25e778|2 new commits\\u003e pushed by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": [\n    {\n      \"fallback\": \"\",\n      \"color\": \"#414141\",\n      \"title\": \"http://localhost:3000/test/repo\",\n      \"title_link\": \"http://localhost:3000/test/repo\",\n      \"text\": \"\\u003chttp://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778|2020558\\u003e: commit message - `user1`\\n\\u003chttp://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778|2020558\\u003e: commit message - `user1`\"\n    }\n  ]\n}"},
		{name: "issue opened", task: issueTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo] Issue opened: \\u003chttp://localhost:3000/test/repo/issues/2|#2 crash\\u003e by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": [\n    {\n      \"fallback\": \"\",\n      \"color\": \"eb6420\",\n      \"title\": \"#2 crash\",\n      \"title_link\": \"http://localhost:3000/test/repo/issues/2\",\n      \"text\": \"issue body\"\n    }\n  ]\n}"},
		{name: "issue comment", task: commentTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo] New comment on issue \\u003chttp://localhost:3000/test/repo/issues/2|#2 crash\\u003e by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": [\n    {\n      \"fallback\": \"\",\n      \"color\": \"e68d60\",\n      \"title\": \"#2 crash\",\n      \"title_link\": \"http://localhost:3000/test/repo/issues/2#issuecomment-4\",\n      \"text\": \"more info needed\"\n    }\n  ]\n}"},
		{name: "branch created", task: createTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo:\\u003chttp://localhost:3000/test/repo/src/branch/test|test\\u003e] branch created by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": null\n}"},
		{name: "branch deleted", task: deleteTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[\\u003chttp://localhost:3000/test/repo|test/repo\\u003e:test] branch deleted by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": null\n}"},
		{name: "fork", task: forkTask, url: "", want: `{
  "channel": "#dev",
  "text": "\u003chttp://localhost:3000/test/repo2|test/repo2\u003e is forked to \u003chttp://localhost:3000/test/repo|test/repo\u003e",
  "username": "forge",
  "icon_url": "https://icons.example/forge.png",
  "unfurl_links": 0,
  "link_names": 0,
  "attachments": null
}`},
		{name: "repository created", task: repositoryTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[\\u003chttp://localhost:3000/test/repo|test/repo\\u003e] Repository created by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": null\n}"},
		{name: "pull request opened", task: pullTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo] Pull request opened: \\u003chttp://localhost:3000/test/repo/pulls/12|#12 Fix bug\\u003e by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": [\n    {\n      \"fallback\": \"\",\n      \"color\": \"1ac600\",\n      \"title\": \"#12 Fix bug\",\n      \"title_link\": \"http://localhost:3000/test/repo/pulls/12\",\n      \"text\": \"fixes bug #2\"\n    }\n  ]\n}"},
		{name: "pull request comment", task: pullCommentTask, url: "", want: "{\n  \"channel\": \"#dev\",\n  \"text\": \"[test/repo] New comment on pull request \\u003chttp://localhost:3000/test/repo/pulls/12|#12 Fix bug\\u003e by `user1`\",\n  \"username\": \"forge\",\n  \"icon_url\": \"https://icons.example/forge.png\",\n  \"unfurl_links\": 0,\n  \"link_names\": 0,\n  \"attachments\": [\n    {\n      \"fallback\": \"\",\n      \"color\": \"bfe5bf\",\n      \"title\": \"#12 Fix bug\",\n      \"title_link\": \"http://localhost:3000/test/repo/pulls/12#issuecomment-4\",\n      \"text\": \"changes requested\"\n    }\n  ]\n}"},
	})
}
