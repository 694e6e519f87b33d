package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestDingtalkPayloads compares the dingtalk messages with those Forgejo's
// services/webhook/dingtalk.go builds for the same events.
func TestDingtalkPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeDingtalk, "https://oapi.dingtalk.example/robot/send?access_token=x", nil)
	runPayloadCases(t, h, "POST", "https://oapi.dingtalk.example/robot/send?access_token=x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1\r\n[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1",
    "title": "[test/repo:test] 2 new commits",
    "hideAvatar": "0",
    "singleTitle": "view commits",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fcompare%2F2020558fe2e34debb818a514715839cabd25e778...2020558fe2e34debb818a514715839cabd25e778"
  }
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] Issue opened: #2 crash by user1\r\n\r\nissue body",
    "title": "#2 crash",
    "hideAvatar": "0",
    "singleTitle": "view issue",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fissues%2F2"
  }
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] New comment on issue #2 crash by user1\r\n\r\nmore info needed",
    "title": "#2 crash",
    "hideAvatar": "0",
    "singleTitle": "view issue comment",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fissues%2F2%23issuecomment-4"
  }
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] branch test created",
    "title": "[test/repo] branch test created",
    "hideAvatar": "0",
    "singleTitle": "view ref test",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fsrc%2Ftest"
  }
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] branch test deleted",
    "title": "[test/repo] branch test deleted",
    "hideAvatar": "0",
    "singleTitle": "view ref test",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fsrc%2Ftest"
  }
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "test/repo2 is forked to test/repo",
    "title": "test/repo2 is forked to test/repo",
    "hideAvatar": "0",
    "singleTitle": "view forked repo test/repo",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo"
  }
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] Repository created",
    "title": "[test/repo] Repository created",
    "hideAvatar": "0",
    "singleTitle": "view repository",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo"
  }
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] Pull request opened: #12 Fix bug by user1\r\n\r\nfixes bug #2",
    "title": "#12 Fix bug",
    "hideAvatar": "0",
    "singleTitle": "view pull request",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fpulls%2F12"
  }
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "msgtype": "actionCard",
  "text": {
    "content": ""
  },
  "actionCard": {
    "text": "[test/repo] New comment on pull request #12 Fix bug by user1\r\n\r\nchanges requested",
    "title": "#12 Fix bug",
    "hideAvatar": "0",
    "singleTitle": "view issue comment",
    "singleURL": "dingtalk://dingtalkclient/page/link?pc_slide=false\u0026url=http%3A%2F%2Flocalhost%3A3000%2Ftest%2Frepo%2Fpulls%2F12%23issuecomment-4"
  }
}`},
	})
}
