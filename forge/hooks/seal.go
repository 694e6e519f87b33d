package hooks

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// sealedStore seals what hooks keep secret (Secret, AuthorizationHeader)
// before the store sees it and opens it on the way back
// (Config.SecretKey), so that storage holds only forge.Seal's text.
type sealedStore struct {
	Store
	key []byte
}

func (s sealedStore) Update(ctx context.Context, fn func(Tx) error) error {
	return s.Store.Update(ctx, func(tx Tx) error { return fn(sealedTx{tx, s.key}) })
}

func (s sealedStore) View(ctx context.Context, fn func(Tx) error) error {
	return s.Store.View(ctx, func(tx Tx) error { return fn(sealedTx{tx, s.key}) })
}

type sealedTx struct {
	Tx
	key []byte
}

// seal returns a copy of h with its secrets sealed.
func (t sealedTx) seal(h *Hook) (*Hook, error) {
	c := h.Clone()
	for _, f := range []*string{&c.Secret, &c.AuthorizationHeader} {
		if *f == "" {
			continue
		}
		s, err := forge.Seal(t.key, []byte(*f))
		if err != nil {
			return nil, err
		}
		*f = s
	}
	return c, nil
}

// open opens h's secrets in place.
func (t sealedTx) open(h *Hook) error {
	for _, f := range []*string{&h.Secret, &h.AuthorizationHeader} {
		if *f == "" {
			continue
		}
		p, err := forge.Unseal(t.key, *f)
		if err != nil {
			return err
		}
		*f = string(p)
	}
	return nil
}

func (t sealedTx) CreateHook(ctx context.Context, h *Hook) error {
	c, err := t.seal(h)
	if err != nil {
		return err
	}
	if err := t.Tx.CreateHook(ctx, c); err != nil {
		return err
	}
	h.ID = c.ID
	return nil
}

func (t sealedTx) UpdateHook(ctx context.Context, h *Hook) error {
	c, err := t.seal(h)
	if err != nil {
		return err
	}
	return t.Tx.UpdateHook(ctx, c)
}

func (t sealedTx) Hook(ctx context.Context, id forge.ID) (*Hook, error) {
	h, err := t.Tx.Hook(ctx, id)
	if err != nil {
		return nil, err
	}
	return h, t.open(h)
}

func (t sealedTx) ListHooks(ctx context.Context, f Filter, o forge.ListOptions) ([]*Hook, int64, error) {
	list, n, err := t.Tx.ListHooks(ctx, f, o)
	if err != nil {
		return nil, 0, err
	}
	for _, h := range list {
		if err := t.open(h); err != nil {
			return nil, 0, err
		}
	}
	return list, n, nil
}
