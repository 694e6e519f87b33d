package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// wireTypes is every struct type of package wire: each can be an answer
// (or part of one), and TestAnswerJSONMatchesEncodingJSON encodes each.
// TestWireTypesListed fails when wire_gen.go gains a type missing here.
var wireTypes = []any{
	wire.APIError{},
	wire.APIForbiddenError{},
	wire.APIInternalServerError{},
	wire.APIInvalidTopicsError{},
	wire.APINotFound{},
	wire.APIRepoArchivedError{},
	wire.APIUnauthorizedError{},
	wire.APIValidationError{},
	wire.AccessToken{},
	wire.ActionRun{},
	wire.ActionRunJob{},
	wire.ActionRunner{},
	wire.ActionTask{},
	wire.ActionTaskResponse{},
	wire.ActionVariable{},
	wire.Activity{},
	wire.ActivityPub{},
	wire.AddCollaboratorOption{},
	wire.AddTimeOption{},
	wire.AnnotatedTag{},
	wire.AnnotatedTagObject{},
	wire.Attachment{},
	wire.BlockedUser{},
	wire.Branch{},
	wire.BranchProtection{},
	wire.ChangeFileOperation{},
	wire.ChangeFilesOptions{},
	wire.ChangedFile{},
	wire.CombinedStatus{},
	wire.Comment{},
	wire.Commit{},
	wire.CommitAffectedFiles{},
	wire.CommitDateOptions{},
	wire.CommitMeta{},
	wire.CommitStats{},
	wire.CommitStatus{},
	wire.CommitUser{},
	wire.Compare{},
	wire.ContentsResponse{},
	wire.CreateAccessTokenOption{},
	wire.CreateBranchProtectionOption{},
	wire.CreateBranchRepoOption{},
	wire.CreateEmailOption{},
	wire.CreateFileOptions{},
	wire.CreateForkOption{},
	wire.CreateGPGKeyOption{},
	wire.CreateHookOption{},
	wire.CreateIssueCommentOption{},
	wire.CreateIssueOption{},
	wire.CreateKeyOption{},
	wire.CreateLabelOption{},
	wire.CreateMilestoneOption{},
	wire.CreateOAuth2ApplicationOptions{},
	wire.CreateOrUpdateSecretOption{},
	wire.CreateOrgOption{},
	wire.CreatePullRequestOption{},
	wire.CreatePullReviewComment{},
	wire.CreatePullReviewOptions{},
	wire.CreatePushMirrorOption{},
	wire.CreateQuotaGroupOptions{},
	wire.CreateQuotaRuleOptions{},
	wire.CreateReleaseOption{},
	wire.CreateRepoOption{},
	wire.CreateStatusOption{},
	wire.CreateTagOption{},
	wire.CreateTagProtectionOption{},
	wire.CreateTeamOption{},
	wire.CreateUserOption{},
	wire.CreateVariableOption{},
	wire.CreateWikiPageOptions{},
	wire.Cron{},
	wire.DeleteEmailOption{},
	wire.DeleteFileOptions{},
	wire.DeleteLabelsOption{},
	wire.DeployKey{},
	wire.DismissPullReviewOptions{},
	wire.DispatchWorkflowOption{},
	wire.DispatchWorkflowRun{},
	wire.EditAttachmentOptions{},
	wire.EditBranchProtectionOption{},
	wire.EditDeadlineOption{},
	wire.EditGitHookOption{},
	wire.EditHookOption{},
	wire.EditIssueCommentOption{},
	wire.EditIssueOption{},
	wire.EditLabelOption{},
	wire.EditMilestoneOption{},
	wire.EditOrgOption{},
	wire.EditPullRequestOption{},
	wire.EditQuotaRuleOptions{},
	wire.EditReactionOption{},
	wire.EditReleaseOption{},
	wire.EditRepoOption{},
	wire.EditTagProtectionOption{},
	wire.EditTeamOption{},
	wire.EditUserOption{},
	wire.Email{},
	wire.ExternalTracker{},
	wire.ExternalWiki{},
	wire.FileCommitResponse{},
	wire.FileDeleteResponse{},
	wire.FileLinksResponse{},
	wire.FileResponse{},
	wire.FilesResponse{},
	wire.GPGKey{},
	wire.GPGKeyEmail{},
	wire.GeneralAPISettings{},
	wire.GeneralAttachmentSettings{},
	wire.GeneralRepoSettings{},
	wire.GeneralUISettings{},
	wire.GenerateRepoOption{},
	wire.GitBlob{},
	wire.GitEntry{},
	wire.GitHook{},
	wire.GitObject{},
	wire.GitTreeResponse{},
	wire.GitignoreTemplateInfo{},
	wire.Hook{},
	wire.Identity{},
	wire.InternalTracker{},
	wire.Issue{},
	wire.IssueConfig{},
	wire.IssueConfigContactLink{},
	wire.IssueConfigValidation{},
	wire.IssueDeadline{},
	wire.IssueFormField{},
	wire.IssueLabelsOption{},
	wire.IssueMeta{},
	wire.IssueTemplate{},
	wire.Label{},
	wire.LabelTemplate{},
	wire.LicenseTemplateInfo{},
	wire.LicensesTemplateListEntry{},
	wire.ListActionRunResponse{},
	wire.MarkdownOption{},
	wire.MarkupOption{},
	wire.MergePullRequestForm{},
	wire.MigrateRepoOptions{},
	wire.Milestone{},
	wire.NewIssuePinsAllowed{},
	wire.NodeInfo{},
	wire.NodeInfoServices{},
	wire.NodeInfoSoftware{},
	wire.NodeInfoUsage{},
	wire.NodeInfoUsageUsers{},
	wire.Note{},
	wire.NoteOptions{},
	wire.NotificationCount{},
	wire.NotificationSubject{},
	wire.NotificationThread{},
	wire.OAuth2Application{},
	wire.Organization{},
	wire.OrganizationPermissions{},
	wire.PRBranchInfo{},
	wire.Package{},
	wire.PackageFile{},
	wire.PayloadCommit{},
	wire.PayloadCommitVerification{},
	wire.PayloadUser{},
	wire.Permission{},
	wire.PublicKey{},
	wire.PullRequest{},
	wire.PullRequestMeta{},
	wire.PullReview{},
	wire.PullReviewComment{},
	wire.PullReviewRequestOptions{},
	wire.PushMirror{},
	wire.QuotaGroup{},
	wire.QuotaInfo{},
	wire.QuotaRuleInfo{},
	wire.QuotaUsed{},
	wire.QuotaUsedArtifact{},
	wire.QuotaUsedAttachment{},
	wire.QuotaUsedPackage{},
	wire.QuotaUsedSize{},
	wire.QuotaUsedSizeAssets{},
	wire.QuotaUsedSizeAssetsAttachments{},
	wire.QuotaUsedSizeAssetsPackages{},
	wire.QuotaUsedSizeGit{},
	wire.QuotaUsedSizeRepos{},
	wire.Reaction{},
	wire.Reference{},
	wire.RegisterRunnerOptions{},
	wire.RegisterRunnerResponse{},
	wire.RegistrationToken{},
	wire.Release{},
	wire.RenameOrgOption{},
	wire.RenameUserOption{},
	wire.ReplaceFlagsOption{},
	wire.RepoCollaboratorPermission{},
	wire.RepoCommit{},
	wire.RepoTargetOption{},
	wire.RepoTopicOptions{},
	wire.RepoTransfer{},
	wire.Repository{},
	wire.RepositoryMeta{},
	wire.SearchResults{},
	wire.Secret{},
	wire.ServerVersion{},
	wire.SetUserQuotaGroupsOptions{},
	wire.StopWatch{},
	wire.SubmitPullReviewOptions{},
	wire.SyncForkInfo{},
	wire.Tag{},
	wire.TagArchiveDownloadCount{},
	wire.TagProtection{},
	wire.Team{},
	wire.TimelineComment{},
	wire.TopicName{},
	wire.TopicResponse{},
	wire.TrackedTime{},
	wire.TransferRepoOption{},
	wire.UpdateBranchRepoOption{},
	wire.UpdateFileOptions{},
	wire.UpdateRepoAvatarOption{},
	wire.UpdateUserAvatarOption{},
	wire.UpdateVariableOption{},
	wire.User{},
	wire.UserHeatmapData{},
	wire.UserSettings{},
	wire.UserSettingsOptions{},
	wire.VerifyGPGKeyOption{},
	wire.WatchInfo{},
	wire.WikiCommit{},
	wire.WikiCommitList{},
	wire.WikiPage{},
	wire.WikiPageMetaData{},
}

// TestWireTypesListed checks that wireTypes holds every struct type
// declared in wire/wire_gen.go.
func TestWireTypesListed(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "wire/wire_gen.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, v := range wireTypes {
		listed = append(listed, reflect.TypeOf(v).Name())
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if _, isStruct := ts.Type.(*ast.StructType); !isStruct || ts.Assign.IsValid() {
				continue
			}
			n++
			if !slices.Contains(listed, ts.Name.Name) {
				t.Errorf("wire.%s is not in wireTypes", ts.Name.Name)
			}
		}
	}
	if n < 200 {
		t.Fatalf("found %d struct types in wire_gen.go: the parse went wrong", n)
	}
}

// fillValue sets every field reachable from v (pointers allocated down to
// depth levels, slices of two elements, maps of one entry) to a value that
// is not the zero value, varied by seed: strings that need escaping
// (HTML characters, control bytes, invalid UTF-8, U+2028), times with
// nanoseconds in a zone other than UTC, interface values holding objects,
// lists and numbers.
func fillValue(t *testing.T, v reflect.Value, seed *int, depth int) {
	t.Helper()
	fillLevel(t, v, seed, depth, 0)
}

// fillLevel is fillValue at nesting level: slices and maps below 12
// levels stay nil (a type may hold a list of itself).
func fillLevel(t *testing.T, v reflect.Value, seed *int, depth, level int) {
	t.Helper()
	level++
	*seed++
	n := *seed
	switch v.Kind() {
	case reflect.String:
		strs := []string{"plain", `<a href="x">&amp;</a> \ back`, "tab\tnew\nline\r\b\f\x01\x1f\x7f", "é ü 日本 \u2028\u2029 \xff\xfe ok", "🙂", ""}
		v.SetString(strs[n%len(strs)])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int64, reflect.Int:
		v.SetInt(int64(n) * 1000003)
	case reflect.Uint64:
		v.SetUint(uint64(n)*1000003 + 1<<63)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -8*3600)}
			v.Set(reflect.ValueOf(time.Date(2020+n%5, time.Month(1+n%12), 1+n%28, n%24, n%60, n%60, n*1234567%1e9, zones[n%len(zones)])))
			return
		}
		for i := range v.NumField() {
			fillLevel(t, v.Field(i), seed, depth, level)
		}
	case reflect.Pointer:
		if depth == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillLevel(t, p.Elem(), seed, depth-1, level)
		v.Set(p)
	case reflect.Slice:
		if level > 12 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillLevel(t, s.Index(i), seed, depth, level)
		}
		v.Set(s)
	case reflect.Map:
		if level > 12 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillLevel(t, k, seed, depth, level)
			fillLevel(t, e, seed, depth, level)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface: // free-form JSON (metadata, form fields)
		vals := []any{
			map[string]any{"z<": "&", "a": []any{1.5, -2e-7, 1e21, true, nil, "\u2028"}, "m": map[string]any{}},
			[]any{"x", 3.0, map[string]any{"k": "<v>"}},
			"text <b>", 42.25, false, nil,
		}
		if x := vals[n%len(vals)]; x != nil {
			v.Set(reflect.ValueOf(x))
		}
	default:
		t.Fatalf("fillValue: field of kind %s: teach the test about it", v.Kind())
	}
}

// init makes every answer of this package's tests (call.json, in every
// handler test) compare its body with encoding/json's bytes for the same
// value; a difference ends the test binary with both bodies.
func init() {
	answerJSONCheck = func(v any, body []byte) {
		want, err := json.Marshal(v)
		if err == nil && bytes.Equal(body, append(want, '\n')) {
			return
		}
		fmt.Fprintf(os.Stderr, "FAIL: the answer JSON of %T differs from encoding/json's:\n got %s\nwant %s (%v)\n", v, body, want, err)
		os.Exit(1)
	}
}

// encodeAnswerBytes is what call.json writes for v, or an error.
func encodeAnswerBytes(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := encodeAnswer(&buf, v)
	return buf.Bytes(), err
}

// TestAnswerJSONMatchesEncodingJSON checks that the answers' encoder
// (goccy/go-json, as call.json runs it) writes json.Marshal's bytes and a
// newline for every wire type: zero, with every field set (nested
// pointers to several depths, varied strings, times and free-form
// values), as a value, a pointer and a list.
func TestAnswerJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%T): %v", v, err)
		}
		got, err := encodeAnswerBytes(v)
		if err != nil {
			t.Fatalf("encodeAnswer(%T): %v", v, err)
		}
		if want = append(want, '\n'); !bytes.Equal(got, want) {
			t.Errorf("encodeAnswer(%T):\n got %s\nwant %s", v, got, want)
		}
	}
	for _, zero := range wireTypes {
		typ := reflect.TypeOf(zero)
		t.Run(typ.Name(), func(t *testing.T) {
			t.Parallel()
			check(t, zero)
			check(t, reflect.Zero(reflect.PointerTo(typ)).Interface())
			for seed := range 6 {
				for depth := range 3 {
					s := seed
					p := reflect.New(typ)
					fillValue(t, p.Elem(), &s, depth)
					check(t, p.Elem().Interface())
					check(t, p.Interface())
					list := reflect.MakeSlice(reflect.SliceOf(typ), 2, 2)
					list.Index(0).Set(p.Elem())
					check(t, list.Interface())
				}
			}
		})
	}
	check(t, wire.Repository{Topics: []string{}, WikiBranch: ptrTo("")})
	check(t, []wire.User{})
	check(t, []*wire.Issue(nil))
	check(t, map[string]any{"b": 1, "a": []string{"<"}})
}

// TestAnswerJSONStrings compares the answers' encoder with encoding/json
// on random strings: ASCII (control bytes, quotes, HTML characters),
// UTF-8, invalid bytes, U+2028/U+2029.
func TestAnswerJSONStrings(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", " ", `"`, `\`, "<", ">", "&", "\x00", "\x08", "\x0c", "\n", "\r", "\t", "\x1f", "\x7f",
		"é", "日", "🙂", "\u2028", "\u2029", "\xff", "\xe6\x97", "\xc3", "\ufffd", "'", "/", "\xed\xa0\x80", "\xf4\x90\x80\x80"}
	for range 5000 {
		var s string
		for range rng.IntN(40) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		want, _ := json.Marshal(wire.APIError{Message: s, URL: &s})
		got, err := encodeAnswerBytes(wire.APIError{Message: s, URL: &s})
		if err != nil || !bytes.Equal(got, append(want, '\n')) {
			t.Fatalf("encodeAnswer(%q) = %s, %v; want %s", s, got, err, want)
		}
	}
}

// TestAnswerJSONRefusesWhatEncodingJSONRefuses: a time encoding/json
// cannot write (year 10000) makes the answers' encoder fail too, having
// written nothing, so call.json answers 500 rather than a body
// encoding/json would not write.
func TestAnswerJSONRefusesWhatEncodingJSONRefuses(t *testing.T) {
	t.Parallel()
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, v := range []any{
		wire.User{Created: far},
		&wire.Repository{Updated: far},
		wire.Repository{Owner: wire.User{LastLogin: far}},
		[]wire.Repository{{Parent: &wire.Repository{MirrorUpdated: far}}},
		wire.Repository{RepoTransfer: &wire.RepoTransfer{Doer: wire.User{Created: far}}},
	} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("json.Marshal accepted %+v", v)
		}
		if b, err := encodeAnswerBytes(v); err == nil {
			t.Errorf("encodeAnswer accepted a value encoding/json refuses: %T", v)
		} else if len(b) != 0 {
			t.Errorf("encodeAnswer(%T) failed after writing %q", v, b)
		}
	}
}

// TestTwoFields compares twoFields with strings.Fields on Authorization
// values: exactly two fields, whatever the white space (ASCII or not).
func TestTwoFields(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"token", "Bearer", "abc", " ", "  ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "é", "x"}
	cases := []string{"", " ", "token", "token ", " token", "token abc", "token  abc", "token abc def", "token\tabc", "a b"}
	for range 5000 {
		var s string
		for range rng.IntN(6) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		f := strings.Fields(s)
		a, b, ok := twoFields(s)
		if ok != (len(f) == 2) || ok && (a != f[0] || b != f[1]) {
			t.Fatalf("twoFields(%q) = %q, %q, %v; strings.Fields gives %q", s, a, b, ok, f)
		}
	}
}
