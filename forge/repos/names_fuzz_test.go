package repos_test

import (
	"errors"
	"os/exec"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// FuzzCheckRefName checks arbitrary branch and tag names: an accepted name
// is one git takes as a branch (no "..", "@{", control character, space or
// ~^:?*[\, no empty, dot-led or .lock component, no trailing "."), never
// an option or a full name, git check-ref-format takes it, and
// CheckRevision accepts it and its full forms; ValidBranchName agrees with
// it; a refused one is forge.ErrInvalid.
func FuzzCheckRefName(f *testing.F) {
	for _, s := range []string{"main", "feature/x", "v1.0", "a..b", "a@{1}", "-x", "refs/heads/main", "/a", "a/", "a//b",
		"a.", ".a", "a/.b", "a.lock", "a.lock/b", "HEAD", "@", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`,
		"a\x7f", "é/ü", strings.Repeat("x", 256), "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := repos.CheckRefName(name)
		rerr := repos.CheckRevision(name)
		if rerr != nil && !errors.Is(rerr, forge.ErrInvalid) {
			t.Fatalf("CheckRevision(%q): %v is not ErrInvalid", name, rerr)
		}
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("CheckRefName(%q): %v is not ErrInvalid", name, err)
			}
			if repos.ValidBranchName(name) {
				t.Fatalf("CheckRefName(%q) refuses but ValidBranchName accepts", name)
			}
			return
		}
		if rerr != nil {
			t.Fatalf("CheckRefName(%q) accepts but CheckRevision refuses: %v", name, rerr)
		}
		if !repos.ValidBranchName(name) {
			t.Fatalf("CheckRefName(%q) accepts but ValidBranchName refuses", name)
		}
		if out, err := exec.Command("git", "check-ref-format", "refs/heads/"+name).CombinedOutput(); err != nil {
			t.Fatalf("CheckRefName(%q) accepts a name git refuses: %v %s", name, err, out)
		}
		for _, full := range []string{"refs/heads/" + name, "refs/tags/" + name} {
			if err := repos.CheckRevision(full); err != nil {
				t.Fatalf("CheckRevision(%q): %v", full, err)
			}
		}
		if name == "" || len(name) > repos.MaxRefNameLength || name == "HEAD" || name == "@" ||
			strings.HasPrefix(name, "-") || strings.HasPrefix(name, "refs/") || strings.HasSuffix(name, ".") ||
			strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.ContainsAny(name, " ~^:?*[\\\x7f") {
			t.Fatalf("CheckRefName(%q) accepted a bad name", name)
		}
		for _, c := range []byte(name) {
			if c < 0x20 {
				t.Fatalf("CheckRefName(%q) accepted a control character", name)
			}
		}
		for _, part := range strings.Split(name, "/") {
			if part == "" || strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
				t.Fatalf("CheckRefName(%q) accepted component %q", name, part)
			}
		}
	})
}

// FuzzCleanTreePath cleans arbitrary contents API paths: an accepted path
// comes back relative, slash-separated, clean (cleaning it again changes
// nothing, and storage's CheckCleanPath takes it), valid UTF-8 without
// control characters, within the length limits and without a .git
// component; a refused one is forge.ErrInvalid.
func FuzzCleanTreePath(f *testing.F) {
	for _, s := range []string{"a", "docs/f.md", "x/../docs/f", "./a", "a//b", "/etc/passwd", "../../x", "..", "/", ".",
		".git/config", "a/.GIT/x", "git~1/x", ".git./x", ".git::$INDEX_ALLOCATION/x", ".g\u200cit/x", "a\nb", "a\x00b",
		"\xff", "é/ü.txt", strings.Repeat("a/", 2100), strings.Repeat("n", 256), "a/b/", "a\u0085b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		clean, err := repos.CleanTreePath(p)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("CleanTreePath(%q): %v is not ErrInvalid", p, err)
			}
			if repos.CheckCleanPath(p) == nil {
				t.Fatalf("CheckCleanPath(%q) accepts a path CleanTreePath refuses", p)
			}
			return
		}
		again, err := repos.CleanTreePath(clean)
		if err != nil || again != clean {
			t.Fatalf("CleanTreePath(%q) = %q, which cleans to %q, %v", p, clean, again, err)
		}
		if err := repos.CheckCleanPath(clean); err != nil {
			t.Fatalf("CheckCleanPath(%q) (from %q): %v", clean, p, err)
		}
		if (repos.CheckCleanPath(p) == nil) != (p == clean) {
			t.Fatalf("CheckCleanPath(%q) disagrees with CleanTreePath = %q", p, clean)
		}
		if clean == "" || path.Clean(clean) != clean || strings.HasPrefix(clean, "/") || clean == ".." ||
			strings.HasPrefix(clean, "../") || !utf8.ValidString(clean) || len(clean) > repos.MaxTreePathBytes {
			t.Fatalf("CleanTreePath(%q) = %q, not a clean relative path", p, clean)
		}
		for _, r := range clean {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("CleanTreePath(%q) = %q holds a control character", p, clean)
			}
		}
		for _, part := range strings.Split(clean, "/") {
			if strings.EqualFold(part, ".git") || len(part) > repos.MaxTreeNameBytes {
				t.Fatalf("CleanTreePath(%q) = %q holds component %q", p, clean, part)
			}
		}
	})
}

// FuzzCheckSignature checks arbitrary author identities: an accepted one
// holds nothing git would strip or refuse.
func FuzzCheckSignature(f *testing.F) {
	f.Add("Alice", "alice@example.com")
	f.Add("", "")
	f.Add("a<b", "x")
	f.Add("...", "x@y")
	f.Add("A\nB", "a@b")
	f.Fuzz(func(t *testing.T, name, email string) {
		err := repos.CheckSignature("author", repos.Signature{Name: name, Email: email})
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("CheckSignature(%q, %q): %v is not ErrInvalid", name, email, err)
			}
			return
		}
		if strings.ContainsAny(name+email, "<>\n\r\x00") || !utf8.ValidString(name) || !utf8.ValidString(email) {
			t.Fatalf("CheckSignature(%q, %q) accepted", name, email)
		}
	})
}

// FuzzValidateName checks arbitrary repository names: an accepted name is
// 1 to 100 letters, digits, '-', '_' and '.', not "." or ".." and not
// ending in .git; a refused one is forge.ErrInvalid.
func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"proj", "a.b-c_d", ".", "..", "-", "x.git", "X.GIT", "x.wiki", "a b", "é", strings.Repeat("r", 101), ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := repos.ValidateName(name)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ValidateName(%q): %v is not ErrInvalid", name, err)
			}
			return
		}
		if name == "" || len(name) > 100 || name == "." || name == ".." || strings.HasSuffix(strings.ToLower(name), ".git") {
			t.Fatalf("ValidateName(%q) accepted", name)
		}
		for _, c := range []byte(name) {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.') {
				t.Fatalf("ValidateName(%q) accepted byte %q", name, c)
			}
		}
	})
}
