package repos

import (
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

var alphaDashDot = regexp.MustCompile(`^[-.\w]+$`)

var reservedRepoNames = map[string]bool{".": true, "..": true, "-": true}

var reservedRepoPatterns = []string{".git", ".wiki", ".rss", ".atom"}

// ValidateName checks a repository name as Forgejo: letters, digits, '-',
// '_' and '.', at most 100 characters, not `.`, `..` or `-`, not ending in
// .git, .wiki, .rss or .atom. Returns forge.ErrInvalid with Forgejo's
// messages.
func ValidateName(name string) error {
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	case len(name) > 100:
		return forge.Errorf(forge.ErrInvalid, "[Name]: MaxSize")
	case !alphaDashDot.MatchString(name):
		return forge.Errorf(forge.ErrInvalid, "[Name]: AlphaDashDot")
	case reservedRepoNames[lower]:
		return forge.Errorf(forge.ErrInvalid, "name is reserved [name: %s]", name)
	}
	for _, p := range reservedRepoPatterns {
		if strings.HasSuffix(lower, p) {
			return forge.Errorf(forge.ErrInvalid, "name pattern is not allowed [pattern: *%s]", p)
		}
	}
	return nil
}

// ValidBranchName reports whether name may be a branch: git's
// check-ref-format rules (Forgejo's GitRefName binding: no control
// characters, space, `~^:?*[\`, `..`, `@{`, `//`, no component starting
// with `.` or ending in `.lock`, no leading or trailing `/` or trailing
// `.`, not `@`) plus git's branch rules (no leading `-`, not `HEAD`) and
// Hearth's: not starting with `refs/` (such names cannot be addressed
// unambiguously), at most 255 bytes. A pure rule.
func ValidBranchName(name string) bool {
	if name == "" || len(name) > 255 || name == "@" || name == "HEAD" ||
		strings.HasPrefix(name, "-") || strings.HasPrefix(name, "refs/") ||
		strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}
