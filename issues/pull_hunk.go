package issues

import (
	"fmt"
	"strconv"
	"strings"
)

// CodeCommentLines is Forgejo's [ui] CODE_COMMENT_LINES: how many lines
// before the commented one a code comment's diff hunk keeps.
const CodeCommentLines = 4

// FileDiff returns the part of a multi-file unified diff (git diff -p)
// about path ("" if the diff does not touch it).
func FileDiff(diff, path string) string {
	var out []string
	in := false
	for _, l := range strings.SplitAfter(diff, "\n") {
		if strings.HasPrefix(l, "diff --git ") {
			if in {
				break
			}
			in = strings.HasSuffix(strings.TrimRight(l, "\n"), " b/"+path)
		}
		if in {
			out = append(out, l)
		}
	}
	return strings.TrimRight(strings.Join(out, ""), "\n")
}

// CutDiffAroundLine is Forgejo's git.CutDiffAroundLine over the diff of
// one file: its headers and the hunk holding line (of the old file when
// old, else of the new one) up to that line, keeping the line and the n
// lines before it, with the hunk header recomputed. "" when no hunk holds
// the line.
func CutDiffAroundLine(fileDiff string, line int64, old bool, n int) string {
	if line <= 0 || n <= 0 {
		return ""
	}
	lines := strings.Split(fileDiff, "\n")
	var headers, hunk []string
	k := 0
	for ; k < len(lines) && !strings.HasPrefix(lines[k], "@@"); k++ {
		headers = append(headers, lines[k])
	}
	found := false
	var oldAt, newAt int64
	for ; k < len(lines) && !found; k++ {
		l := lines[k]
		if strings.HasPrefix(l, "@@") {
			ob, nb, ok := hunkStarts(l)
			if !ok {
				return ""
			}
			oldAt, newAt, hunk = ob, nb, nil
			continue
		}
		if l == "" || l[0] == '\\' {
			continue
		}
		hunk = append(hunk, l)
		switch l[0] {
		case '+':
			found = !old && newAt == line
			newAt++
		case '-':
			found = old && oldAt == line
			oldAt++
		default:
			found = (old && oldAt == line) || (!old && newAt == line)
			oldAt++
			newAt++
		}
	}
	if !found {
		return ""
	}
	if len(hunk) > n+1 {
		hunk = hunk[len(hunk)-n-1:]
	}
	// oldAt and newAt are past the last kept line: count back.
	var oldN, newN int64
	for _, l := range hunk {
		switch l[0] {
		case '+':
			newN++
		case '-':
			oldN++
		default:
			oldN++
			newN++
		}
	}
	header := fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldAt-oldN, oldN, newAt-newN, newN)
	return strings.Join(append(append(headers, header), hunk...), "\n")
}

// hunkStarts reads the old and new start lines of a hunk header
// "@@ -a[,b] +c[,d] @@".
func hunkStarts(h string) (int64, int64, bool) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	num := func(s string) (int64, bool) {
		s, _, _ = strings.Cut(s[1:], ",")
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	a, ok1 := num(f[1])
	b, ok2 := num(f[2])
	return a, b, ok1 && ok2
}
