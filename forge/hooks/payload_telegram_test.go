package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestTelegramPayloads compares the telegram messages with those Forgejo's
// services/webhook/telegram.go builds for the same events.
func TestTelegramPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeTelegram, "https://api.telegram.org/bot123:abc/sendMessage?chat_id=-42&message_thread_id=", nil)
	runPayloadCases(t, h, "POST", "https://api.telegram.org/bot123:abc/sendMessage?chat_id=-42&message_thread_id=", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "text": "[test/repo:test] 2 new commits\n[\u003ca href=\"http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778\" rel=\"nofollow\"\u003e2020558\u003c/a\u003e] commit message - user1\n[\u003ca href=\"http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778\" rel=\"nofollow\"\u003e2020558\u003c/a\u003e] commit message - user1",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "text": "[test/repo] Issue opened: \u003ca href=\"http://localhost:3000/test/repo/issues/2\" rel=\"nofollow\"\u003e#2 crash\u003c/a\u003e by user1\n\nissue body",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "text": "[test/repo] New comment on issue \u003ca href=\"http://localhost:3000/test/repo/issues/2\" rel=\"nofollow\"\u003e#2 crash\u003c/a\u003e by user1\nmore info needed",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "text": "[test/repo] branch \u003ca href=\"http://localhost:3000/test/repo/src/test\" rel=\"nofollow\"\u003etest\u003c/a\u003e created",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "text": "[test/repo] branch \u003ca href=\"http://localhost:3000/test/repo/src/test\" rel=\"nofollow\"\u003etest\u003c/a\u003e deleted",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "text": "test/repo2 is forked to \u003ca href=\"http://localhost:3000/test/repo\" rel=\"nofollow\"\u003etest/repo\u003c/a\u003e",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "text": "[\u003ca href=\"http://localhost:3000/test/repo\" rel=\"nofollow\"\u003etest/repo\u003c/a\u003e] Repository created",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "text": "[test/repo] Pull request opened: \u003ca href=\"http://localhost:3000/test/repo/pulls/12\" rel=\"nofollow\"\u003e#12 Fix bug\u003c/a\u003e by user1\nfixes bug #2",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "text": "[test/repo] New comment on pull request \u003ca href=\"http://localhost:3000/test/repo/pulls/12\" rel=\"nofollow\"\u003e#12 Fix bug\u003c/a\u003e by user1\nchanges requested",
  "parse_mode": "HTML",
  "disable_web_page_preview": true
}`},
	})
}
