package repos_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// The expected names are Forgejo's (services/wiki/wiki_test.go).
func TestWikiNames(t *testing.T) {
	t.Parallel()
	for title, want := range map[string]string{
		"": "unnamed", ".": "unnamed", "..": "unnamed", "wiki name": "wiki-name", "title.md": "title.md.-",
		"wiki-name": "wiki-name.-", "the wiki-name": "the+wiki-name.-", "a/b": "a%2Fb", "a%b": "a%25b",
	} {
		assert.Equal(t, want, repos.WikiTitleToWebPath(title), "title %q", title)
	}
	for web, want := range map[string]string{
		"wiki-name": "wiki name", "wiki-name.-": "wiki-name", "name-with %2F slash": "name with / slash",
		"name-with %25 percent": "name with % percent", "2000-01-02+meeting.-.md": "2000-01-02 meeting", "a%20b.md": "a b",
	} {
		assert.Equal(t, want, repos.WikiTitle(web), "web path %q", web)
	}
	for web, want := range map[string]string{
		"wiki%20name": "wiki-name.md", "wiki+name": "wiki-name.md", "wiki%20name.md": "wiki name.md",
		"wiki%2520name.md": "wiki%20name.md", "2000-01-02+meeting": "2000-01-02-meeting.md",
		"2000-01-02%20meeting.-": "2000-01-02 meeting.-.md",
	} {
		assert.Equal(t, want, repos.WikiGitPath(web), "web path %q", web)
	}
	for file, want := range map[string]string{
		"hello-world.md": "hello-world", "hello world.md": "hello-world", "hello-world.-.md": "hello-world.-",
		"hello world.-.md": "hello+world.-", "symbols %2F.md": "symbols-%2F",
	} {
		got, ok := repos.WikiWebPath(file)
		assert.True(t, ok, file)
		assert.Equal(t, want, got, "file %q", file)
	}
	for _, bad := range []string{"nofileextension", "wrongfileextension.txt", "badescaping%%.md"} {
		_, ok := repos.WikiWebPath(bad)
		assert.False(t, ok, bad)
	}
	assert.Equal(t, "a%2Fb", repos.WikiWebPathFromRequest("a/b"))
	assert.Equal(t, "b", repos.WikiWebPathFromRequest("a/../b"))
	assert.Equal(t, "x", repos.WikiWebPathFromRequest("../../x"))
}

// FuzzWikiTitle: whatever a title, its page is one file at the wiki's
// root that the tree accepts as written (or, too long a name, refuses as
// invalid input), and its names go round
// (Forgejo's TestUserWebGitPathConsistency).
func FuzzWikiTitle(f *testing.F) {
	for _, s := range []string{"Home", "a/b", "../../etc/passwd", "x/../..", "2000-01-02 meeting", "100% Free", "title.md", `a\b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		if !utf8.ValidString(title) || strings.ContainsAny(title, "\x00\r\n") {
			return
		}
		web := repos.WikiTitleToWebPath(title)
		git := repos.WikiGitPath(web)
		if strings.Contains(git, "/") {
			t.Fatalf("title %q: file %q is not at the root", title, git)
		}
		clean, err := repos.CleanTreePath(git)
		if err != nil {
			// Too long a name: the write is refused (400), never
			// written elsewhere.
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("title %q: file %q refused with %v", title, git, err)
			}
			return
		}
		if clean != git {
			t.Fatalf("title %q: file %q cleans to %q", title, git, clean)
		}
		trimmed := strings.TrimSpace(title)
		if trimmed == "" || trimmed == "." || trimmed == ".." || strings.ContainsRune(title, '\\') {
			return
		}
		web1, ok := repos.WikiWebPath(git)
		if !ok {
			t.Fatalf("title %q: file %q is no page", title, git)
		}
		if web1 != web || repos.WikiGitPath(web1) != git {
			t.Fatalf("title %q: web %q -> file %q -> web %q", title, web, git, web1)
		}
	})
}
