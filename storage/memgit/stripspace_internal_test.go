package memgit

import "testing"

// stripspace is git's strbuf_stripspace with comments skipped; the ids
// test (sameids_test.go) checks it against git itself.
func TestStripspace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"one", "one\n"},
		{"one\n", "one\n"},
		{"\n\n one \n\n\n two\t\n\n", " one\n\n two\n"},
		{"#comment\nkept # not\n#", "kept # not\n"},
		{" #indented is no comment\n", " #indented is no comment\n"},
		{"a\r\n\r\nb", "a\n\nb\n"},
		{"\n \t\n", ""},
	} {
		if got := stripspace(tc.in); got != tc.want {
			t.Errorf("stripspace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
