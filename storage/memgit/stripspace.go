package memgit

import "strings"

// stripspace is git's default message cleanup for `git tag -a -m` (and
// `git commit`'s "strip" mode), strbuf_stripspace with comments skipped:
// lines starting with '#' are dropped, trailing whitespace is removed from
// every line, runs of blank lines become one, blank lines at either end go,
// and every remaining line ends with a newline. memgit's tag objects must
// be the ones git writes.
func stripspace(msg string) string {
	var b strings.Builder
	empties := 0
	for len(msg) > 0 {
		line := msg
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			line, msg = msg[:i+1], msg[i+1:]
		} else {
			msg = ""
		}
		if line[0] == '#' {
			continue
		}
		line = strings.TrimRight(line, " \t\n\r") // git's isspace: no \v, \f
		if line == "" {
			empties++
			continue
		}
		if empties > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		empties = 0
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
