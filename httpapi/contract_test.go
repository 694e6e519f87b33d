package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	schemas "github.com/hearthforge/hearth/httpapi/internal/contract"
)

// The contract: every response the API gives in tests is checked against
// Forgejo's OpenAPI document (../shared/openapi, embedded as
// openapi/forgejo-v15.0.3.json). The status must be one the operation
// declares or a reviewed deviation below, and the JSON body must validate
// against the declared schema, strictly: object schemas admit no property
// they do not name, so a misspelt field fails.

// anyOperation lists statuses any operation may answer although the
// document rarely declares them, each with its reason. Their bodies must be
// Forgejo's APIError.
var anyOperation = map[int]string{
	http.StatusUnauthorized:          "credentials presented but wrong answer 401 on every route, and reqToken routes answer 401 `token is required` (spec/auth.md §1.3, §8); the document declares 401 on few operations",
	http.StatusForbidden:             "token scopes, account states and site-admin checks answer 403 on every route (spec/auth.md §1.5, §4, §8)",
	http.StatusRequestEntityTooLarge: "Hearth caps request bodies (httpapi.Config.MaxBodyBytes); Forgejo has no cap",
	http.StatusNotImplemented:        "operations Hearth has not built yet answer 501 (httpapi routes.go: notImplemented)",
	http.StatusTooManyRequests:       "Hearth throttles repeated failed password sign-ins on every route (auth.Throttle); Forgejo has no such counter",
}

// withBody lists statuses operations with a request body may answer.
var withBody = map[int]string{
	http.StatusUnprocessableEntity: "body binding errors (malformed JSON, wrong types, missing required fields) are 422 on every route with a body (spec/auth.md §9)",
}

// perOperation lists statuses particular operations answer that the
// document does not declare, by operationId.
var perOperation = map[string]map[int]string{
	"adminEditUser":                 {http.StatusNotFound: "an unknown {username} is 404 `user redirect does not exist` (spec/auth.md §9: UserAssignmentAPI); the document omits it"},
	"repoUpdateAvatar":              {http.StatusUnprocessableEntity: "a body that is not a PNG, JPEG, GIF or WebP image; Forgejo answers it with a 500"},
	"repoCreateBranchProtection":    {http.StatusBadRequest: "`both rule_name and branch_name are empty` is 400 (spec/repos.md §1); the document omits it"},
	"adminRenameUser":               {http.StatusNotFound: "an unknown {username} is 404 `user redirect does not exist` (spec/auth.md §9: UserAssignmentAPI); the document omits it"},
	"repoDownloadCommitDiffOrPatch": {http.StatusUnprocessableEntity: "Forgejo's route takes only .diff and .patch: git/commits/a..b is GET git/commits/{sha}, whose invalid name is 422 `no valid ref or sha`"},
	"repoGetArchive":                {http.StatusBadRequest: "an unknown archive format is 400 `unknown format: <archive>` (Forgejo's archiveDownload, ErrUnknownArchiveFormat); the document omits it"},
	"repoCreateTagProtection":       {http.StatusBadRequest: "an empty name_pattern or whitelist is 400 (Forgejo's CreateTagProtection); the document omits it"},
	"repoSigningKey":                {http.StatusNotFound: "a repository the actor may not see is 404 (Forgejo's repoAssignment); the document omits it"},
	"GetBlobs":                      {http.StatusNotFound: "a repository the caller may not see is 404, as every /repos/{owner}/{repo} route (repoAssignment); the document omits it"},
}

// bodyAs lists statuses particular operations answer that the document
// does not declare although Forgejo's handler answers them, with the
// declared status whose schema their body follows.
var bodyAs = map[string]map[int]int{
	// Forgejo's repo.Transfer answers 201 with the repository while the
	// transfer waits for the recipient, 202 when it is done at once; its
	// swagger comment declares only 202.
	"repoTransfer": {http.StatusCreated: http.StatusAccepted},
	// Forgejo's VerifyUserGPGKey answers 200 (ctx.JSON(http.StatusOK, …))
	// with the key; its swagger comment declares 201.
	"userVerifyGPGKey": {http.StatusOK: http.StatusCreated},
	// Forgejo's ApplyDiffPatch answers 201 (ctx.JSON(http.StatusCreated,
	// fileResponse)); its swagger comment declares 200.
	"repoApplyDiffPatch": {http.StatusCreated: http.StatusOK},
}

// bodyDeviations lists declared statuses whose body Forgejo's handler
// writes otherwise than its document says, with the reason: only that the
// body is a JSON object with a message is checked.
var bodyDeviations = map[string]map[int]string{
	"repoUpdateTopics": {http.StatusUnprocessableEntity: "Forgejo's UpdateTopics writes `invalidTopics` null when it refuses more than 25 topics"},
	"repoAddTopic":     {http.StatusUnprocessableEntity: "Forgejo's AddTopic writes `invalidTopics` as the one topic name, a string, not the document's list"},
	"repoDeleteTopic":  {http.StatusUnprocessableEntity: "Forgejo's DeleteTopic writes `invalidTopics` as the one topic name, a string, not the document's list"},
}

// listBodies are operations that answer a list of the declared schema in
// some cases: GET contents of a directory (Forgejo documents the file case
// only).
var listBodies = map[string]string{
	"repoGetContents": "a directory's contents are a list of ContentsResponse (Forgejo's GetContents)",
}

// rawOperations answer bytes, not JSON: only their status is checked.
var rawOperations = map[string]string{
	"repoGetRawFile":                "the file's bytes with their detected Content-Type, as Forgejo's ServeBlob",
	"repoGetRawFileOrLFS":           "the file's bytes with their detected Content-Type, as Forgejo's ServeBlob",
	"repoGetArchive":                "zip or tar.gz bytes",
	"repoDownloadCommitDiffOrPatch": "the diff or patch as plain text",
	"renderMarkup":                  "the rendered HTML (text/html), a string in the document",
	"renderMarkdown":                "the rendered HTML (text/html), a string in the document",
	"renderMarkdownRaw":             "the rendered HTML (text/html), a string in the document",
	"getVerificationToken":          "the token as plain text (Forgejo's ctx.PlainText)",
	"getSigningKey":                 "the armored public key as plain text, empty without one",
	"repoSigningKey":                "the armored public key as plain text, empty without one",
	"getSSHSigningKey":              "the authorized_keys line as plain text",
}

// errorSchemas are the bodies of deviations.
var errorSchemas = map[int]string{
	http.StatusNotFound: "APINotFound",
}

type specOp struct {
	method, path string
	pattern      *regexp.Regexp
	literal      int // literal characters: the most specific template wins
	item         *openapi3.PathItem
	op           *openapi3.Operation
}

type contract struct {
	doc *openapi3.T
	ops []specOp
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	doc, err := schemas.Doc()
	if err != nil {
		return nil, err
	}
	c := &contract{doc: doc}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			re, lit := templateRegexp(path)
			c.ops = append(c.ops, specOp{method: method, path: path, pattern: re, literal: lit, item: item, op: op})
		}
	}
	return c, nil
})

var param = regexp.MustCompile(`\{[^}]+\}`)

// wildParams may hold slashes when they end a path (file paths, refs,
// branch names), as Forgejo routes them.
var wildParams = map[string]bool{"{filepath}": true, "{ref}": true, "{branch}": true, "{tag}": true}

// templateRegexp compiles an OpenAPI path template; {x} matches one
// non-empty path segment (or part of one, as in {index}.{diffType}).
func templateRegexp(path string) (*regexp.Regexp, int) {
	var b strings.Builder
	b.WriteString("^/api/v1")
	lit := 0
	last := 0
	for _, loc := range param.FindAllStringIndex(path, -1) {
		b.WriteString(regexp.QuoteMeta(path[last:loc[0]]))
		lit += loc[0] - last
		if loc[1] == len(path) && wildParams[path[loc[0]:loc[1]]] {
			b.WriteString(`(.+?)`)
		} else {
			b.WriteString(`([^/]+?)`)
		}
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(path[last:]))
	lit += len(path) - last
	b.WriteString("$")
	return regexp.MustCompile(b.String()), lit
}

// find returns the most specific operation for method and path.
func (c *contract) find(method, path string) (*specOp, map[string]string) {
	var best *specOp
	var bestMatch []string
	for i := range c.ops {
		o := &c.ops[i]
		if o.method != method {
			continue
		}
		if m := o.pattern.FindStringSubmatch(path); m != nil && (best == nil || o.literal > best.literal) {
			best, bestMatch = o, m
		}
	}
	if best == nil {
		return nil, nil
	}
	params := map[string]string{}
	for i, name := range param.FindAllString(best.path, -1) {
		params[strings.Trim(name, "{}")] = bestMatch[i+1]
	}
	return best, params
}

// findRequest is find for r's path, or for its escaped path when the
// decoded one matches nothing: a parameter holding an escaped separator
// (a wiki page "a%2Fb") is one segment, as the router reads it.
func (c *contract) findRequest(r *http.Request) (*specOp, map[string]string) {
	op, params := c.find(r.Method, r.URL.Path)
	if op == nil && r.URL.RawPath != "" {
		op, params = c.find(r.Method, r.URL.EscapedPath())
	}
	return op, params
}

// check validates one response to r.
func (c *contract) check(r *http.Request, status int, header http.Header, body []byte) error {
	op, params := c.findRequest(r)
	if op == nil {
		// Not an operation of the document: only Hearth's JSON error shapes.
		if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			return fmt.Errorf("%s %s is no operation of the document but answered %d", r.Method, r.URL.Path, status)
		}
		return c.checkSchema(status, "APINotFound", body)
	}
	schemaStatus := status
	if as, ok := bodyAs[op.op.OperationID][status]; ok {
		schemaStatus = as
	}
	if op.op.Responses.Status(schemaStatus) == nil {
		reason := anyOperation[status]
		if reason == "" && op.op.RequestBody != nil {
			reason = withBody[status]
		}
		if reason == "" {
			reason = perOperation[op.op.OperationID][status]
		}
		if reason == "" {
			return fmt.Errorf("%s %s (%s) answered %d, which the document does not declare (declared: %v): %s",
				r.Method, r.URL.Path, op.op.OperationID, status, keys(op.op.Responses.Map()), body)
		}
		if status == http.StatusNoContent && len(body) == 0 {
			return nil // a reviewed 204 instead of a declared status (unlinkPackage)
		}
		name := errorSchemas[status]
		if name == "" {
			name = "APIError"
		}
		return c.checkSchema(status, name, body)
	}
	if rawOperations[op.op.OperationID] != "" && status == http.StatusOK {
		return nil
	}
	if bodyDeviations[op.op.OperationID][status] != "" {
		var m struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(body, &m); err != nil || m.Message == nil {
			return fmt.Errorf("%s %s (%s) %d: not an object with a message: %s", r.Method, r.URL.Path, op.op.OperationID, status, body)
		}
		return nil
	}
	if listBodies[op.op.OperationID] != "" && status == http.StatusOK && bytes.HasPrefix(body, []byte("[")) {
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return err
		}
		for _, it := range items {
			if err := c.checkSchema(status, "ContentsResponse", it); err != nil {
				return fmt.Errorf("%s %s (%s): %v", r.Method, r.URL.Path, op.op.OperationID, err)
			}
		}
		return nil
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    r,
			PathParams: params,
			Route:      &routers.Route{Spec: c.doc, Path: op.path, PathItem: op.item, Method: op.method, Operation: op.op},
		},
		Status:  schemaStatus,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		return fmt.Errorf("%s %s (%s) %d: %v\nbody: %s", r.Method, r.URL.Path, op.op.OperationID, status, err, body)
	}
	return nil
}

func (c *contract) checkSchema(status int, name string, body []byte) error {
	if err := schemas.CheckSchema(c.doc, name, body); err != nil {
		return fmt.Errorf("status %d: %v", status, err)
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checked wraps h so that every response of /api/v1 is validated against
// the contract, with the reviewed deviations of contractDeviation;
// violations fail t. Every test server of the package is wrapped in it.
func checked(t *testing.T, h http.Handler) http.Handler {
	t.Helper()
	c, err := loadContract()
	if err != nil {
		t.Fatalf("load OpenAPI contract: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		if strings.HasPrefix(r.URL.Path, "/api/v1/") {
			if err := c.checkWithDeviations(r, res.StatusCode, res.Header, body); err != nil {
				t.Errorf("contract: %v", err)
			}
		}
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		w.Write(bytes.Clone(body))
	})
}

// bareForbidden are the operations whose 403 is bare (empty body, no
// Content-Type), as Forgejo's ctx.Status(403) (spec/issues.md).
var bareForbidden = map[string]bool{
	"issueEditIssue": true, "issueEditComment": true, "issueEditCommentDeprecated": true,
	"issueDeleteComment": true, "issueDeleteCommentDeprecated": true,
	"issueAddLabel": true, "issueReplaceLabels": true, "issueClearLabels": true, "issueRemoveLabel": true,
	"repoEditPullRequest": true,
}

// errorShapeDeviations are statuses the document does not declare for an
// operation that Forgejo answers anyway, in its error shape (message and
// url).
var errorShapeDeviations = map[string][]int{
	"notifyGetList":      {http.StatusUnprocessableEntity},
	"notifyGetRepoList":  {http.StatusUnprocessableEntity, http.StatusNotFound},
	"notifyReadList":     {http.StatusBadRequest},
	"notifyReadRepoList": {http.StatusBadRequest, http.StatusNotFound},
	// Forgejo's ReqHTTPSignature: 400 `request signature verification
	// failed` on every route of the /activitypub group but GET /actor;
	// UserIDAssignmentAPI and RepositoryIDAssignmentAPI: 404 `user does
	// not exist […]` / `repository does not exist […]` (ctx.Error, not
	// ctx.NotFound); an activity body that is no activity: 422.
	"activitypubInstanceActorInbox":  {http.StatusBadRequest},
	"activitypubInstanceActorOutbox": {http.StatusBadRequest},
	"activitypubRepository":          {http.StatusBadRequest, http.StatusNotFound},
	"activitypubRepositoryInbox":     {http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity},
	"activitypubRepositoryOutbox":    {http.StatusBadRequest, http.StatusNotFound},
	"activitypubPerson":              {http.StatusBadRequest, http.StatusNotFound},
	"activitypubPersonInbox":         {http.StatusBadRequest, http.StatusNotFound, http.StatusUnprocessableEntity},
	"activitypubPersonFeed":          {http.StatusBadRequest, http.StatusNotFound},
	"activitypubPersonActivityNote":  {http.StatusBadRequest, http.StatusNotFound},
	"activitypubPersonActivity":      {http.StatusBadRequest, http.StatusNotFound},
}

// activityDocuments are the operations whose 200 is an ActivityStreams
// JSON-LD document (Content-Type activityStreams): the document's
// ActivityPub and ForgeOutbox schemas name only "@context", as a string,
// where Forgejo writes the actor's or collection's properties and, for
// actors, a list of two contexts. checkActivityDocument checks them.
var activityDocuments = map[string]bool{
	"activitypubInstanceActor": true, "activitypubPerson": true, "activitypubRepository": true,
	"activitypubInstanceActorOutbox": true, "activitypubRepositoryOutbox": true, "activitypubPersonFeed": true,
}

// activityStreams is the Content-Type of ActivityPub documents (Forgejo's
// activitypub.ActivityStreamsContentType).
const activityStreams = `application/ld+json; profile="https://www.w3.org/ns/activitystreams"`

// checkActivityDocument checks an ActivityStreams answer: its
// Content-Type, the ActivityStreams context first, an absolute id, a
// type; actors name an inbox and an outbox below their id and a key, when
// they publish one, owned by them.
func checkActivityDocument(id string, header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); ct != activityStreams {
		return fmt.Errorf("%s: Content-Type %q, want %q", id, ct, activityStreams)
	}
	var doc struct {
		Context   json.RawMessage `json:"@context"`
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		Inbox     string          `json:"inbox"`
		Outbox    string          `json:"outbox"`
		PublicKey *struct {
			ID, Owner, PublicKeyPem string
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("%s: %v: %s", id, err, body)
	}
	var first string
	var contexts []string
	if json.Unmarshal(doc.Context, &first) != nil {
		if err := json.Unmarshal(doc.Context, &contexts); err != nil || len(contexts) == 0 {
			return fmt.Errorf("%s: @context is neither a string nor a list of strings: %s", id, doc.Context)
		}
		first = contexts[0]
	}
	if first != "https://www.w3.org/ns/activitystreams" {
		return fmt.Errorf("%s: first @context %q", id, first)
	}
	if u, err := url.Parse(doc.ID); err != nil || !u.IsAbs() {
		return fmt.Errorf("%s: id %q is no absolute URL", id, doc.ID)
	}
	switch doc.Type {
	case "OrderedCollection":
		return nil
	case "Application", "Person", "Repository":
	default:
		return fmt.Errorf("%s: type %q", id, doc.Type)
	}
	if doc.Inbox != doc.ID+"/inbox" || doc.Outbox != doc.ID+"/outbox" {
		return fmt.Errorf("%s: inbox %q and outbox %q are not below %q", id, doc.Inbox, doc.Outbox, doc.ID)
	}
	if k := doc.PublicKey; k != nil && (k.Owner != doc.ID || k.ID != doc.ID+"#main-key" || k.PublicKeyPem == "") {
		return fmt.Errorf("%s: publicKey %+v is not the actor's", id, *k)
	}
	return nil
}

// checkWithDeviations is check with the reviewed deviations of Forgejo
// from its own document: the bare 403 of bareForbidden operations;
// issueRemoveLabel's 200 with the removed labels for clients asking for
// GitHub's media type (Forgejo's AcceptsGithubResponse), whose items must
// be Labels; a merge's empty 201 (auto-merge scheduled); a pull request's
// .diff/.patch as raw text; errorShapeDeviations; the quota routes'
// 404 while quota is disabled (Forgejo does not register them); the
// 204 of removing a rule from a quota group (the document says 200); and
// Forgejo's not-found answer on every operation (isNotFoundBody).
func (c *contract) checkWithDeviations(r *http.Request, status int, header http.Header, body []byte) error {
	op, _ := c.findRequest(r)
	if op == nil {
		return c.check(r, status, header, body)
	}
	id := op.op.OperationID
	switch {
	case bareForbidden[id] && status == http.StatusForbidden && len(body) == 0:
		if ct := header.Get("Content-Type"); ct != "" {
			return fmt.Errorf("%s: a bare 403 with Content-Type %q", id, ct)
		}
		return nil
	case id == "issueRemoveLabel" && status == http.StatusOK:
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return fmt.Errorf("%s: %v", id, err)
		}
		for _, it := range items {
			if err := c.checkSchema(200, "Label", it); err != nil {
				return err
			}
		}
		return nil
	case id == "repoMergePullRequest" && status == http.StatusCreated && len(body) == 0:
		return nil
	case id == "repoDownloadPullDiffOrPatch" && status == http.StatusOK:
		return nil // raw text, as rawOperations' repoDownloadCommitDiffOrPatch
	case activityDocuments[id] && status == http.StatusOK:
		return checkActivityDocument(id, header, body)
	case slices.Contains(errorShapeDeviations[id], status):
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil || m["message"] == nil || m["url"] == nil {
			return fmt.Errorf("%s %d: not Forgejo's error shape: %s", id, status, body)
		}
		return nil
	case status == http.StatusNotFound && strings.Contains(op.path, "/quota") && isQuotaDisabledBody(body):
		return nil
	case id == "adminRemoveRuleFromQuotaGroup" && status == http.StatusNoContent:
		return nil
	case status == http.StatusNotFound && isNotFoundBody(body):
		return nil
	}
	return c.check(r, status, header, body)
}

// isNotFoundBody reports whether body is Forgejo's ctx.NotFound answer:
// exactly message, url and an errors array. Forgejo's assignment
// middlewares (repoAssignment, orgAssignment, UserAssignmentAPI) answer it
// before any handler runs, so every operation may answer it, whether or
// not the document declares a 404 for it, and whatever schema it names.
func isNotFoundBody(body []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || len(m) != 3 || m["message"] == nil || m["url"] == nil {
		return false
	}
	var errs []string
	return json.Unmarshal(m["errors"], &errs) == nil
}

// isQuotaDisabledBody reports whether body is the 404 of a quota route
// while quota is disabled: Forgejo's not-found error shape.
func isQuotaDisabledBody(body []byte) bool {
	var m map[string]any
	return json.Unmarshal(body, &m) == nil && m["message"] != nil
}

// TestContractCatchesWrongFieldNames proves the checker is strict: a
// response with a misspelt field, a wrong type, or an undeclared status
// fails.
func TestContractCatchesWrongFieldNames(t *testing.T) {
	t.Parallel()
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	get := httptest.NewRequest("GET", "/api/v1/version", nil)
	h := http.Header{"Content-Type": {"application/json"}}
	if err := c.check(get, 200, h, []byte(`{"version":"15.0.3+hearth-1"}`)); err != nil {
		t.Errorf("a correct body fails: %v", err)
	}
	for name, tt := range map[string]struct {
		status int
		body   string
	}{
		"misspelt field":     {200, `{"versoin":"15.0.3"}`},
		"wrong type":         {200, `{"version":15}`},
		"undeclared status":  {418, `{"message":"teapot"}`},
		"bad error body":     {401, `{"msg":"x"}`},
		"nested wrong field": {200, `{"version":"1","extra":{"a":1}}`},
	} {
		if err := c.check(get, tt.status, h, []byte(tt.body)); err == nil {
			t.Errorf("%s: accepted %d %s", name, tt.status, tt.body)
		}
	}
	user := httptest.NewRequest("GET", "/api/v1/users/alice", nil)
	if err := c.check(user, 200, h, []byte(`{"id":1,"login":"alice","emial":"a@b.c"}`)); err == nil {
		t.Error("a User with a misspelt field passes")
	}
	if err := c.check(user, 200, h, []byte(fullUser)); err != nil {
		t.Errorf("a correct User fails: %v", err)
	}
}

// fullUser is a User with every field Forgejo always emits.
const fullUser = `{"id":1,"login":"alice","login_name":"","source_id":0,"full_name":"","email":"a@b.c",
"avatar_url":"","html_url":"","language":"","is_admin":false,"last_login":"1970-01-01T00:00:00Z",
"created":"1970-01-01T00:00:00Z","restricted":false,"active":true,"prohibit_login":false,"location":"",
"pronouns":"","website":"","description":"","visibility":"public","followers_count":0,"following_count":0,
"starred_repos_count":0}`

// TestContractCatchesMissingRequiredFields proves the check uses the
// required lists of openapi/required/*.json: a User without a field Forgejo
// always emits fails, as do `{}`, null where Forgejo never sends it, and a
// Repository whose nested owner lacks a field; a nullable field may be null.
func TestContractCatchesMissingRequiredFields(t *testing.T) {
	t.Parallel()
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Content-Type": {"application/json"}}
	user := httptest.NewRequest("GET", "/api/v1/users/alice", nil)
	var u map[string]any
	if err := json.Unmarshal([]byte(fullUser), &u); err != nil {
		t.Fatal(err)
	}
	for field := range u {
		v := u[field]
		delete(u, field)
		body, _ := json.Marshal(u)
		if err := c.check(user, 200, h, body); err == nil {
			t.Errorf("a User without %s passes", field)
		}
		u[field] = nil
		body, _ = json.Marshal(u)
		if err := c.check(user, 200, h, body); err == nil {
			t.Errorf("a User with %s null passes", field)
		}
		u[field] = v
	}
	if err := c.check(user, 200, h, []byte(`{}`)); err == nil {
		t.Error("{} passes as a User")
	}
	version := httptest.NewRequest("GET", "/api/v1/version", nil)
	if err := c.check(version, 200, h, []byte(`{}`)); err == nil {
		t.Error("{} passes as a ServerVersion")
	}

	repo := httptest.NewRequest("GET", "/api/v1/repos/alice/r", nil)
	good := fullRepository(t)
	if err := c.check(repo, 200, h, good); err != nil {
		t.Fatalf("a full Repository fails: %v", err)
	}
	var r map[string]any
	json.Unmarshal(good, &r)
	r["parent"], r["repo_transfer"], r["topics"] = nil, nil, nil
	body, _ := json.Marshal(r)
	if err := c.check(repo, 200, h, body); err != nil {
		t.Errorf("a Repository with its nullable fields null fails: %v", err)
	}
	delete(r["owner"].(map[string]any), "login")
	body, _ = json.Marshal(r)
	if err := c.check(repo, 200, h, body); err == nil {
		t.Error("a Repository whose owner lacks login passes")
	}
}

// fullRepository is a Repository with every field Forgejo always emits.
func fullRepository(t *testing.T) []byte {
	t.Helper()
	var owner map[string]any
	json.Unmarshal([]byte(fullUser), &owner)
	r := map[string]any{"owner": owner, "parent": nil, "repo_transfer": nil, "topics": []string{},
		"created_at": "1970-01-01T00:00:00Z", "updated_at": "1970-01-01T00:00:00Z", "archived_at": "1970-01-01T00:00:00Z",
		"mirror_updated": "1970-01-01T00:00:00Z", "object_format_name": "sha1"}
	for _, f := range []string{"name", "full_name", "description", "language", "languages_url", "html_url", "url", "link",
		"ssh_url", "clone_url", "original_url", "website", "default_branch", "wiki_ssh_url", "wiki_clone_url",
		"default_merge_style", "default_update_style", "avatar_url", "mirror_interval"} {
		r[f] = ""
	}
	for _, f := range []string{"id", "size", "stars_count", "forks_count", "watchers_count", "open_issues_count",
		"open_pr_counter", "release_counter"} {
		r[f] = 1
	}
	for _, f := range []string{"empty", "private", "fork", "template", "mirror", "archived", "has_issues", "has_wiki",
		"has_wiki_contents", "globally_editable_wiki", "has_pull_requests", "has_projects", "has_releases", "has_packages",
		"has_actions", "ignore_whitespace_conflicts", "allow_merge_commits", "allow_rebase", "allow_rebase_explicit",
		"allow_squash_merge", "allow_fast_forward_only_merge", "allow_rebase_update", "default_delete_branch_after_merge",
		"default_allow_maintainer_edit", "internal"} {
		r[f] = false
	}
	body, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return body
}
