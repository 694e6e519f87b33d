package httpapi

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/repos"
)

type docOp struct{ method, path, id, tag string }

func loadDocOps(t *testing.T) []docOp {
	t.Helper()
	raw, err := os.ReadFile("openapi/forgejo-v15.0.3.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var ops []docOp
	for path, item := range doc.Paths {
		for method, body := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				ID   string   `json:"operationId"`
				Tags []string `json:"tags"`
			}
			if err := json.Unmarshal(body, &op); err != nil {
				t.Fatal(err)
			}
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			ops = append(ops, docOp{strings.ToUpper(method), path, op.ID, tag})
		}
	}
	return ops
}

// TestCoverage lists the document's operations and which ones Hearth
// serves (`go test -run TestCoverage -v ./httpapi` prints the summary). It
// fails when a served route is not in the document, or is there under
// another operationId, and when a served operation's path does not reach
// its own handler through the router.
func TestCoverage(t *testing.T) {
	ops := loadDocOps(t)
	byKey := map[string]docOp{}
	for _, o := range ops {
		byKey[o.method+" "+o.path] = o
	}
	a := New(Config{Auth: auth.New(auth.Config{}), Repos: &repos.Service{}})
	served := map[string]bool{}
	for _, rt := range a.routes() {
		key := rt.Method + " " + rt.Path
		o, ok := byKey[key]
		if !ok {
			t.Errorf("served route %s is not an operation of the document (a typo?)", key)
			continue
		}
		if o.id != rt.Op {
			t.Errorf("%s is %s in the document, not %s", key, o.id, rt.Op)
		}
		if served[key] {
			t.Errorf("%s is routed twice", key)
		}
		served[key] = true

		// The path, with every parameter filled, reaches this route.
		path := "/api/v1" + regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(rt.Path, "x1")
		rctx := chi.NewRouteContext()
		if !a.router.Match(rctx, rt.Method, path) {
			t.Errorf("%s %s does not reach a handler (it would answer the router's 404)", rt.Method, path)
		} else if got := rctx.RoutePattern(); got != rt.chiPattern() {
			t.Errorf("%s %s reaches %s instead of %s", rt.Method, path, got, rt.Path)
		}
	}

	missing := map[string][]string{}
	for _, o := range ops {
		if !served[o.method+" "+o.path] {
			missing[o.tag] = append(missing[o.tag], o.method+" "+o.path)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "covered %d/%d\n", len(served), len(ops))
	tags := make([]string, 0, len(missing))
	for tag := range missing {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		list := missing[tag]
		sort.Strings(list)
		fmt.Fprintf(&b, "missing %s (%d): %s\n", tag, len(list), strings.Join(list, ", "))
	}
	t.Log("\n" + b.String())
	if len(ops) != 491 {
		t.Errorf("the document has %d operations, expected 491", len(ops))
	}
}
