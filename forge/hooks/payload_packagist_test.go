package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestPackagistPayloads compares the packagist messages with those Forgejo's
// services/webhook/packagist.go builds for the same events.
func TestPackagistPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypePackagist, "https://packagist.org/api/update-package?username=u&apiToken=t", map[string]string{"username": "u", "api_token": "t", "package_url": "https://packagist.org/packages/test/repo"})
	runPayloadCases(t, h, "POST", "https://packagist.org/api/update-package?username=u&apiToken=t", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "repository": {
    "url": "https://packagist.org/packages/test/repo"
  }
}`},
	})
}
