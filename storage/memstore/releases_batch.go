package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func (t *tx) AttachmentsOf(ctx context.Context, releaseIDs []forge.ID) (map[forge.ID][]*repos.Attachment, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID][]*repos.Attachment{}
	want := make(map[forge.ID]bool, len(releaseIDs))
	for _, id := range releaseIDs {
		want[id] = true
	}
	for _, a := range t.st.attachments {
		if want[a.ReleaseID] {
			out[a.ReleaseID] = append(out[a.ReleaseID], &a)
		}
	}
	for _, list := range out {
		slices.SortFunc(list, func(a, b *repos.Attachment) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out, nil
}
