package main

import "strings"

// splitList splits a comma-separated flag value, dropping blanks (an
// empty value is no item), as Forgejo reads [quota] DEFAULT_GROUPS.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
