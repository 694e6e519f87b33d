package httpapi_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitStatus is the status Forgejo's CommitAffectedFiles shows for a
// letter of `git show --name-status --no-renames`.
var gitStatus = map[string]string{"A": "added", "M": "modified", "D": "removed"}

// TestPullCommitsMatchGit: GET /pulls/{index}/commits on SHA-1 and SHA-256
// repositories; each commit's files and stats equal what `git show
// --numstat` and `git show --name-status` (renames as removed + added)
// say; page and limit, X-Total-Count, Link; files=false and
// verification=false leave those out.
func TestPullCommitsMatchGit(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e := newPullEnv(t, format)
			w := e.seed(format)
			w.git("checkout", "-q", "-b", "many", "main")
			w.commit("add two", map[string]string{"x/one.txt": "1\n", "x/two.txt": "2\n2\n"})
			w.commit("modify", map[string]string{"a.txt": "1\n2\n3\nmore\nlines\n", "x/one.txt": "uno\n"})
			w.git("mv", "x/two.txt", "x/deux.txt")
			w.commit("rename", map[string]string{})
			w.commit("delete", map[string]string{"README.md": ""})
			w.commit("binary", map[string]string{"bin.dat": "\x00\x01\x02\x00"})
			w.push("many")
			ids := strings.Fields(w.git("rev-list", "main..many"))
			require.Len(t, ids, 5)
			pr := e.newPull(e.alice, "many", "main", "many commits")
			n := num(pr["number"])

			all := e.send(e.alice, "GET", e.pullPath(n, "/commits?limit=50"), nil, 200)
			assert.Equal(t, "5", all.Header.Get("X-Total-Count"))
			assert.Empty(t, all.Header.Get("Link"))
			list := all.list(t)
			require.Len(t, list, 5)
			for i, c := range list {
				id := ids[i]
				assert.Equal(t, id, c["sha"], "newest first")
				assert.Len(t, id, map[string]int{"sha1": 40, "sha256": 64}[format])
				var adds, dels int
				for _, line := range strings.Split(w.git("show", "--format=", "--no-renames", "--numstat", id), "\n") {
					f := strings.Fields(line)
					a, _ := strconv.Atoi(f[0]) // "-" for binary files: 0
					d, _ := strconv.Atoi(f[1])
					adds, dels = adds+a, dels+d
				}
				var want []map[string]any
				for _, line := range strings.Split(w.git("show", "--format=", "--no-renames", "--name-status", id), "\n") {
					f := strings.SplitN(line, "\t", 2)
					want = append(want, map[string]any{"filename": f[1], "status": gitStatus[f[0]]})
				}
				stats := c["stats"].(map[string]any)
				assert.EqualValues(t, adds, stats["additions"], "%s additions", id)
				assert.EqualValues(t, dels, stats["deletions"], "%s deletions", id)
				assert.EqualValues(t, adds+dels, stats["total"], "%s total", id)
				var got []map[string]any
				for _, f := range c["files"].([]any) {
					got = append(got, f.(map[string]any))
				}
				assert.ElementsMatch(t, want, got, "%s files", id)
				assert.NotNil(t, c["commit"].(map[string]any)["verification"])
			}

			// Pages of 2: 2, 2, 1; X-Total-Count 5; Link next/last, then prev.
			var paged []any
			for page := 1; page <= 3; page++ {
				r := e.send(e.alice, "GET", e.pullPath(n, fmt.Sprintf("/commits?limit=2&page=%d", page)), nil, 200)
				assert.Equal(t, "5", r.Header.Get("X-Total-Count"))
				assert.Equal(t, strconv.Itoa(page), r.Header.Get("X-Page"))
				assert.Equal(t, "3", r.Header.Get("X-PageCount"))
				link := r.Header.Get("Link")
				assert.Equal(t, page < 3, strings.Contains(link, `rel="next"`), link)
				assert.Equal(t, page > 1, strings.Contains(link, `rel="prev"`), link)
				for _, c := range r.list(t) {
					paged = append(paged, c["sha"])
				}
			}
			assert.Equal(t, []any{ids[0], ids[1], ids[2], ids[3], ids[4]}, paged)

			bare := e.send(e.alice, "GET", e.pullPath(n, "/commits?files=false&verification=false"), nil, 200).list(t)
			require.Len(t, bare, 5)
			assert.Nil(t, bare[0]["files"])
			assert.NotNil(t, bare[0]["stats"], "stats stay")
			assert.Nil(t, bare[0]["commit"].(map[string]any)["verification"])
		})
	}
}
