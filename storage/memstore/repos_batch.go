package memstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func (t *tx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]*forge.User, len(ids))
	for _, id := range ids {
		if r, ok := t.st.users[id]; ok {
			u := r.u
			out[id] = &u
		}
	}
	return out, nil
}

func (t *tx) ReposByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Repository, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := make(map[forge.ID]*forge.Repository, len(ids))
	for _, id := range ids {
		if r, ok := t.st.repos[id]; ok {
			out[id] = outRepo(r)
		}
	}
	return out, nil
}

func (t *tx) CollaboratorModes(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID]forge.AccessMode, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]forge.AccessMode{}
	for _, id := range repoIDs {
		if m, ok := t.st.collabs[pair{id, userID}]; ok {
			out[id] = m
		}
	}
	return out, nil
}

func (t *tx) Transfers(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*repos.Transfer, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := map[forge.ID]*repos.Transfer{}
	for _, id := range repoIDs {
		if tr, ok := t.st.transfers[id]; ok {
			out[id] = tr.transfer(id, t.st.teams)
		}
	}
	return out, nil
}
