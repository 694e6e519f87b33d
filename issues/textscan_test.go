package issues

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference implementation of the text scanners: Forgejo's
// modules/references patterns, applied as simply as possible (each
// regular expression from every start, the matches ordered by position).
// It is slow on long texts and serves only as the expected value on small
// ones.
var (
	refLocalPattern   = regexp.MustCompile(`(?:\s|^|\(|\[)#([0-9]+)(?:\s|$|\)|\]|[:;,.?!]\s|[:;,.?!]$)`)
	refCrossPattern   = regexp.MustCompile(`(?:\s|^|\(|\[)([0-9a-zA-Z-_\.]+)/([0-9a-zA-Z-_\.]+)[#!]([0-9]+)(?:\s|$|\)|\]|[:;,.?!]\s|[:;,.?!]$)`)
	refMentionPattern = regexp.MustCompile(`(?:\s|^|\(|\[)(@[-\w][-.\w]*?|@[-\w][-.\w]*?/[-\w][-.\w]*?)(?:\s|$|[:,;.?!](?:\s|$)|'|\)|\])`)
	refFencePattern   = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
)

func refBlankCode(text string) string {
	return refFencePattern.ReplaceAllStringFunc(text, func(s string) string { return strings.Repeat(" ", len(s)) })
}

// refMatches returns the submatch indexes of every match of re in text,
// a match consuming what it matched up to the end of group g only (the
// separator after a reference may start the next one).
func refMatches(re *regexp.Regexp, text string, g int) [][]int {
	var out [][]int
	for i := 0; i < len(text); {
		m := re.FindStringSubmatchIndex(text[i:])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		out = append(out, m)
		i = m[2*g+1]
	}
	return out
}

// wantRefs is the reference implementation of parseRefs without a cap.
func wantRefs(text string) []IssueRef {
	text = refBlankCode(text)
	type pos struct {
		at  int
		ref IssueRef
	}
	var found []pos
	for _, m := range refMatches(refLocalPattern, text, 1) {
		if n, err := strconv.ParseInt(text[m[2]:m[3]], 10, 64); err == nil && n > 0 {
			found = append(found, pos{m[2], IssueRef{Index: n}})
		}
	}
	for _, m := range refMatches(refCrossPattern, text, 3) {
		if n, err := strconv.ParseInt(text[m[6]:m[7]], 10, 64); err == nil && n > 0 {
			found = append(found, pos{m[2], IssueRef{Owner: text[m[2]:m[3]], Repo: text[m[4]:m[5]], Index: n}})
		}
	}
	slices.SortStableFunc(found, func(a, b pos) int { return a.at - b.at })
	var out []IssueRef
	seen := map[IssueRef]bool{}
	for _, f := range found {
		k := IssueRef{Owner: strings.ToLower(f.ref.Owner), Repo: strings.ToLower(f.ref.Repo), Index: f.ref.Index}
		if !seen[k] {
			seen[k] = true
			out = append(out, f.ref)
		}
	}
	return out
}

// wantMentions is the reference implementation of scanMentions without
// a cap: every distinct mention in order.
func wantMentions(text string) []string {
	text = refBlankCode(text)
	var out []string
	seen := map[string]bool{}
	for _, m := range refMatches(refMentionPattern, text, 1) {
		name := text[m[2]+1 : m[3]]
		if k := strings.ToLower(name); !seen[k] {
			seen[k] = true
			out = append(out, name)
		}
	}
	return out
}

// checkScanners compares the scanners with the reference implementation
// on text.
func checkScanners(t *testing.T, text string) {
	t.Helper()
	if got, want := blankCode(text), refBlankCode(text); got != want {
		t.Fatalf("blankCode(%q) = %q, want %q", text, got, want)
	}
	want := wantRefs(text)
	if len(want) > DefaultMaxTextRefs {
		want = want[:DefaultMaxTextRefs]
	}
	if got := ParseRefs(text); !slices.Equal(got, want) {
		t.Fatalf("ParseRefs(%q) = %v, want %v", text, got, want)
	}
	mentions := wantMentions(text)
	if len(mentions) > DefaultMaxTextMentions {
		mentions = mentions[:DefaultMaxTextMentions]
	}
	var users, teams []string
	for _, m := range mentions {
		if strings.Contains(m, "/") {
			teams = append(teams, m)
		} else {
			users = append(users, m)
		}
	}
	gotUsers, gotTeams := scanMentions(text, DefaultMaxTextMentions)
	if !slices.Equal(gotUsers, users) || !slices.Equal(gotTeams, teams) {
		t.Fatalf("scanMentions(%q) = %q, %q, want %q, %q", text, gotUsers, gotTeams, users, teams)
	}
}

// scanSeeds are texts at the edges of the patterns.
var scanSeeds = []string{
	"", "#1", "#0", "#01 #1", "#1#2", "#1 #2 #1", "(#4) [#5]", "#1. #2, #3:", "#1.#2", "#1.", "a#1 #x #12abc",
	"fixes ann/proj#7!", "ann/proj!2", "a/b#1.c/d#2 ", "a/b/c#1", "./.#3", "-/_#4", "x/y#99999999999999999999",
	"http://x/#9", "`#1` and\n```\n#2\n```\n#3", "```", "````` #1", "``````#1", "```a``#1", "`a\n`#2 `", "`#1",
	"@alice", "hi @alice and @bob.", "@alice's idea", "@a.b-c_d", "@alice. end", "@alice.", "@a.. x", "@a./b",
	"@acme/devs, @acme/ops and @bob.", "@acme/", "@acme/devs/x @y", "mail me@example.com", "@-dash", "@alice#1",
	"@.x", "@a!", "@a!b", "(@a) [@b]", "@Alice @alice @ALICE", "@a/b.", "@a/b. @c/d.e", "\v#1 \v@a", "é#1 é @a",
	"#1\xff #2", "@a\xff @b", "[x/y#1]", "(x/y!2)", "#1 x/y#1 #1 x/y#1",
}

func FuzzTextScanners(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 { // the reference implementation is slow
			return
		}
		checkScanners(t, text)
	})
}

// TestTextScanMatchesPatterns compares the scanners with the reference
// implementation on many random texts built from the characters that
// matter to the patterns (a fixed seed: the same texts on every run).
func TestTextScanMatchesPatterns(t *testing.T) {
	t.Parallel()
	for _, s := range scanSeeds {
		checkScanners(t, s)
	}
	pieces := []string{"#", "!", "@", "/", "1", "0", "9", "a", "Z", "_", "-", ".", ",", ":", ";", "?", "'", " ", "\n",
		"\t", "\v", "(", ")", "[", "]", "`", "```", "x/y", "#1", "@a", "é", "\xff"}
	rnd := rand.New(rand.NewPCG(24, 4))
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		for n := rnd.IntN(24); n >= 0; n-- {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		checkScanners(t, b.String())
	}
	// Over the caps: the first ones in order.
	var many strings.Builder
	for i := 1; i <= 3*DefaultMaxTextRefs; i++ {
		fmt.Fprintf(&many, "#%d x/y#%d @u%d @o/t%d ", i, i, i, i)
	}
	checkScanners(t, many.String())
}

// TestTextScanCaps: a text with more references and mentions than the
// caps yields the first DefaultMaxTextRefs and DefaultMaxTextMentions, in order.
func TestTextScanCaps(t *testing.T) {
	t.Parallel()
	require.Equal(t, 100, DefaultMaxTextRefs, "the documented cap")
	require.Equal(t, 50, DefaultMaxTextMentions, "the documented cap")
	var b strings.Builder
	for i := 1; i <= 2*DefaultMaxTextRefs; i++ {
		fmt.Fprintf(&b, "#%d @user%d ", i, i)
	}
	refs := ParseRefs(b.String())
	require.Len(t, refs, DefaultMaxTextRefs)
	assert.Equal(t, IssueRef{Index: 1}, refs[0])
	assert.Equal(t, IssueRef{Index: DefaultMaxTextRefs}, refs[DefaultMaxTextRefs-1])
	users := ParseMentions(b.String())
	require.Len(t, users, DefaultMaxTextMentions)
	assert.Equal(t, "user1", users[0])
	assert.Equal(t, fmt.Sprintf("user%d", DefaultMaxTextMentions), users[DefaultMaxTextMentions-1])
}

// BenchmarkParseMaximalBody parses the largest body the API accepts
// (1 MiB, httpapi.DefaultMaxBodyBytes): the same two references repeated
// (the cap is never reached: the whole body is read), the same mention
// repeated (likewise), and distinct mentions (the scan stops at the cap).
func BenchmarkParseMaximalBody(b *testing.B) {
	var m strings.Builder
	for i := 0; m.Len() < 1<<20; i++ {
		fmt.Fprintf(&m, "@user%d ", i)
	}
	for _, bc := range []struct {
		name, text string
		parse      func(string)
	}{
		{"refs", strings.Repeat("#1 x/y#1 ", (1<<20)/9), func(s string) { ParseRefs(s) }},
		{"same-mention", strings.Repeat("@alice ", (1<<20)/7), func(s string) { scanMentions(s, DefaultMaxTextMentions) }},
		{"distinct-mentions", m.String(), func(s string) { scanMentions(s, DefaultMaxTextMentions) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				bc.parse(bc.text)
			}
		})
	}
}
