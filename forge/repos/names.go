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
