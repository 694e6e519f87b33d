package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge"
)

// oauthAppTx implements oauthapps.Tx over one memstore transaction.
type oauthAppTx struct{ *tx }

var _ oauthapps.Tx = oauthAppTx{}

// OAuthApps returns the store package auth/oauthapps consumes.
func (s *Store) OAuthApps() oauthapps.Store {
	return storeOf(s, func(t *tx) oauthapps.Tx { return oauthAppTx{t} })
}

// live reports whether a's user still exists (a deleted user's
// applications go with it, as the SQL stores' cascade).
func (t oauthAppTx) live(a oauthapps.App) bool {
	_, ok := t.st.users[a.UserID]
	return ok
}

// copyApp returns a copy of a that shares no slice with it.
func copyApp(a oauthapps.App) *oauthapps.App {
	a.RedirectURIs = slices.Clone(a.RedirectURIs)
	a.Secret = ""
	return &a
}

func (t oauthAppTx) CreateApp(ctx context.Context, a *oauthapps.App) error {
	if err := writeRef(ctx, t, t.st.users, a.UserID, "oauth2 application user"); err != nil {
		return err
	}
	if err := conflictIf(t.st.oauthApps, func(o oauthapps.App) bool { return o.ClientID == a.ClientID }, "oauth2 application"); err != nil {
		return err
	}
	c := *copyApp(*a)
	c.ID = t.st.nextID("oauth2_application")
	c.Created, c.Updated = ts(c.Created), ts(c.Updated)
	t.st.oauthApps[c.ID] = c
	a.ID = c.ID
	return nil
}

func (t oauthAppTx) UpdateApp(ctx context.Context, a *oauthapps.App) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	o, ok := t.st.oauthApps[a.ID]
	if !ok || !t.live(o) {
		return notFound("oauth2 application")
	}
	o.Name, o.RedirectURIs, o.Confidential = a.Name, slices.Clone(a.RedirectURIs), a.Confidential
	o.SecretHash, o.Updated = a.SecretHash, ts(a.Updated)
	t.st.oauthApps[a.ID] = o
	return nil
}

func (t oauthAppTx) AppByID(ctx context.Context, id forge.ID) (*oauthapps.App, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	o, ok := t.st.oauthApps[id]
	if !ok || !t.live(o) {
		return nil, notFound("oauth2 application")
	}
	return copyApp(o), nil
}

func (t oauthAppTx) AppByClientID(ctx context.Context, clientID string) (*oauthapps.App, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, o := range t.st.oauthApps {
		if o.ClientID == clientID && t.live(o) {
			return copyApp(o), nil
		}
	}
	return nil, notFound("oauth2 application")
}

func (t oauthAppTx) ListApps(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*oauthapps.App, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var list []oauthapps.App
	for _, a := range t.st.oauthApps {
		if a.UserID == userID && t.live(a) {
			list = append(list, a)
		}
	}
	slices.SortFunc(list, func(a, b oauthapps.App) int { return cmp.Compare(a.ID, b.ID) })
	page := forge.Page(list, o)
	out := make([]*oauthapps.App, len(page))
	for i, a := range page {
		out[i] = copyApp(a)
	}
	return out, int64(len(list)), nil
}

func (t oauthAppTx) DeleteApp(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	o, ok := t.st.oauthApps[id]
	if !ok || !t.live(o) {
		return notFound("oauth2 application")
	}
	delete(t.st.oauthApps, id)
	return nil
}
