package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// pagedOps reads Forgejo's OpenAPI document: the GET operations with a
// `page`, `limit` or `per_page` query parameter, each with the paging
// parameters it has.
func pagedOps(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("openapi/forgejo-v15.0.3.json")
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	out := map[string][]string{}
	for _, ops := range doc.Paths {
		op, ok := ops["get"]
		if !ok {
			continue
		}
		for _, p := range op.Parameters {
			if p.In == "query" && (p.Name == "page" || p.Name == "limit" || p.Name == "per_page") {
				out[op.OperationID] = append(out[op.OperationID], p.Name)
			}
		}
	}
	return out
}

// listLen is the number of items of a list answer: a JSON array, or the
// array of an object's `data` or `entries` (search and tree answers); -1
// when the body is no list.
func listLen(body []byte) int {
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil && list != nil {
		return len(list)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return -1
	}
	for _, k := range []string{"data", "entries"} {
		if raw, ok := obj[k]; ok && json.Unmarshal(raw, &list) == nil {
			return len(list)
		}
	}
	return -1
}

// TestListPagingExtremes sends the extreme values of `page` and `limit`
// (0, -1, huge, MaxInt64, past MaxInt64, not a number) to every list
// operation of Forgejo's document that the router serves, in a world with
// data: no answer is a 5xx (a panic is one), and the values are read as
// Forgejo's ctx.FormInt and ListOptions read them: a page or limit that is
// missing, not a number, below 1 or out of int64 is the default (the same
// answer as none), a page past the end is an empty list, and a limit of 1
// gives at most one item.
func TestListPagingExtremes(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	w := seedMatrix(t, e)
	paged := pagedOps(t)
	// Issue 1 of olivia/pubrepo blocks the pull request and depends on
	// issue 3: both dependency lists have an item.
	r := e.do(as("olivia", "POST", "/repos/olivia/pubrepo/issues", map[string]any{"title": "third"}))
	require.Equal(t, 201, r.StatusCode, "%s", r.body)
	for _, l := range []struct{ kind, index string }{{"blocks", w.pull}, {"dependencies", fmt.Sprint(r.json(t)["number"])}} {
		r := e.do(as("olivia", "POST", "/repos/olivia/pubrepo/issues/1/"+l.kind,
			json.RawMessage(`{"owner":"olivia","repo":"pubrepo","index":`+l.index+`}`)))
		require.Equal(t, 201, r.StatusCode, "%s: %s", l.kind, r.body)
	}
	type check struct {
		op, url, token string
		param          string
	}
	var checks []check
	served := 0
	for _, rt := range e.api.Routes() {
		names, ok := paged[rt.Op]
		if rt.Method != "GET" || !ok {
			continue
		}
		served++
		token := w.tokens["olivia"]
		if strings.HasPrefix(rt.Path, "/admin/") {
			token = w.tokens["root"]
		}
		for _, n := range names {
			checks = append(checks, check{rt.Op, w.fill(rt.Path, nil), token, n})
		}
	}
	require.Greater(t, served, 60, "the router serves most of Forgejo's list operations")
	// strconv.Atoi, as ctx.FormInt, reads a number past int64 as its
	// bound (ErrRange), anything else that is no number as 0.
	defaults := []string{"0", "-1", "x", "", "-9223372036854775809", "1e3", "%20"}
	huge := []string{"9223372036854775807", "9223372036854775808", "4611686018427387904", "2147483648", "1000000"}
	isHuge := map[string]bool{}
	for _, v := range huge {
		isHuge[v] = true
	}
	ctx := context.Background()
	var (
		mu       sync.Mutex
		failures []string
	)
	fail := func(c check, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf("%s %s (%s): %s", c.op, c.url, c.param, fmt.Sprintf(format, args...)))
	}
	with := func(u, k, v string) string {
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		return u + sep + k + "=" + v
	}
	work := make(chan check)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				base, err := w.send(ctx, "GET", c.url, c.token, "")
				if err != nil {
					fail(c, "%v", err)
					continue
				}
				if base.status >= 500 {
					fail(c, "no paging: %d %s", base.status, trim(base.body))
					continue
				}
				baseLen := listLen(base.body)
				for _, v := range append(append([]string{}, defaults...), huge...) {
					a, err := w.send(ctx, "GET", with(c.url, c.param, v), c.token, "")
					if err != nil {
						fail(c, "%s=%s: %v", c.param, v, err)
						continue
					}
					if a.status >= 500 {
						fail(c, "%s=%s: %d %s", c.param, v, a.status, trim(a.body))
						continue
					}
					if a.status != base.status {
						fail(c, "%s=%s: %d, without it %d", c.param, v, a.status, base.status)
						continue
					}
					if base.status != 200 || baseLen < 0 {
						continue
					}
					n := listLen(a.body)
					isDefault := !isHuge[v]
					switch {
					case isDefault && n != baseLen:
						fail(c, "%s=%s: %d items, without it %d", c.param, v, n, baseLen)
					case !isDefault && c.param != "limit" && n != 0:
						fail(c, "%s=%s: %d items past the end", c.param, v, n)
					case !isDefault && c.param == "limit" && n < baseLen:
						fail(c, "%s=%s: %d items, with the default limit %d", c.param, v, n, baseLen)
					}
				}
				if c.param == "limit" && base.status == 200 && baseLen > 1 {
					a, err := w.send(ctx, "GET", with(c.url, "limit", "1"), c.token, "")
					if err == nil && listLen(a.body) != 1 {
						fail(c, "limit=1: %d %d items", a.status, listLen(a.body))
					}
				}
			}
		}()
	}
	for _, c := range checks {
		work <- c
	}
	close(work)
	wg.Wait()
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("%d list operations served, %d paging parameters probed", served, len(checks))
}
