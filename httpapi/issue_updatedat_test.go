package httpapi_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	msgDateRight = "user needs to have admin or repository owner right to set an update date"
	msgDateRange = "unallowed update date, because given date must be between issue creation date and now"
)

// upload posts a file as the multipart field `attachment` to path (query
// included), with the form fields given.
func (e *issueEnv) upload(tok, path, filename, content string, fields map[string]string) resp {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		require.NoError(e.t, mw.WriteField(k, v))
	}
	fw, err := mw.CreateFormFile("attachment", filename)
	require.NoError(e.t, err)
	fw.Write([]byte(content))
	require.NoError(e.t, mw.Close())
	return e.do(req{method: "POST", path: path, token: tok, body: buf.Bytes(), header: map[string]string{"Content-Type": mw.FormDataContentType()}})
}

// stamp formats t as the API shows times.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// dated is an issue created at created, with the clock two hours later:
// given (one hour after creation) is a date the repository owner may set;
// early (before creation) and late (after now) are not.
type dated struct {
	n                             int
	created, given, early, late   time.Time
	issuePath, commentsPath, date string
}

func (e *issueEnv) datedIssue(poster string) dated {
	e.t.Helper()
	created := e.clock.Now()
	n := e.newIssue(poster, "dated")
	e.clock.Step(2 * time.Hour)
	d := dated{n: n, created: created, given: created.Add(time.Hour), early: created.Add(-time.Minute),
		late: e.clock.Now().Add(time.Minute), issuePath: e.issuePath(n, ""), commentsPath: e.issuePath(n, "/comments")}
	d.date = stamp(d.given)
	return d
}

func (e *issueEnv) issueUpdated(d dated) string {
	e.t.Helper()
	return e.send("", "GET", d.issuePath, nil, 200).json(e.t)["updated_at"].(string)
}

// TestUpdatedAtRules checks each updated_at rule of the brief (part 4,
// rules 1-10; spec/issues.md §3) over HTTP with an accepted and a refused
// case; a refusal is a 403 with Forgejo's message and changes nothing.
// Rule 11 (cross-reference comments) waits for cross-references, which
// package issues does not make yet.
func TestUpdatedAtRules(t *testing.T) {
	t.Parallel()

	// Rules 1 and 2: optional; absent, the server dates the change itself,
	// and anyone who may edit may leave it out.
	t.Run("2 absent is automatic", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.bob)
		r := e.send(e.bob, "PATCH", d.issuePath, map[string]any{"title": "auto"}, 201)
		assert.Equal(t, stamp(e.clock.Now()), r.json(t)["updated_at"], "accepted: now")
		// Refused: the same writer giving a date.
		e.expect(e.do(req{method: "PATCH", path: d.issuePath, token: e.bob, body: map[string]any{"title": "x", "updated_at": d.date}}), 403, msgDateRight)
		assert.Equal(t, "auto", e.send("", "GET", d.issuePath, nil, 200).json(t)["title"])
	})

	// Rule 3: on issue edit, only the repository owner (or an
	// administrator) may set it, between the issue's creation and now.
	t.Run("3 who and when", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.bob)
		assert.Equal(t, d.date, e.send(e.alice, "PATCH", d.issuePath, map[string]any{"body": "o", "updated_at": d.date}, 201).json(t)["updated_at"], "owner")
		assert.Equal(t, d.date, e.send(e.root, "PATCH", d.issuePath, map[string]any{"body": "a", "updated_at": d.date}, 201).json(t)["updated_at"], "site admin")
		assert.Equal(t, stamp(d.created), e.send(e.alice, "PATCH", d.issuePath, map[string]any{"updated_at": stamp(d.created)}, 201).json(t)["updated_at"], "creation itself is allowed")
		for _, c := range []struct {
			tok  string
			at   time.Time
			msg  string
			name string
		}{
			{e.bob, d.given, msgDateRight, "a writer"},
			{e.alice, d.early, msgDateRange, "before creation"},
			{e.alice, d.late, msgDateRange, "in the future"},
		} {
			before := e.issueUpdated(d)
			r := e.do(req{method: "PATCH", path: d.issuePath, token: c.tok, body: map[string]any{"body": "refused", "updated_at": stamp(c.at)}})
			e.expect(r, 403, c.msg)
			got := e.send("", "GET", d.issuePath, nil, 200).json(t)
			assert.Equal(t, "a", got["body"], c.name)
			assert.Equal(t, before, got["updated_at"], c.name)
		}
	})

	// Rule 4: accepted on issue edit, the issue's update time is exactly
	// the given one (no automatic update).
	t.Run("4 issue edit", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		r := e.send(e.alice, "PATCH", d.issuePath, map[string]any{"title": "dated", "state": "closed", "updated_at": d.date}, 201)
		assert.Equal(t, d.date, r.json(t)["updated_at"])
		assert.Equal(t, d.date, e.issueUpdated(d))
		e.clock.Step(time.Minute)
		e.expect(e.do(req{method: "PATCH", path: d.issuePath, token: e.alice, body: map[string]any{"title": "late", "updated_at": stamp(d.late.Add(time.Hour))}}), 403, msgDateRange)
		got := e.send("", "GET", d.issuePath, nil, 200).json(t)
		assert.Equal(t, "dated", got["title"])
		assert.Equal(t, d.date, got["updated_at"])
	})

	// Rule 5: a milestone change moves the milestone's update time to the
	// later of its own and the given one.
	t.Run("5 milestone", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		e.clock.Step(-30 * time.Minute) // the milestone is made 90 minutes after the issue
		ms := e.send(e.alice, "POST", e.proj+"/milestones", map[string]any{"title": "m"}, 201).json(t)
		own := ms["updated_at"].(string)
		e.clock.Step(30 * time.Minute)
		mpath := fmt.Sprintf("%s/milestones/%v", e.proj, ms["id"])
		// Refused: nothing moves, the issue is not in the milestone.
		e.expect(e.do(req{method: "PATCH", path: d.issuePath, token: e.bob, body: map[string]any{"milestone": ms["id"], "updated_at": d.date}}), 403, msgDateRight)
		got := e.send("", "GET", mpath, nil, 200).json(t)
		assert.Equal(t, own, got["updated_at"])
		assert.EqualValues(t, 0, got["open_issues"])
		// Accepted with an earlier date: the milestone keeps its own.
		e.send(e.alice, "PATCH", d.issuePath, map[string]any{"milestone": ms["id"], "updated_at": d.date}, 201)
		got = e.send("", "GET", mpath, nil, 200).json(t)
		assert.Equal(t, own, got["updated_at"], "never backwards")
		assert.EqualValues(t, 1, got["open_issues"])
		// Accepted with a later date (out of the milestone): it moves there.
		later := stamp(d.created.Add(100 * time.Minute))
		e.send(e.alice, "PATCH", d.issuePath, map[string]any{"milestone": 0, "updated_at": later}, 201)
		assert.Equal(t, later, e.send("", "GET", mpath, nil, 200).json(t)["updated_at"])
	})

	// Rule 6: label add, replace, remove and clear take the date (the
	// label-change comments are dated with it, and so is the issue).
	t.Run("6 labels", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		bug := e.newLabel("bug", false)
		r := e.send(e.alice, "POST", e.issuePath(d.n, "/labels"), map[string]any{"labels": []int64{bug}, "updated_at": d.date}, 200)
		assert.Equal(t, []string{"bug"}, listNames(t, r))
		assert.Equal(t, d.date, e.issueUpdated(d))
		e.send(e.alice, "DELETE", e.issuePath(d.n, "/labels/bug"), map[string]any{"updated_at": d.date}, 204)
		e.send(e.alice, "PUT", e.issuePath(d.n, "/labels"), map[string]any{"labels": []int64{bug}, "updated_at": d.date}, 200)
		e.send(e.alice, "DELETE", e.issuePath(d.n, "/labels"), map[string]any{"updated_at": d.date}, 204)
		assert.Equal(t, d.date, e.issueUpdated(d))
		// Refused: a writer, and a date out of bounds; the labels stay.
		e.send(e.alice, "POST", e.issuePath(d.n, "/labels"), map[string]any{"labels": []int64{bug}}, 200)
		before := e.issueUpdated(d)
		e.expect(e.do(req{method: "PUT", path: e.issuePath(d.n, "/labels"), token: e.bob, body: map[string]any{"labels": []int64{}, "updated_at": d.date}}), 403, msgDateRight)
		e.expect(e.do(req{method: "DELETE", path: e.issuePath(d.n, "/labels"), token: e.alice, body: map[string]any{"updated_at": stamp(d.early)}}), 403, msgDateRange)
		e.expect(e.do(req{method: "DELETE", path: e.issuePath(d.n, "/labels/bug"), token: e.bob, body: map[string]any{"updated_at": d.date}}), 403, msgDateRight)
		assert.Equal(t, []string{"bug"}, e.labelNames(d.n))
		assert.Equal(t, before, e.issueUpdated(d))
	})

	// Rule 7: an issue attachment is created at the given date (and the
	// issue updated then).
	t.Run("7 issue attachment", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		r := e.upload(e.alice, e.issuePath(d.n, "/assets?updated_at="+d.date), "a.txt", "hello", nil)
		e.expect(r, 201, "")
		at := r.json(t)
		assert.Equal(t, d.date, at["created_at"])
		assert.Equal(t, "a.txt", at["name"])
		assert.EqualValues(t, 5, at["size"])
		assert.Equal(t, d.date, e.issueUpdated(d))
		// The date as a form field, and the name override.
		r = e.upload(e.alice, e.issuePath(d.n, "/assets?name=b.txt"), "ignored.txt", "x", map[string]string{"updated_at": d.date})
		e.expect(r, 201, "")
		assert.Equal(t, "b.txt", r.json(t)["name"])
		assert.Equal(t, d.date, r.json(t)["created_at"])
		// Refused: nothing attached.
		e.expect(e.upload(e.bob, e.issuePath(d.n, "/assets?updated_at="+d.date), "c.txt", "x", nil), 403, msgDateRight)
		e.expect(e.upload(e.alice, e.issuePath(d.n, "/assets?updated_at="+stamp(d.late)), "c.txt", "x", nil), 403, msgDateRange)
		e.expect(e.upload(e.alice, e.issuePath(d.n, "/assets?updated_at=soon"), "c.txt", "x", nil), 422,
			`parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"`)
		assert.Len(t, e.send("", "GET", d.issuePath, nil, 200).json(t)["assets"], 2)
	})

	// Rule 8: a new comment is created and updated at the given date, and
	// so is its issue.
	t.Run("8 comment create", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		c := e.send(e.alice, "POST", d.commentsPath, map[string]any{"body": "dated", "updated_at": d.date}, 201).json(t)
		assert.Equal(t, d.date, c["created_at"])
		assert.Equal(t, d.date, c["updated_at"])
		assert.Equal(t, d.date, e.issueUpdated(d))
		e.expect(e.do(req{method: "POST", path: d.commentsPath, token: e.bob, body: map[string]any{"body": "no", "updated_at": d.date}}), 403, msgDateRight)
		e.expect(e.do(req{method: "POST", path: d.commentsPath, token: e.alice, body: map[string]any{"body": "no", "updated_at": stamp(d.early)}}), 403, msgDateRange)
		assert.Len(t, e.send("", "GET", d.commentsPath, nil, 200).list(t), 1)
		assert.Equal(t, d.date, e.issueUpdated(d))
	})

	// Rule 9: an edited comment is updated at the given date, and so is
	// its issue; its creation date stays.
	t.Run("9 comment edit", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		c := e.send(e.bob, "POST", d.commentsPath, map[string]any{"body": "v1"}, 201).json(t)
		cpath := fmt.Sprintf("%s/issues/comments/%v", e.proj, c["id"])
		got := e.send(e.alice, "PATCH", cpath, map[string]any{"body": "v2", "updated_at": d.date}, 200).json(t)
		assert.Equal(t, d.date, got["updated_at"])
		assert.Equal(t, c["created_at"], got["created_at"])
		assert.Equal(t, d.date, e.issueUpdated(d))
		// The deprecated route too.
		e.send(e.alice, "PATCH", fmt.Sprintf("%s/issues/%d/comments/%v", e.proj, d.n, c["id"]), map[string]any{"body": "v3", "updated_at": d.date}, 200)
		// Refused: the poster is no owner; nothing changes.
		e.expect(e.do(req{method: "PATCH", path: cpath, token: e.bob, body: map[string]any{"body": "v4", "updated_at": d.date}}), 403, msgDateRight)
		e.expect(e.do(req{method: "PATCH", path: cpath, token: e.alice, body: map[string]any{"body": "v4", "updated_at": stamp(d.late)}}), 403, msgDateRange)
		assert.Equal(t, "v3", e.send("", "GET", cpath, nil, 200).json(t)["body"])
	})

	// Rule 10: a comment attachment is created at the given date, and the
	// comment updated then.
	t.Run("10 comment attachment", func(t *testing.T) {
		t.Parallel()
		e := newIssueEnv(t)
		d := e.datedIssue(e.alice)
		c := e.send(e.bob, "POST", d.commentsPath, map[string]any{"body": "with file"}, 201).json(t)
		cpath := fmt.Sprintf("%s/issues/comments/%v", e.proj, c["id"])
		r := e.upload(e.alice, cpath+"/assets?updated_at="+d.date, "log.txt", "trace", nil)
		e.expect(r, 201, "")
		assert.Equal(t, d.date, r.json(t)["created_at"])
		got := e.send("", "GET", cpath, nil, 200).json(t)
		assert.Equal(t, d.date, got["updated_at"])
		assert.Len(t, got["assets"], 1)
		e.expect(e.upload(e.bob, cpath+"/assets?updated_at="+d.date, "x.txt", "x", nil), 403, msgDateRight)
		e.expect(e.upload(e.alice, cpath+"/assets?updated_at="+stamp(d.early), "x.txt", "x", nil), 403, msgDateRange)
		assert.Len(t, e.send("", "GET", cpath, nil, 200).json(t)["assets"], 1)
		// Without a file: 400.
		e.expect(e.do(req{method: "POST", path: cpath + "/assets", token: e.alice, body: "x", header: map[string]string{"Content-Type": "text/plain"}}), http.StatusBadRequest, "")
	})
}
