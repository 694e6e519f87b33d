package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestMatrixPayloads compares the matrix messages with those Forgejo's
// services/webhook/matrix.go builds for the same events.
func TestMatrixPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeMatrix, "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message", map[string]string{"homeserver_url": "https://matrix.example", "room_id": "!room:matrix.example", "message_type": "1"})
	runPayloadCases(t, h, "PUT", "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message", []payloadCase{
		{name: "push", task: pushTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/d68f4b4ab2fbcfe57da7268a61c9828fe6a87aa5", want: `{
  "body": "[test/repo] user1 pushed 2 commits to test:\n[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778): commit message - user1\n[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778): commit message - user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo] user1 pushed 2 commits to test:\u003cbr\u003e\u003ca href=\"http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778\"\u003e2020558\u003c/a\u003e: commit message - user1\u003cbr\u003e\u003ca href=\"http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778\"\u003e2020558\u003c/a\u003e: commit message - user1",
  "io.gitea.commits": [
    {
      "id": "2020558fe2e34debb818a514715839cabd25e778",
      "message": "commit message",
      "url": "http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778",
      "author": {
        "name": "user1",
        "email": "user1@example.com",
        "username": "user1"
      },
      "committer": {
        "name": "user1",
        "email": "user1@example.com",
        "username": "user1"
      },
      "verification": null,
      "timestamp": "2026-01-02T03:04:05Z",
      "added": [],
      "removed": [],
      "modified": [
        "a.txt"
      ]
    },
    {
      "id": "2020558fe2e34debb818a514715839cabd25e778",
      "message": "commit message",
      "url": "http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778",
      "author": {
        "name": "user1",
        "email": "user1@example.com",
        "username": "user1"
      },
      "committer": {
        "name": "user1",
        "email": "user1@example.com",
        "username": "user1"
      },
      "verification": null,
      "timestamp": "2026-01-02T03:04:05Z",
      "added": [],
      "removed": [],
      "modified": [
        "a.txt"
      ]
    }
  ]
}`},
		{name: "issue opened", task: issueTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/1af13325aa1e29b2568d002bec221635a6a46b96", want: `{
  "body": "[test/repo] Issue opened: [#2 crash](http://localhost:3000/test/repo/issues/2) by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo] Issue opened: \u003ca href=\"http://localhost:3000/test/repo/issues/2\"\u003e#2 crash\u003c/a\u003e by user1"
}`},
		{name: "issue comment", task: commentTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/a83ebc0c93f150fc6f19f4d2453a64e062cda4f0", want: `{
  "body": "[test/repo] New comment on issue [#2 crash](http://localhost:3000/test/repo/issues/2) by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo] New comment on issue \u003ca href=\"http://localhost:3000/test/repo/issues/2\"\u003e#2 crash\u003c/a\u003e by user1"
}`},
		{name: "branch created", task: createTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/d2bcc22d1064fbf4b6e059ca01bce4a616c4155e", want: `{
  "body": "[test/repo:[test](http://localhost:3000/test/repo/src/commit/test)] branch created by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo:\u003ca href=\"http://localhost:3000/test/repo/src/commit/test\"\u003etest\u003c/a\u003e] branch created by user1"
}`},
		{name: "branch deleted", task: deleteTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/48d574923c40511d484817ddc9dc9d75954ed430", want: `{
  "body": "[[test/repo](http://localhost:3000/test/repo):test] branch deleted by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[\u003ca href=\"http://localhost:3000/test/repo\"\u003etest/repo\u003c/a\u003e:test] branch deleted by user1"
}`},
		{name: "fork", task: forkTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/99a47eb521eff4f283fa7251ffb82cee4c2d94ae", want: `{
  "body": "[test/repo2](http://localhost:3000/test/repo2) is forked to [test/repo](http://localhost:3000/test/repo)",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "\u003ca href=\"http://localhost:3000/test/repo2\"\u003etest/repo2\u003c/a\u003e is forked to \u003ca href=\"http://localhost:3000/test/repo\"\u003etest/repo\u003c/a\u003e"
}`},
		{name: "repository created", task: repositoryTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/02ec469a52322df80c8f08c82fa386e98c87581b", want: `{
  "body": "[[test/repo](http://localhost:3000/test/repo)] Repository created by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[\u003ca href=\"http://localhost:3000/test/repo\"\u003etest/repo\u003c/a\u003e] Repository created by user1"
}`},
		{name: "pull request opened", task: pullTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/faa43ae26b8eb6849eaccd0f0d681771b65d1398", want: `{
  "body": "[test/repo] Pull request opened: [#12 Fix bug](http://localhost:3000/test/repo/pulls/12) by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo] Pull request opened: \u003ca href=\"http://localhost:3000/test/repo/pulls/12\"\u003e#12 Fix bug\u003c/a\u003e by user1"
}`},
		{name: "pull request comment", task: pullCommentTask, url: "https://matrix.example/_matrix/client/v3/rooms/%21room%3Amatrix.example/send/m.room.message/7d623d08f2dece957d37d3f8c3bb4eea6e8bda0f", want: `{
  "body": "[test/repo] New comment on pull request [#12 Fix bug](http://localhost:3000/test/repo/pulls/12) by user1",
  "msgtype": "m.notice",
  "format": "org.matrix.custom.html",
  "formatted_body": "[test/repo] New comment on pull request \u003ca href=\"http://localhost:3000/test/repo/pulls/12\"\u003e#12 Fix bug\u003c/a\u003e by user1"
}`},
	})
}
