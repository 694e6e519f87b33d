package repos_test

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/repos"
)

// FuzzMatchBranchRule matches arbitrary branch protection rule names
// against arbitrary branches: it never panics; a plain rule matches
// exactly its branch ignoring case; every rule covers its own text when
// that text is a plain name, and a glob rule is matched case-sensitively
// (so two branches that differ only in case are both covered or the
// match depends only on the glob).
func FuzzMatchBranchRule(f *testing.F) {
	for _, s := range [][2]string{{"main", "main"}, {"main", "MAIN"}, {"release/*", "release/1"}, {"release/*", "release/1/x"},
		{"release/**", "release/1/x"}, {"{a,b}", "a"}, {"{a", "{a"}, {"{a", ""}, {"[a-", "x"}, {"\\", "\\"}, {"*", ""},
		{"[!", "a"}, {"{{", "{"}, {"?", "é"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rule, branch string) {
		got := repos.MatchBranchRule(rule, branch)
		if !repos.IsBranchRuleGlob(rule) {
			if got != strings.EqualFold(rule, branch) {
				t.Fatalf("MatchBranchRule(%q, %q) = %v for a plain rule", rule, branch, got)
			}
			if !repos.MatchBranchRule(rule, rule) {
				t.Fatalf("plain rule %q does not match itself", rule)
			}
		}
		if repos.MatchBranchRule(rule, branch) != got {
			t.Fatalf("MatchBranchRule(%q, %q) is not deterministic", rule, branch)
		}
	})
}

// FuzzMatchTagPattern matches arbitrary tag protection patterns (globs
// and /regexps/) against arbitrary tags: it never panics and is
// deterministic; a plain pattern (no glob or regexp syntax) that is a
// valid tag name covers its own text.
func FuzzMatchTagPattern(f *testing.F) {
	for _, s := range [][2]string{{"v*", "v1/x"}, {"/^v[0-9]+$/", "v12"}, {"/(/", "x"}, {"//", ""}, {"/", "/"}, {"{a", "{a"},
		{"[", "["}, {"v1.0", "v1.0"}, {"*", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, tag string) {
		got := repos.MatchTagPattern(pattern, tag)
		if repos.MatchTagPattern(pattern, tag) != got {
			t.Fatalf("MatchTagPattern(%q, %q) is not deterministic", pattern, tag)
		}
		// (a tag name: gobwas/glob ends a pattern at a NUL, which no tag holds)
		if !repos.IsBranchRuleGlob(pattern) && !strings.HasPrefix(pattern, "/") && repos.CheckRefName(pattern) == nil &&
			!repos.MatchTagPattern(pattern, pattern) {
			t.Fatalf("plain tag pattern %q does not cover itself", pattern)
		}
	})
}
