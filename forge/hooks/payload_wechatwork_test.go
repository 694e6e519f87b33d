package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestWechatworkPayloads compares the wechatwork messages with those Forgejo's
// services/webhook/wechatwork.go builds for the same events.
func TestWechatworkPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeWechatwork, "https://qyapi.weixin.example/cgi-bin/webhook/send?key=x", nil)
	runPayloadCases(t, h, "POST", "https://qyapi.weixin.example/cgi-bin/webhook/send?key=x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "# test/repo:test \u003cfont color=\"warning\"\u003e    \u003c/font\u003e\r\n\r\n \u003e [2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) \r\n \u003e\u003cfont color=\"info\"\u003ecommit message\u003c/font\u003e \n \u003e\u003cfont color=\"warning\"\u003eAuthor: user1\u003c/font\u003e\n \u003e [2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) \r\n \u003e\u003cfont color=\"info\"\u003ecommit message\u003c/font\u003e \n \u003e\u003cfont color=\"warning\"\u003eAuthor: user1\u003c/font\u003e"
  }
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": " \u003e\u003cfont color=\"info\"\u003e[test/repo] Issue opened: #2 crash by user1\u003c/font\u003e\n \u003eissue body \n \u003e\u003cfont color=\"warning\"\u003e #2 crash\u003c/font\u003e \n [http://localhost:3000/test/repo/issues/2](http://localhost:3000/test/repo/issues/2)"
  }
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": " \u003e\u003cfont color=\"info\"\u003e[test/repo] New comment on issue #2 crash by user1\u003c/font\u003e\n \u003emore info needed \n \u003e\u003cfont color=\"warning\"\u003e#2 crash\u003c/font\u003e \n [http://localhost:3000/test/repo/issues/2#issuecomment-4](http://localhost:3000/test/repo/issues/2#issuecomment-4)"
  }
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "[test/repo] branch test created"
  }
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "[test/repo] branch test deleted"
  }
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "test/repo2 is forked to test/repo"
  }
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "[test/repo] Repository created"
  }
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": "\u003e \u003cfont color=\"info\"\u003e [test/repo] Pull request opened: #12 Fix bug by user1 \u003c/font\u003e \r\n \u003e \u003cfont color=\"comment\"\u003e#12 Fix bug \u003c/font\u003e \r\n \u003e \u003cfont color=\"comment\"\u003efixes bug #2 \u003c/font\u003e \r\n"
  }
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "msgtype": "markdown",
  "text": {
    "content": "",
    "mentioned_list": null,
    "mentioned_mobile_list": null
  },
  "markdown": {
    "content": " \u003e\u003cfont color=\"info\"\u003e[test/repo] New comment on pull request #12 Fix bug by user1\u003c/font\u003e\n \u003echanges requested \n \u003e\u003cfont color=\"warning\"\u003e#12 Fix bug\u003c/font\u003e \n [http://localhost:3000/test/repo/pulls/12#issuecomment-4](http://localhost:3000/test/repo/pulls/12#issuecomment-4)"
  }
}`},
	})
}
