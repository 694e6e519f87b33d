package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

var sqlAddMention = prepared(`INSERT INTO mention (issue_id, user_id) VALUES (?,?) ON CONFLICT DO NOTHING`)

// AddMentions implements issues.MentionTx.
func (t issueTx) AddMentions(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error {
	if err := t.issueExists(ctx, issueID); err != nil {
		return err
	}
	for _, uid := range userIDs {
		if _, err := t.exec(ctx, sqlAddMention, issueID, uid); err != nil {
			return mapError(err, "mention")
		}
	}
	return nil
}
