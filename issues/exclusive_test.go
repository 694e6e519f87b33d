package issues_test

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/issues"
)

// labelSet builds labels from specs "name" (plain) or "name!" (exclusive),
// with ids 1, 2, … in order.
func labelSet(specs ...string) map[string]*issues.Label {
	m := map[string]*issues.Label{}
	for i, s := range specs {
		name, excl := strings.CutSuffix(s, "!")
		m[name] = &issues.Label{ID: int64(i + 1), Name: name, Exclusive: excl}
	}
	return m
}

func pick(m map[string]*issues.Label, names string) []*issues.Label {
	var out []*issues.Label
	for _, n := range strings.Fields(names) {
		out = append(out, m[n])
	}
	return out
}

func names(ls []*issues.Label) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Name)
	}
	return strings.Join(s, " ")
}

func TestExclusiveScope(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		exclusive bool
		want      string
	}{
		{"a/b", true, "a"},
		{"a/b/c", true, "a/b"},
		{"a/b", false, ""},
		{"ab", true, ""},
		{"/b", true, ""},
		{"a/", true, ""},
		{"a//", true, ""},
		{"a//b", true, "a/"},
		{"", true, ""},
	} {
		if got := issues.ExclusiveScope(&issues.Label{Name: tt.name, Exclusive: tt.exclusive}); got != tt.want {
			t.Errorf("ExclusiveScope(%q, %v) = %q, want %q", tt.name, tt.exclusive, got, tt.want)
		}
	}
}

func TestApplyExclusive(t *testing.T) {
	t.Parallel()
	m := labelSet("prio/high!", "prio/low!", "prio/mid!", "prio/plain", "kind/bug!", "kind/feature!", "docs", "a/b/c!", "a/b/d!", "a/x!")
	tests := []struct {
		name                   string
		current, adding        string
		result, added, removed string
	}{
		{"plain add", "docs", "kind/bug", "docs kind/bug", "kind/bug", ""},
		{"new label evicts the one there", "prio/high docs", "prio/low", "docs prio/low", "prio/low", "prio/high"},
		{"the one there is evicted even when alphabetically later", "prio/mid", "prio/high", "prio/high", "prio/high", "prio/mid"},
		{"non-exclusive same prefix stays", "prio/plain", "prio/high", "prio/plain prio/high", "prio/high", ""},
		{"adding non-exclusive keeps exclusive", "prio/high", "prio/plain", "prio/high prio/plain", "prio/plain", ""},
		{"several of one scope: alphabetically last wins, request order ignored", "", "prio/mid prio/high prio/low", "prio/mid", "prio/high prio/low prio/mid", "prio/high prio/low"},
		{"already there: nothing happens", "prio/high docs", "prio/high", "prio/high docs", "", ""},
		{"scopes are independent", "prio/high kind/bug", "kind/feature prio/low", "kind/feature prio/low", "kind/feature prio/low", "kind/bug prio/high"},
		{"nested scope a/b is not a", "a/b/c a/x", "a/b/d", "a/x a/b/d", "a/b/d", "a/b/c"},
		{"nothing added", "docs", "", "docs", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, added, removed := issues.ApplyExclusive(pick(m, tt.current), pick(m, tt.adding))
			if got := names(res); got != tt.result {
				t.Errorf("result = %q, want %q", got, tt.result)
			}
			if got := names(added); got != tt.added {
				t.Errorf("added = %q, want %q", got, tt.added)
			}
			if got := names(removed); got != tt.removed {
				t.Errorf("removed = %q, want %q", got, tt.removed)
			}
		})
	}
}

func TestApplyExclusiveArchived(t *testing.T) {
	t.Parallel()
	// Archived labels are ordinary labels for the rule (Forgejo has no
	// special handling): an archived one may be added and it wins as any.
	m := labelSet("prio/high!", "prio/low!")
	m["prio/low"].Archived = m["prio/low"].Archived.AddDate(2024, 0, 0)
	res, _, _ := issues.ApplyExclusive(pick(m, "prio/high"), pick(m, "prio/low"))
	if names(res) != "prio/low" || !res[0].IsArchived() {
		t.Fatalf("result = %q", names(res))
	}
}

func TestDedupExclusive(t *testing.T) {
	t.Parallel()
	m := labelSet("prio/high!", "prio/low!", "prio/mid!", "prio/plain", "kind/bug!", "docs")
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"docs", "docs"},
		{"prio/mid prio/high prio/low", "prio/mid"},
		{"prio/low prio/high", "prio/low"},
		{"prio/high prio/plain docs kind/bug", "docs kind/bug prio/high prio/plain"},
		{"docs docs prio/low prio/low", "docs prio/low"},
	} {
		if got := names(issues.DedupExclusive(pick(m, tt.in))); got != tt.want {
			t.Errorf("DedupExclusive(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
