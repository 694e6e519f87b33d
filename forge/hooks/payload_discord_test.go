package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestDiscordPayloads compares the discord messages with those Forgejo's
// services/webhook/discord.go builds for the same events.
func TestDiscordPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeDiscord, "https://discord.example/api/webhooks/x", map[string]string{"username": "forge", "icon_url": "https://icons.example/forge.png"})
	runPayloadCases(t, h, "POST", "https://discord.example/api/webhooks/x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: "{\n  \"username\": \"forge\",\n  \"avatar_url\": \"https://icons.example/forge.png\",\n  \"embeds\": [\n    {\n      \"title\": \"[test/repo:test] 2 new commits\",\n      \"description\": \"[`2020558`](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message \\\\- user1\\n[`2020558`](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message \\\\- user1\",\n      \"url\": \"http://localhost:3000/test/repo/compare/2020558fe2e34debb818a514715839cabd25e778...2020558fe2e34debb818a514715839cabd25e778\",\n      \"color\": 1754624,\n      \"author\": {\n        \"name\": \"user1\",\n        \"url\": \"http://localhost:3000/user1\",\n        \"icon_url\": \"http://localhost:3000/user1/avatar\"\n      }\n    }\n  ]\n}"},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] Issue opened: #2 crash",
      "description": "issue body",
      "url": "http://localhost:3000/test/repo/issues/2",
      "color": 15426592,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] New comment on issue #2 crash",
      "description": "more info needed",
      "url": "http://localhost:3000/test/repo/issues/2#issuecomment-4",
      "color": 15109472,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] branch test created",
      "description": "",
      "url": "http://localhost:3000/test/repo/src/test",
      "color": 1754624,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] branch test deleted",
      "description": "",
      "url": "http://localhost:3000/test/repo/src/test",
      "color": 16724530,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "test/repo2 is forked to test/repo",
      "description": "",
      "url": "http://localhost:3000/test/repo",
      "color": 1754624,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] Repository created",
      "description": "",
      "url": "http://localhost:3000/test/repo",
      "color": 1754624,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] Pull request opened: #12 Fix bug",
      "description": "fixes bug #2",
      "url": "http://localhost:3000/test/repo/pulls/12",
      "color": 1754624,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "username": "forge",
  "avatar_url": "https://icons.example/forge.png",
  "embeds": [
    {
      "title": "[test/repo] New comment on pull request #12 Fix bug",
      "description": "changes requested",
      "url": "http://localhost:3000/test/repo/pulls/12#issuecomment-4",
      "color": 12576191,
      "author": {
        "name": "user1",
        "url": "http://localhost:3000/user1",
        "icon_url": "http://localhost:3000/user1/avatar"
      }
    }
  ]
}`},
	})
}
