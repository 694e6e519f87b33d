package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/httpapi/openapi"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// requestBodies are the JSON request body types of the API, by the name
// of their definition in Forgejo's document (TestRequestBodiesCoverSpec
// keeps the list whole).
var requestBodies = map[string]func() any{
	"AddCollaboratorOption":          func() any { return new(wire.AddCollaboratorOption) },
	"AddTimeOption":                  func() any { return new(wire.AddTimeOption) },
	"ChangeFilesOptions":             func() any { return new(wire.ChangeFilesOptions) },
	"CreateAccessTokenOption":        func() any { return new(wire.CreateAccessTokenOption) },
	"CreateBranchProtectionOption":   func() any { return new(wire.CreateBranchProtectionOption) },
	"CreateBranchRepoOption":         func() any { return new(wire.CreateBranchRepoOption) },
	"CreateEmailOption":              func() any { return new(wire.CreateEmailOption) },
	"CreateFileOptions":              func() any { return new(wire.CreateFileOptions) },
	"CreateForkOption":               func() any { return new(wire.CreateForkOption) },
	"CreateGPGKeyOption":             func() any { return new(wire.CreateGPGKeyOption) },
	"CreateHookOption":               func() any { return new(wire.CreateHookOption) },
	"CreateIssueCommentOption":       func() any { return new(wire.CreateIssueCommentOption) },
	"CreateIssueOption":              func() any { return new(wire.CreateIssueOption) },
	"CreateKeyOption":                func() any { return new(wire.CreateKeyOption) },
	"CreateLabelOption":              func() any { return new(wire.CreateLabelOption) },
	"CreateMilestoneOption":          func() any { return new(wire.CreateMilestoneOption) },
	"CreateOAuth2ApplicationOptions": func() any { return new(wire.CreateOAuth2ApplicationOptions) },
	"CreateOrUpdateSecretOption":     func() any { return new(wire.CreateOrUpdateSecretOption) },
	"CreateOrgOption":                func() any { return new(wire.CreateOrgOption) },
	"CreatePullRequestOption":        func() any { return new(wire.CreatePullRequestOption) },
	"CreatePullReviewCommentOptions": func() any { return new(wire.CreatePullReviewCommentOptions) },
	"CreatePullReviewOptions":        func() any { return new(wire.CreatePullReviewOptions) },
	"CreatePushMirrorOption":         func() any { return new(wire.CreatePushMirrorOption) },
	"CreateQuotaGroupOptions":        func() any { return new(wire.CreateQuotaGroupOptions) },
	"CreateQuotaRuleOptions":         func() any { return new(wire.CreateQuotaRuleOptions) },
	"CreateReleaseOption":            func() any { return new(wire.CreateReleaseOption) },
	"CreateRepoOption":               func() any { return new(wire.CreateRepoOption) },
	"CreateStatusOption":             func() any { return new(wire.CreateStatusOption) },
	"CreateTagOption":                func() any { return new(wire.CreateTagOption) },
	"CreateTagProtectionOption":      func() any { return new(wire.CreateTagProtectionOption) },
	"CreateTeamOption":               func() any { return new(wire.CreateTeamOption) },
	"CreateUserOption":               func() any { return new(wire.CreateUserOption) },
	"CreateVariableOption":           func() any { return new(wire.CreateVariableOption) },
	"CreateWikiPageOptions":          func() any { return new(wire.CreateWikiPageOptions) },
	"DeleteEmailOption":              func() any { return new(wire.DeleteEmailOption) },
	"DeleteFileOptions":              func() any { return new(wire.DeleteFileOptions) },
	"DeleteLabelsOption":             func() any { return new(wire.DeleteLabelsOption) },
	"DismissPullReviewOptions":       func() any { return new(wire.DismissPullReviewOptions) },
	"DispatchWorkflowOption":         func() any { return new(wire.DispatchWorkflowOption) },
	"EditAttachmentOptions":          func() any { return new(wire.EditAttachmentOptions) },
	"EditBranchProtectionOption":     func() any { return new(wire.EditBranchProtectionOption) },
	"EditDeadlineOption":             func() any { return new(wire.EditDeadlineOption) },
	"EditGitHookOption":              func() any { return new(wire.EditGitHookOption) },
	"EditHookOption":                 func() any { return new(wire.EditHookOption) },
	"EditIssueCommentOption":         func() any { return new(wire.EditIssueCommentOption) },
	"EditIssueOption":                func() any { return new(wire.EditIssueOption) },
	"EditLabelOption":                func() any { return new(wire.EditLabelOption) },
	"EditMilestoneOption":            func() any { return new(wire.EditMilestoneOption) },
	"EditOrgOption":                  func() any { return new(wire.EditOrgOption) },
	"EditPullRequestOption":          func() any { return new(wire.EditPullRequestOption) },
	"EditQuotaRuleOptions":           func() any { return new(wire.EditQuotaRuleOptions) },
	"EditReactionOption":             func() any { return new(wire.EditReactionOption) },
	"EditReleaseOption":              func() any { return new(wire.EditReleaseOption) },
	"EditRepoOption":                 func() any { return new(wire.EditRepoOption) },
	"EditTagProtectionOption":        func() any { return new(wire.EditTagProtectionOption) },
	"EditTeamOption":                 func() any { return new(wire.EditTeamOption) },
	"EditUserOption":                 func() any { return new(wire.EditUserOption) },
	"ForgeLike":                      func() any { return new(wire.ForgeLike) },
	"GenerateRepoOption":             func() any { return new(wire.GenerateRepoOption) },
	"IssueLabelsOption":              func() any { return new(wire.IssueLabelsOption) },
	"IssueMeta":                      func() any { return new(wire.IssueMeta) },
	"MarkdownOption":                 func() any { return new(wire.MarkdownOption) },
	"MarkupOption":                   func() any { return new(wire.MarkupOption) },
	"MigrateRepoOptions":             func() any { return new(wire.MigrateRepoOptions) },
	"NoteOptions":                    func() any { return new(wire.NoteOptions) },
	"PullReviewRequestOptions":       func() any { return new(wire.PullReviewRequestOptions) },
	"RegisterRunnerOptions":          func() any { return new(wire.RegisterRunnerOptions) },
	"RenameOrgOption":                func() any { return new(wire.RenameOrgOption) },
	"RenameUserOption":               func() any { return new(wire.RenameUserOption) },
	"ReplaceFlagsOption":             func() any { return new(wire.ReplaceFlagsOption) },
	"RepoTopicOptions":               func() any { return new(wire.RepoTopicOptions) },
	"SetUserQuotaGroupsOptions":      func() any { return new(wire.SetUserQuotaGroupsOptions) },
	"SubmitPullReviewOptions":        func() any { return new(wire.SubmitPullReviewOptions) },
	"TransferRepoOption":             func() any { return new(wire.TransferRepoOption) },
	"UpdateBranchRepoOption":         func() any { return new(wire.UpdateBranchRepoOption) },
	"UpdateFileOptions":              func() any { return new(wire.UpdateFileOptions) },
	"UpdateRepoAvatarOption":         func() any { return new(wire.UpdateRepoAvatarOption) },
	"UpdateUserAvatarOption":         func() any { return new(wire.UpdateUserAvatarOption) },
	"UpdateVariableOption":           func() any { return new(wire.UpdateVariableOption) },
	"UserSettingsOptions":            func() any { return new(wire.UserSettingsOptions) },
	"VerifyGPGKeyOption":             func() any { return new(wire.VerifyGPGKeyOption) },
	"MergePullRequestOption":         func() any { return new(wire.MergePullRequestForm) },
}

// TestRequestBodiesCoverSpec fails when an operation of the document
// takes a JSON body whose type FuzzDecodeRequestBody does not know.
func TestRequestBodiesCoverSpec(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.Forgejo, &doc); err != nil {
		t.Fatal(err)
	}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op struct {
				Parameters []struct {
					In     string `json:"in"`
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"parameters"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue
			}
			for _, p := range op.Parameters {
				name, ok := strings.CutPrefix(p.Schema.Ref, "#/definitions/")
				if p.In == "body" && ok && requestBodies[name] == nil {
					t.Errorf("%s %s: body %s is not in requestBodies", method, path, name)
				}
			}
		}
	}
}

// FuzzDecodeRequestBody decodes arbitrary bytes into each request body
// type through call.decode, the handlers' path. A refused body is answered
// 400, 413 (over the limit) or 422 with Forgejo's error body; an accepted
// one is a value that encodes to JSON and decodes back to the same value.
func FuzzDecodeRequestBody(f *testing.F) {
	names := make([]string, 0, len(requestBodies))
	for n := range requestBodies {
		names = append(names, n)
	}
	slices.Sort(names)
	seeds := []string{"", "{}", "null", "[]", `"x"`, "1e400", "{", `{"name":"x","title":"t","body":"b","color":"#00aabb"}`,
		`{"labels":[1,"a",2.5,null],"due_date":"2020-01-01T00:00:00Z","deadline":"9999-12-31T23:59:59+14:00"}`,
		`{"config":{"url":"http://example.com","content_type":"json"},"events":["push"],"active":true,"type":"gitea"}`,
		`{"files":[{"operation":"create","path":"a","content":"aGk="}],"branch":"main","message":"m"}`,
		`{"scopes":["all"],"name":"t"}`, `{"Do":"merge","merge_when_checks_succeed":true}`, `{"permission":"write"}`,
		`{"id":18446744073709551616,"index":-1,"time":1e20}`, "{\"name\":\"\xff\"}", `{"name":"\ud800"}`}
	// Every type with "{}", every seed with one type in turn: few seeds
	// keep the fuzzer's baseline short, and it recombines them.
	for i := range names {
		f.Add(uint8(i), []byte("{}"))
	}
	for j, s := range seeds {
		f.Add(uint8(j*5), []byte(s))
	}
	const limit = 64 << 10
	a := &API{cfg: Config{MaxBodyBytes: limit}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		name := names[int(kind)%len(names)]
		v := requestBodies[name]()
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/api/v1/x", bytes.NewReader(body))
		c := a.newCall(rec, r)
		if !c.decode(v) {
			switch rec.Code {
			case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
			default:
				t.Fatalf("%s: refused with %d", name, rec.Code)
			}
			var e wire.APIError
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Message == "" {
				t.Fatalf("%s: error body %q (%v)", name, rec.Body, err)
			}
			if (rec.Code == http.StatusRequestEntityTooLarge) != (len(body) > limit) {
				t.Fatalf("%s: %d for a body of %d bytes", name, rec.Code, len(body))
			}
			return
		}
		if len(body) > limit {
			t.Fatalf("%s: accepted a body of %d bytes over the limit", name, len(body))
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: decoded %q to a value that does not encode: %v", name, body, err)
		}
		w := requestBodies[name]()
		if err := json.Unmarshal(enc, w); err != nil {
			t.Fatalf("%s: %s does not decode: %v", name, enc, err)
		}
		if enc2, _ := json.Marshal(w); !bytes.Equal(enc, enc2) {
			t.Fatalf("%s: %s decodes and encodes to %s", name, enc, enc2)
		}
	})
}
