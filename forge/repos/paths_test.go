package repos_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestCleanTreePath(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in, want string
	}{
		{"a", "a"},
		{"docs/guide.md", "docs/guide.md"},
		{"docs/", "docs"},
		{"-n", "-n"},
		{"a b/ünï.txt", "a b/ünï.txt"},
		{".gitignore", ".gitignore"},
		{"a/.github/x", "a/.github/x"},
		{"...", "..."},
		{strings.Repeat("a", 255), strings.Repeat("a", 255)},
		// Cleaned as Forgejo's CleanUploadFileName (util.PathJoinRel).
		{"/etc/passwd", "etc/passwd"},
		{"x/../docs/f", "docs/f"},
		{"./a", "a"},
		{"a/./b", "a/b"},
		{"a//b", "a/b"},
		{"../../a", "a"},
		{"a/../../b", "b"},
		{"docs//", "docs"},
		{"x/../.gitignore", ".gitignore"},
		{".git/../a", "a"}, // Forgejo checks .git after cleaning
		// Refused: nothing left, or .git after cleaning.
		{"", ""},
		{"/", ""},
		{"..", ""},
		{"a/..", ""},
		{".", ""},
		{"./", ""},
		{".git", ""},
		{".git/config", ""},
		{"a/.GIT/hooks/x", ""},
		{"x/../.git/config", ""},
		{"a/./.git/hooks/x", ""},
		{"git~1/x", ""},
		{".git. /x", ""},
		{"a/.git\u200c/x", ""},
		{"a\nb", ""},
		{"a\rb", ""},
		{"a\x00b", ""},
		{"a\tb", ""},
		{"a\x7fb", ""},
		{"a\u0085b", ""},
		{"\xff", ""},
		{strings.Repeat("a", 256), ""},
		{strings.Repeat("abcdefgh/", 600), ""},
	} {
		got, err := repos.CleanTreePath(tt.in)
		if tt.want == "" {
			assert.ErrorIs(t, err, forge.ErrInvalid, "%q", tt.in)
			assert.ErrorContains(t, err, "path contains a malformed path component [path: "+tt.in+"]")
			continue
		}
		assert.NoError(t, err, "%q", tt.in)
		assert.Equal(t, tt.want, got)
	}
}

func TestCheckSignature(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, email string
		ok          bool
	}{
		{"Ann", "ann@example.com", true},
		{"", "", true},
		{"-n", "-o@example.com", true},
		{"Ann <x>", "a@example.com", false},
		{"Ann", "<a@example.com>", false},
		{"Ann\nB", "a@example.com", false},
		{"Ann", "a@example.com\n", false},
		{"Ann\x00", "a", false},
		{"...", "a@example.com", false},
	} {
		err := repos.CheckSignature("author", repos.Signature{Name: tt.name, Email: tt.email})
		if tt.ok {
			assert.NoError(t, err, "%q %q", tt.name, tt.email)
		} else {
			assert.ErrorIs(t, err, forge.ErrInvalid, "%q %q", tt.name, tt.email)
		}
	}
}

// TestCheckCleanPath: storage accepts a path only as CleanTreePath leaves it.
func TestCheckCleanPath(t *testing.T) {
	t.Parallel()
	for p, ok := range map[string]bool{"a/b": true, "README.md": true, "a//b": false, "x/../y": false, "./a": false, ".git/config": false, "": false} {
		if err := repos.CheckCleanPath(p); (err == nil) != ok {
			t.Errorf("CheckCleanPath(%q) = %v, want ok %v", p, err, ok)
		}
	}
}
