package httpapi_test

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// issueSamples are the TestRouteTable samples of the issue routes: alice's
// public repository alice/proj exists and holds no issue, label or
// milestone yet; the token is root's. They join samples so that
// TestRouteTable covers the issue routes once its API is built with
// Config.Issues.
var issueSamples = map[string]sample{
	"issueEditIssueDeadline":            {path: "/repos/alice/proj/issues/1/deadline", body: map[string]any{"due_date": nil}, ok: outcome{404, ""}},
	"issueListIssueAttachments":         {path: "/repos/alice/proj/issues/1/assets", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueGetIssueAttachment":           {path: "/repos/alice/proj/issues/1/assets/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditIssueAttachment":          {path: "/repos/alice/proj/issues/1/assets/1", body: map[string]any{"name": "n"}, ok: outcome{404, ""}},
	"issueDeleteIssueAttachment":        {path: "/repos/alice/proj/issues/1/assets/1", ok: outcome{404, ""}},
	"issueListIssueCommentAttachments":  {path: "/repos/alice/proj/issues/comments/1/assets", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueGetIssueCommentAttachment":    {path: "/repos/alice/proj/issues/comments/1/assets/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditIssueCommentAttachment":   {path: "/repos/alice/proj/issues/comments/1/assets/1", body: map[string]any{"name": "n"}, ok: outcome{404, ""}},
	"issueDeleteIssueCommentAttachment": {path: "/repos/alice/proj/issues/comments/1/assets/1", ok: outcome{404, ""}},
	"issueSearchIssues":                 {path: "/repos/issues/search?q=x", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueListIssues":                   {path: "/repos/alice/proj/issues", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueCreateIssue":                  {path: "/repos/alice/proj/issues", body: map[string]any{"title": "t"}, ok: outcome{201, ""}},
	"issueGetIssue":                     {path: "/repos/alice/proj/issues/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditIssue":                    {path: "/repos/alice/proj/issues/1", body: map[string]any{}, ok: outcome{404, ""}},
	"issueDelete":                       {path: "/repos/alice/proj/issues/1", ok: outcome{404, ""}},
	"issueGetRepoComments":              {path: "/repos/alice/proj/issues/comments", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueGetComment":                   {path: "/repos/alice/proj/issues/comments/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditComment":                  {path: "/repos/alice/proj/issues/comments/1", body: map[string]any{"body": "b"}, ok: outcome{404, ""}},
	"issueDeleteComment":                {path: "/repos/alice/proj/issues/comments/1", ok: outcome{404, ""}},
	"issueGetComments":                  {path: "/repos/alice/proj/issues/1/comments", anon: outcome{404, "IsErrIssueNotExist"}, ok: outcome{404, "IsErrIssueNotExist"}},
	"issueCreateComment":                {path: "/repos/alice/proj/issues/1/comments", body: map[string]any{"body": "b"}, ok: outcome{404, "IsErrIssueNotExist"}},
	"issueEditCommentDeprecated":        {path: "/repos/alice/proj/issues/1/comments/1", body: map[string]any{"body": "b"}, ok: outcome{404, ""}},
	"issueDeleteCommentDeprecated":      {path: "/repos/alice/proj/issues/1/comments/1", ok: outcome{404, ""}},
	// Forgejo finds the issue (comment) and checks the caller before it
	// reads the file: the missing issue is 404 whatever the body.
	"issueCreateIssueAttachment":        {path: "/repos/alice/proj/issues/1/assets", body: "x", ok: outcome{404, ""}},
	"issueCreateIssueCommentAttachment": {path: "/repos/alice/proj/issues/comments/1/assets", body: "x", ok: outcome{404, ""}},
	"issueGetLabels":                    {path: "/repos/alice/proj/issues/1/labels", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueAddLabel":                     {path: "/repos/alice/proj/issues/1/labels", body: map[string]any{"labels": []int{1}}, ok: outcome{404, ""}},
	"issueReplaceLabels":                {path: "/repos/alice/proj/issues/1/labels", body: map[string]any{"labels": []int{1}}, ok: outcome{404, ""}},
	"issueClearLabels":                  {path: "/repos/alice/proj/issues/1/labels", ok: outcome{404, ""}},
	"issueRemoveLabel":                  {path: "/repos/alice/proj/issues/1/labels/bug", ok: outcome{404, ""}},
	"issueListLabels":                   {path: "/repos/alice/proj/labels", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueCreateLabel":                  {path: "/repos/alice/proj/labels", body: map[string]any{"name": "bug", "color": "#ffffff"}, ok: outcome{201, ""}},
	"issueGetLabel":                     {path: "/repos/alice/proj/labels/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditLabel":                    {path: "/repos/alice/proj/labels/1", body: map[string]any{}, ok: outcome{404, ""}},
	"issueDeleteLabel":                  {path: "/repos/alice/proj/labels/1", ok: outcome{204, ""}},
	"issueGetMilestonesList":            {path: "/repos/alice/proj/milestones", anon: outcome{200, ""}, ok: outcome{200, ""}},
	"issueCreateMilestone":              {path: "/repos/alice/proj/milestones", body: map[string]any{"title": "m"}, ok: outcome{201, ""}},
	"issueGetMilestone":                 {path: "/repos/alice/proj/milestones/1", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"issueEditMilestone":                {path: "/repos/alice/proj/milestones/1", body: map[string]any{}, ok: outcome{404, ""}},
	"issueDeleteMilestone":              {path: "/repos/alice/proj/milestones/1", ok: outcome{404, ""}},
	"orgListLabels":                     {path: "/orgs/nosuch/labels", anon: outcome{404, ""}, ok: outcome{404, ""}},
	"orgCreateLabel":                    {path: "/orgs/nosuch/labels", body: map[string]any{"name": "bug", "color": "#ffffff"}, ok: outcome{404, ""}},
	"orgGetLabel":                       {path: "/orgs/nosuch/labels/1", ok: outcome{404, ""}},
	"orgEditLabel":                      {path: "/orgs/nosuch/labels/1", body: map[string]any{}, ok: outcome{404, ""}},
	"orgDeleteLabel":                    {path: "/orgs/nosuch/labels/1", ok: outcome{404, ""}},
}

func init() {
	for k, v := range issueSamples {
		samples[k] = v
	}
}

// TestIssueRouteTable is TestRouteTable for the issue routes, on an API
// with the issue tracker: for every one, the answer to no credentials, to
// a token lacking the category, to a read token on a write method, and to
// a token with exactly the right scopes.
func TestIssueRouteTable(t *testing.T) {
	t.Parallel()
	api, err := httpapi.New(httpapi.Config{Auth: new(auth.Service), Repos: &repos.Service{}, Issues: &issues.Service{}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rt := range api.Routes() {
		s, ok := issueSamples[rt.Op]
		if !ok {
			if strings.HasPrefix(rt.Op, "issue") || strings.HasPrefix(rt.Op, "orgListLabels") {
				t.Errorf("%s has no sample in issueSamples", rt.Op)
			}
			continue
		}
		n++
		t.Run(rt.Op, func(t *testing.T) {
			t.Parallel()
			e := newIssueEnv(t)
			checkRoute(rt, s, false, sampleRun(t, e.env, rt, s), e.scoped)
		})
	}
	if n != len(issueSamples) {
		t.Errorf("%d issue routes for %d samples", n, len(issueSamples))
	}
}
