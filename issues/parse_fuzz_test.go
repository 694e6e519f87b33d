package issues_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// FuzzNormalizeColor normalises arbitrary label colours: an accepted
// colour is lower-case "#rrggbb" and normalising it again changes
// nothing; a refused one is forge.ErrInvalid.
func FuzzNormalizeColor(f *testing.F) {
	for _, s := range []string{"#00aabb", "00AABB", "#abc", "ABC", "#abcd", "", "#", "##abc", "#ggg", "0x123456", "#é12"} {
		f.Add(s)
	}
	stored := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	f.Fuzz(func(t *testing.T, c string) {
		got, err := issues.NormalizeColor(c)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("NormalizeColor(%q): %v is not ErrInvalid", c, err)
			}
			return
		}
		if !stored.MatchString(got) {
			t.Fatalf("NormalizeColor(%q) = %q", c, got)
		}
		if again, err := issues.NormalizeColor(got); err != nil || again != got {
			t.Fatalf("NormalizeColor(%q) = %q, %v; want it unchanged", got, again, err)
		}
		if !strings.EqualFold(strings.TrimPrefix(c, "#"), got[1:]) && len(strings.TrimPrefix(c, "#")) == 6 {
			t.Fatalf("NormalizeColor(%q) = %q changed the digits", c, got)
		}
	})
}

// FuzzApplyExclusive applies arbitrary labels (names from the fuzzer,
// exclusive or not) to an issue holding arbitrary labels: afterwards the
// issue holds at most one label of each exclusive scope, each label once,
// every label it held that was not removed, and every label added.
func FuzzApplyExclusive(f *testing.F) {
	f.Add("a/b\na/c\nx", "a/d\na/e\ny/z", uint16(0xffff))
	f.Add("prio/high", "prio/low\nprio/high", uint16(3))
	f.Add("/a\na/\n//", "a//b\n/", uint16(0xff))
	f.Fuzz(func(t *testing.T, current, adding string, exclusive uint16) {
		var id int64
		mk := func(names string) []*issues.Label {
			var out []*issues.Label
			for _, n := range strings.Split(names, "\n") {
				id++
				out = append(out, &issues.Label{ID: forge.ID(id), Name: n, Exclusive: exclusive&(1<<(id%16)) != 0})
			}
			return out
		}
		cur := issues.DedupExclusive(mk(current)) // an issue's labels already obey the rule
		add := mk(adding)
		result, added, removed := issues.ApplyExclusive(cur, add)
		scopes, ids := map[string]bool{}, map[forge.ID]bool{}
		for _, l := range result {
			if ids[l.ID] {
				t.Fatalf("label %d twice in the result", l.ID)
			}
			ids[l.ID] = true
			if s := issues.ExclusiveScope(l); s != "" {
				if scopes[s] {
					t.Fatalf("two labels of scope %q in the result", s)
				}
				scopes[s] = true
				if !strings.HasPrefix(l.Name, s+"/") {
					t.Fatalf("scope %q is not a prefix of %q", s, l.Name)
				}
			}
		}
		gone := map[forge.ID]bool{}
		for _, l := range removed {
			gone[l.ID] = true
		}
		for _, l := range cur {
			if !ids[l.ID] && !gone[l.ID] {
				t.Fatalf("label %d (%q) lost without being removed", l.ID, l.Name)
			}
		}
		for _, l := range added {
			if !ids[l.ID] && !gone[l.ID] {
				t.Fatalf("label %d (%q) added but neither kept nor removed", l.ID, l.Name)
			}
		}
	})
}

// mentionName is what a mentioned name may hold (Forgejo's pattern).
var mentionName = regexp.MustCompile(`^[-\w][-.\w]*$`)

// FuzzParseMentions parses arbitrary texts: every name found is written
// "@name" in the text, is made of name characters, is no team and is
// found once ignoring case.
func FuzzParseMentions(f *testing.F) {
	for _, s := range []string{"@alice", "hi @bob, @carol.", "@org/team", "`@code` @real", "```\n@fenced\n```\n@out", "(@a) [@b]",
		"@a @b @A", "email a@b.c", "@a:", "@a's", "@-x", "@é", "@@a", "@a.@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		seen := map[string]bool{}
		for _, name := range issues.ParseMentions(text) {
			if !mentionName.MatchString(name) || strings.Contains(name, "/") {
				t.Fatalf("ParseMentions(%q) found %q", text, name)
			}
			if !strings.Contains(text, "@"+name) {
				t.Fatalf("ParseMentions(%q) found %q, not written in the text", text, name)
			}
			if k := strings.ToLower(name); seen[k] {
				t.Fatalf("ParseMentions(%q) found %q twice", text, name)
			} else {
				seen[k] = true
			}
		}
	})
}

// refPart is what an owner or repository name of a reference may hold.
var refPart = regexp.MustCompile(`^[0-9a-zA-Z-_.]+$`)

// FuzzParseRefs parses arbitrary texts for issue references: every
// reference has a positive index written in the text, owner and repository
// both set (or both empty) from name characters, and is found once.
func FuzzParseRefs(f *testing.F) {
	for _, s := range []string{"#1", "fixes #12, #13.", "alice/proj#3", "alice/proj!4", "`#5` #6", "```\n#7\n```\n#8", "(#9) [#10]",
		"#0", "#99999999999999999999", "a/b#1 A/B#1", "x#1", "#1#2", "a/b/c#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		type key struct {
			o, r string
			n    int64
		}
		seen := map[key]bool{}
		for _, ref := range issues.ParseRefs(text) {
			if ref.Index <= 0 || (ref.Owner == "") != (ref.Repo == "") {
				t.Fatalf("ParseRefs(%q) found %+v", text, ref)
			}
			if ref.Owner != "" && (!refPart.MatchString(ref.Owner) || !refPart.MatchString(ref.Repo)) {
				t.Fatalf("ParseRefs(%q) found %+v", text, ref)
			}
			if ref.Owner == "" && !strings.Contains(text, "#") || ref.Owner != "" && !strings.Contains(text, ref.Owner+"/"+ref.Repo) {
				t.Fatalf("ParseRefs(%q) found %+v, not written in the text", text, ref)
			}
			k := key{strings.ToLower(ref.Owner), strings.ToLower(ref.Repo), ref.Index}
			if seen[k] {
				t.Fatalf("ParseRefs(%q) found %+v twice", text, ref)
			}
			seen[k] = true
		}
	})
}
