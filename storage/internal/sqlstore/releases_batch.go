package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// sqlAttachmentsOf reads the attachments of many releases in one
// statement (the ids as one JSON array, as the other batch reads).
var sqlAttachmentsOf = prepared("SELECT " + attachmentCols +
	" FROM attachment WHERE release_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY id")

func (t *tx) AttachmentsOf(ctx context.Context, releaseIDs []forge.ID) (map[forge.ID][]*repos.Attachment, error) {
	out := map[forge.ID][]*repos.Attachment{}
	if len(releaseIDs) == 0 {
		return out, nil
	}
	list, err := t.scanAttachments(ctx, sqlAttachmentsOf, idList(releaseIDs))
	if err != nil {
		return nil, err
	}
	for _, a := range list {
		out[a.ReleaseID] = append(out[a.ReleaseID], a)
	}
	return out, nil
}
