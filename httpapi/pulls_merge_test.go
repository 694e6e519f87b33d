package httpapi_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullMergeStylesGraph merges a pull request with each style through
// the API, on SHA-1 and SHA-256 repositories, and reads the resulting
// graph back with git: merge (two parents), squash (one commit on the old
// tip), rebase (the head's commits replayed on the old tip), rebase-merge
// (a merge of the replayed commits), fast-forward-only (main is the head).
func TestPullMergeStylesGraph(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			e := newPullEnv(t, format)
			w := e.seed(format)
			// Every style is allowed.
			e.send(e.alice, "PATCH", e.proj, map[string]any{"allow_merge_commits": true, "allow_rebase": true,
				"allow_rebase_explicit": true, "allow_squash_merge": true, "allow_fast_forward_only_merge": true}, 200)
			for _, style := range []string{"merge", "squash", "rebase", "rebase-merge", "fast-forward-only"} {
				w.fetch()
				branch := "s-" + style
				w.git("checkout", "-q", "-B", branch, "o/main")
				c1 := w.commit(style+" one", map[string]string{style + "/1.txt": "one\n"})
				c2 := w.commit(style+" two", map[string]string{style + "/2.txt": "two\n"})
				w.push("+" + branch)
				if style != "fast-forward-only" {
					// main moves on, so the merge is not a fast-forward.
					w.git("checkout", "-q", "-B", "main", "o/main")
					w.commit("main before "+style, map[string]string{"main-" + style + ".txt": "m\n"})
					w.push("main")
				}
				w.fetch()
				old := w.git("rev-parse", "o/main")
				pr := e.newPull(e.alice, branch, "main", "Style "+style)
				n := num(pr["number"])
				e.send(e.alice, "POST", e.pullPath(n, "/merge"), map[string]any{"Do": style}, 200)
				got := e.getPull(n)
				require.Equal(t, true, got["merged"], style)
				w.fetch()
				tip := w.git("rev-parse", "o/main")
				assert.Equal(t, tip, got["merge_commit_sha"], style)
				parents := func(c string) []string { return strings.Fields(w.git("log", "-1", "--format=%P", c)) }
				subject := func(c string) string { return w.git("log", "-1", "--format=%s", c) }
				// Whatever the style, main has the head's files.
				assert.Equal(t, "one", w.git("show", tip+":"+style+"/1.txt"), style)
				assert.Equal(t, "two", w.git("show", tip+":"+style+"/2.txt"), style)
				switch style {
				case "merge":
					assert.Equal(t, []string{old, c2}, parents(tip))
				case "squash":
					assert.Equal(t, []string{old}, parents(tip))
					assert.Equal(t, "Style squash (#"+strconv.Itoa(n)+")", subject(tip))
					assert.NotContains(t, w.git("rev-list", tip), c1)
				case "rebase":
					p := parents(tip)
					require.Len(t, p, 1)
					assert.Equal(t, []string{old}, parents(p[0]))
					assert.Equal(t, "rebase two", subject(tip))
					assert.Equal(t, "rebase one", subject(p[0]))
					assert.NotEqual(t, c2, tip, "replayed, not the pushed commits")
				case "rebase-merge":
					p := parents(tip)
					require.Len(t, p, 2)
					assert.Equal(t, old, p[0])
					assert.NotEqual(t, c2, p[1])
					assert.Equal(t, "rebase-merge two", subject(p[1]))
					first := parents(p[1])
					require.Len(t, first, 1)
					assert.Equal(t, []string{old}, parents(first[0]))
				case "fast-forward-only":
					assert.Equal(t, c2, tip)
				}
				assert.Len(t, tip, map[string]int{"sha1": 40, "sha256": 64}[format])
			}
		})
	}
}
