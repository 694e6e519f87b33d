package packages_test

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/packages"
)

// FuzzGenericNames checks the generic registry's name, file-name and
// version rules on arbitrary text (they come from the upload URL): never a
// panic, and an accepted name or file name can never walk a path: no
// separator, no NUL, not "." or "..", no surrounding space.
func FuzzGenericNames(f *testing.F) {
	for _, s := range [][3]string{
		{"tool", "tool-1.0.tar.gz", "1.0.0"}, {"..", "..", " 1"}, {".", ".", ""}, {"a/b", "a/b", "1/2"}, {"_", "x\\y", "v\t"},
		{"é", "file (1) [x].zip", "1.0+build"}, {"-", " lead", "trail "}, {"a\x00b", "nul\x00", "\x00"}, {"..a", "...", "∞"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, name, file, version string) {
		bad := func(s string) bool {
			return strings.ContainsAny(s, "/\\\x00") || s == "." || s == ".." || strings.TrimSpace(s) != s || s == ""
		}
		if packages.ValidGenericName(name) && bad(name) {
			t.Fatalf("ValidGenericName accepted %q", name)
		}
		if packages.ValidGenericFilename(file) && bad(file) {
			t.Fatalf("ValidGenericFilename accepted %q", file)
		}
		if packages.ValidGenericVersion(version) && (version == "" || strings.TrimSpace(version) != version) {
			t.Fatalf("ValidGenericVersion accepted %q", version)
		}
	})
}
