package memstore

import (
	"strings"

	"github.com/hearthforge/hearth/forge"

	"github.com/hearthforge/hearth/issues"
)

// commentMatches reports whether a plain comment of the issue contains
// the lower-cased keyword k, ignoring case (Forgejo's issue indexer
// matches comments as well as the title and the content).
func (s *state) commentMatches(issueID forge.ID, k string) bool {
	for _, c := range s.comments {
		if c.IssueID == issueID && c.Type == issues.CommentPlain && strings.Contains(strings.ToLower(c.Body), k) {
			return true
		}
	}
	return false
}
