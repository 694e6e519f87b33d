package postgres

import (
	"regexp"
	"strconv"
	"strings"
)

// rebind turns a statement written for SQLite's placeholders into
// PostgreSQL's: `?N` becomes `$N`, and a bare `?` becomes `$k` where k is
// one more than the largest number used before it (SQLite's rule, so that
// `?` alone counts 1, 2, 3…). Text in single quotes, double-quoted
// identifiers and `--` comments is left alone. It is the dialect shim the
// shared store SQL will go through (see the package comment).
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	last := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // doubled quote inside
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(q))
			b.WriteString(q[i:end])
			i = end - 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := last + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			last = max(last, n)
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// jsonEach matches SQLite's json_each over a list parameter, which the
// store code uses to pass a Go list as one JSON argument.
var jsonEach = regexp.MustCompile(`json_each\((\?[0-9]*)\)`)

// translate is the dialect's Rebind: a statement of the shared store code,
// written in SQLite's spelling, as PostgreSQL runs it. Besides the
// placeholders (rebind), two functions differ: json_each(?) over a JSON
// array becomes json_array_elements_text, whose text `value` the store
// code casts where it wants a number (CAST(value AS BIGINT), valid on both
// engines), and json_group_array becomes json_agg.
func translate(q string) string {
	if strings.Contains(q, "json_") {
		q = jsonEach.ReplaceAllString(q, "json_array_elements_text(CAST($1 AS json))")
		q = strings.ReplaceAll(q, "json_group_array(", "json_agg(")
	}
	return rebind(q)
}
