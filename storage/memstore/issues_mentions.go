package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// mentionKey is one recorded mention: an issue mentions a user.
type mentionKey struct{ issue, user forge.ID }

// AddMentions implements issues.MentionTx.
func (t issueTx) AddMentions(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	if err := writeRef(ctx, t, t.st.issues, issueID, "add mentions: issue"); err != nil {
		return err
	}
	for _, u := range userIDs {
		if _, ok := t.st.users[u]; !ok {
			return missingRef("add mentions: user")
		}
	}
	for _, u := range userIDs {
		t.st.mentions[mentionKey{issueID, u}] = true
	}
	return nil
}

// forgetMentions drops the mentions of an issue (issue != 0) or of a user
// (user != 0), as the SQL schema's cascades do.
func (s *state) forgetMentions(issue, user forge.ID) {
	for k := range s.mentions {
		if issue != 0 && k.issue == issue || user != 0 && k.user == user {
			delete(s.mentions, k)
		}
	}
}
