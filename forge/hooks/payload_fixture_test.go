package hooks_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
)

// The fixtures below mirror Forgejo's services/webhook test payloads
// (general_test.go): repository test/repo on http://localhost:3000/, user1
// pushing two commits to branch test and opening issue #2 "crash".

const fixtureRoot = "http://localhost:3000/"

var (
	fixtureUser = &hooks.PayloadUser{ID: 2, UserName: "user1", FullName: "User One",
		Email: "user1@example.com", AvatarURL: fixtureRoot + "user1/avatar", HTMLURL: fixtureRoot + "user1"}
	fixtureRepo = &hooks.PayloadRepo{ID: 1, Owner: fixtureUser, Name: "repo", FullName: "test/repo",
		HTMLURL: fixtureRoot + "test/repo", URL: fixtureRoot + "api/v1/repos/test/repo", DefaultBranch: "main"}
	fixtureCommitID = "2020558fe2e34debb818a514715839cabd25e778"
)

func fixtureCommit() *hooks.PayloadCommit {
	u := &hooks.PayloadCommitUser{Name: "user1", Email: "user1@example.com", UserName: "user1"}
	return &hooks.PayloadCommit{ID: fixtureCommitID, Message: "commit message",
		URL: fixtureRoot + "test/repo/commit/" + fixtureCommitID, Author: u, Committer: u,
		Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Added: []string{}, Removed: []string{}, Modified: []string{"a.txt"}}
}

func fixturePush() hooks.PushPayload {
	return hooks.PushPayload{Ref: "refs/heads/test", Before: fixtureCommitID, After: fixtureCommitID,
		CompareURL: fixtureRoot + "test/repo/compare/" + fixtureCommitID + "..." + fixtureCommitID,
		Commits:    []*hooks.PayloadCommit{fixtureCommit(), fixtureCommit()}, TotalCommits: 2, HeadCommit: fixtureCommit(),
		Repo: fixtureRepo, Pusher: fixtureUser, Sender: fixtureUser}
}

func fixtureIssue() issuePayload {
	return issuePayload{Action: hooks.ActionOpened, Number: 2, Repository: fixtureRepo, Sender: fixtureUser,
		Issue: &payloadIssue{ID: 7, Number: 2, URL: fixtureRoot + "api/v1/repos/test/repo/issues/2",
			HTMLURL: fixtureRoot + "test/repo/issues/2", User: fixtureUser, Title: "crash", Body: "issue body",
			State: "open", Labels: []any{}, Assignees: []any{}}}
}

func fixtureComment() issueCommentPayload {
	is := fixtureIssue().Issue
	return issueCommentPayload{Action: hooks.ActionCreated, Issue: is, Repository: fixtureRepo, Sender: fixtureUser,
		Comment: &payloadComment{ID: 4, HTMLURL: is.HTMLURL + "#issuecomment-4", IssueURL: is.URL, User: fixtureUser,
			Body: "more info needed"}}
}

func fixtureCreate() hooks.CreatePayload {
	return hooks.CreatePayload{SHA: fixtureCommitID, Ref: "test", RefType: "branch", Repo: fixtureRepo, Sender: fixtureUser}
}

func fixtureDelete() hooks.DeletePayload {
	return hooks.DeletePayload{Ref: "test", RefType: "branch", PusherType: "user", Repo: fixtureRepo, Sender: fixtureUser}
}

func fixtureFork() hooks.ForkPayload {
	forkee := *fixtureRepo
	forkee.ID, forkee.Name, forkee.FullName, forkee.HTMLURL = 2, "repo2", "test/repo2", fixtureRoot+"test/repo2"
	return hooks.ForkPayload{Forkee: &forkee, Repo: fixtureRepo, Sender: fixtureUser}
}

func fixtureRepository() hooks.RepositoryPayload {
	return hooks.RepositoryPayload{Action: "created", Repository: fixtureRepo, Sender: fixtureUser}
}

// fixturePull is a pull request opened, as Hearth queues it: the issues
// payload of the pull request's issue.
func fixturePull() issuePayload {
	return issuePayload{Action: hooks.ActionOpened, Number: 12, Repository: fixtureRepo, Sender: fixtureUser,
		Issue: &payloadIssue{ID: 8, Number: 12, URL: fixtureRoot + "api/v1/repos/test/repo/issues/12",
			HTMLURL: fixtureRoot + "test/repo/pulls/12", User: fixtureUser, Title: "Fix bug", Body: "fixes bug #2",
			State: "open", Labels: []any{}, Assignees: []any{}}}
}

func fixturePullComment() issueCommentPayload {
	is := fixturePull().Issue
	return issueCommentPayload{Action: hooks.ActionCreated, Issue: is, IsPull: true, Repository: fixtureRepo,
		Sender: fixtureUser, Comment: &payloadComment{ID: 4, HTMLURL: is.HTMLURL + "#issuecomment-4",
			IssueURL: is.URL, User: fixtureUser, Body: "changes requested"}}
}

// The issue and comment payloads of the fixtures: the fields of Forgejo's
// IssuePayload and IssueCommentPayload the converters read (the
// composition root builds the full ones, site.HookPayloads).
type payloadIssue struct {
	ID        int64              `json:"id"`
	URL       string             `json:"url"`
	HTMLURL   string             `json:"html_url"`
	Number    int64              `json:"number"`
	User      *hooks.PayloadUser `json:"user"`
	Title     string             `json:"title"`
	Body      string             `json:"body"`
	State     string             `json:"state"`
	Labels    []any              `json:"labels"`
	Assignees []any              `json:"assignees"`
}

type issuePayload struct {
	Action     string             `json:"action"`
	Number     int64              `json:"number"`
	Issue      *payloadIssue      `json:"issue"`
	Repository *hooks.PayloadRepo `json:"repository"`
	Sender     *hooks.PayloadUser `json:"sender"`
}

type payloadComment struct {
	ID       int64              `json:"id"`
	HTMLURL  string             `json:"html_url"`
	IssueURL string             `json:"issue_url"`
	User     *hooks.PayloadUser `json:"user"`
	Body     string             `json:"body"`
}

type issueCommentPayload struct {
	Action     string             `json:"action"`
	Issue      *payloadIssue      `json:"issue"`
	Comment    *payloadComment    `json:"comment"`
	Repository *hooks.PayloadRepo `json:"repository"`
	Sender     *hooks.PayloadUser `json:"sender"`
	IsPull     bool               `json:"is_pull"`
}

// task is a queued delivery of payload as event (and event type).
func task(t *testing.T, event, typ string, payload any) *hooks.Task {
	t.Helper()
	b, err := json.Marshal(payload)
	require.NoError(t, err)
	return &hooks.Task{ID: 1, HookID: 1, UUID: "uuid-1", Event: event, EventType: typ, Payload: b}
}

// pushTask and issueTask are the two events every type's table covers.
func pushTask(t *testing.T) *hooks.Task { return task(t, "push", "push", fixturePush()) }

func issueTask(t *testing.T) *hooks.Task { return task(t, "issues", "issues", fixtureIssue()) }

func commentTask(t *testing.T) *hooks.Task {
	return task(t, "issue_comment", "issue_comment", fixtureComment())
}

func createTask(t *testing.T) *hooks.Task { return task(t, "create", "create", fixtureCreate()) }

func deleteTask(t *testing.T) *hooks.Task { return task(t, "delete", "delete", fixtureDelete()) }

func forkTask(t *testing.T) *hooks.Task { return task(t, "fork", "fork", fixtureFork()) }

func repositoryTask(t *testing.T) *hooks.Task {
	return task(t, "repository", "repository", fixtureRepository())
}

func pullTask(t *testing.T) *hooks.Task {
	return task(t, "pull_request", "pull_request", fixturePull())
}

func pullCommentTask(t *testing.T) *hooks.Task {
	return task(t, "issue_comment", "pull_request_comment", fixturePullComment())
}

// typeHook is an active hook of type typ with meta.
func typeHook(typ hooks.Type, url string, meta map[string]string) *hooks.Hook {
	if meta == nil {
		meta = map[string]string{}
	}
	return &hooks.Hook{ID: 1, RepoID: 1, Type: typ, URL: url, ContentType: hooks.ContentJSON, HTTPMethod: "POST",
		Meta: meta, Events: []string{"push", "issues"}, Active: true}
}

// payloadCase is one row of a type's table: the hook, the task and the
// exact body Forgejo sends.
type payloadCase struct {
	name string
	task func(*testing.T) *hooks.Task
	url  string // "" for the table's
	want string
}

// runPayloadCases checks each case's request: method, URL, JSON content
// type and the exact body.
func runPayloadCases(t *testing.T, h *hooks.Hook, method, url string, cases []payloadCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := hooks.NewRequest(h, c.task(t))
			require.NoError(t, err)
			require.Equal(t, method, r.Method)
			want := url
			if c.url != "" {
				want = c.url
			}
			require.Equal(t, want, r.URL)
			require.Equal(t, "application/json", r.Header["Content-Type"])
			require.Equal(t, c.want, string(r.Body))
		})
	}
}
