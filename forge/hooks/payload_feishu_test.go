package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestFeishuPayloads compares the feishu messages with those Forgejo's
// services/webhook/feishu.go builds for the same events.
func TestFeishuPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeFeishu, "https://open.feishu.example/open-apis/bot/v2/hook/x", nil)
	runPayloadCases(t, h, "POST", "https://open.feishu.example/open-apis/bot/v2/hook/x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[test/repo:test] \r\n[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1\r\n[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1"
  }
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[Issue-test/repo #2]: opened\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\n\nissue body"
  }
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[Comment-test/repo #2]: created\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\n\nmore info needed"
  }
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[test/repo] branch test created"
  }
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[test/repo] branch test deleted"
  }
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "test/repo2 is forked to test/repo"
  }
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[test/repo] Repository created"
  }
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[PullRequest-test/repo #12]: opened\nFix bug\nhttp://localhost:3000/test/repo/pulls/12\nPullRequest by user1\nOperator: user1\n\nfixes bug #2"
  }
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "msg_type": "text",
  "content": {
    "text": "[Comment-test/repo #12]: created\nFix bug\nhttp://localhost:3000/test/repo/pulls/12\nPullRequest by user1\nOperator: user1\n\nchanges requested"
  }
}`},
	})
}
