package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// DropBlocked implements orgs.Tx.
func (t orgTx) DropBlocked(ctx context.Context, ownerID, userID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	owned := func(k pair) bool { return k.user == userID && t.st.repos[k.repo].OwnerID == ownerID }
	for k := range t.st.collabs {
		if owned(k) {
			delete(t.st.collabs, k)
		}
	}
	for k := range t.st.watches {
		if owned(k) {
			delete(t.st.watches, k)
			t.st.recountWatches(k.repo)
		}
	}
	for id, tr := range t.st.transfers {
		if tr.doer == userID && tr.recipient == ownerID {
			delete(t.st.transfers, id)
		}
	}
	return nil
}
