package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// gpgKeyTx implements gpgkeys.Tx over one memstore transaction.
type gpgKeyTx struct{ *tx }

var _ gpgkeys.Tx = gpgKeyTx{}

// GPGKeys returns the store package forge/gpgkeys consumes.
func (s *Store) GPGKeys() gpgkeys.Store {
	return storeOf(s, func(t *tx) gpgkeys.Tx { return gpgKeyTx{t} })
}

// live reports whether a key's owner still exists: the SQL schema deletes
// the keys with the user (ON DELETE CASCADE); memstore leaves the rows and
// treats them as gone.
func (t gpgKeyTx) live(k gpgkeys.Key) bool {
	_, ok := t.st.users[k.OwnerID]
	return ok
}

func (t gpgKeyTx) KeyIDUsed(ctx context.Context, keyID string) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	return conflictIf(t.st.gpgKeys, func(k gpgkeys.Key) bool { return t.live(k) && k.KeyID == keyID }, "gpg key") != nil, nil
}

func (t gpgKeyTx) CreateKey(ctx context.Context, k *gpgkeys.Key) error {
	if err := writeRef(ctx, t, t.st.users, k.OwnerID, "gpg key owner"); err != nil {
		return err
	}
	rows := append([]*gpgkeys.Key{k}, k.SubKeys...)
	for i, r := range rows {
		if i > 0 {
			r.OwnerID, r.PrimaryKeyID = k.OwnerID, k.KeyID
		}
		for _, o := range rows[:i] {
			if o.KeyID == r.KeyID {
				return conflict("gpg key")
			}
		}
		if err := conflictIf(t.st.gpgKeys, func(o gpgkeys.Key) bool { return t.live(o) && o.KeyID == r.KeyID }, "gpg key"); err != nil {
			return err
		}
	}
	for _, r := range rows {
		c := *r
		c.ID = t.st.nextID("gpg_key")
		c.SubKeys, c.Emails = nil, slices.Clone(c.Emails)
		if c.Emails == nil {
			c.Emails = []gpgkeys.Email{}
		}
		if c.PrimaryKeyID != "" {
			c.Armored = ""
		}
		c.Created, c.Expires, c.Added = ts(c.Created), ts(c.Expires), ts(c.Added)
		t.st.gpgKeys[c.ID] = c
		r.ID = c.ID
	}
	return nil
}

// out is a copy of stored key k with its subkeys (of a primary key).
func (t gpgKeyTx) out(k gpgkeys.Key) *gpgkeys.Key {
	c := k
	c.Emails = slices.Clone(k.Emails)
	if k.PrimaryKeyID != "" {
		return &c
	}
	var subs []gpgkeys.Key
	for _, s := range t.st.gpgKeys {
		if s.PrimaryKeyID == k.KeyID && s.OwnerID == k.OwnerID {
			subs = append(subs, s)
		}
	}
	slices.SortFunc(subs, func(a, b gpgkeys.Key) int { return cmp.Compare(a.ID, b.ID) })
	for _, s := range subs {
		s.Emails = slices.Clone(s.Emails)
		c.SubKeys = append(c.SubKeys, &s)
	}
	return &c
}

func (t gpgKeyTx) KeyByID(ctx context.Context, ownerID, id forge.ID) (*gpgkeys.Key, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	k, ok := t.st.gpgKeys[id]
	if !ok || k.OwnerID != ownerID || !t.live(k) {
		return nil, notFound("gpg key")
	}
	return t.out(k), nil
}

func (t gpgKeyTx) KeyByKeyID(ctx context.Context, ownerID forge.ID, keyID string) (*gpgkeys.Key, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, k := range t.st.gpgKeys {
		if k.OwnerID == ownerID && k.KeyID == keyID && k.PrimaryKeyID == "" && t.live(k) {
			return t.out(k), nil
		}
	}
	return nil, notFound("gpg key")
}

func (t gpgKeyTx) ListKeys(ctx context.Context, ownerID forge.ID, o forge.ListOptions) ([]*gpgkeys.Key, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []gpgkeys.Key
	for _, k := range t.st.gpgKeys {
		if k.OwnerID == ownerID && k.PrimaryKeyID == "" && t.live(k) {
			all = append(all, k)
		}
	}
	slices.SortFunc(all, func(a, b gpgkeys.Key) int { return cmp.Compare(a.ID, b.ID) })
	lo, hi := o.Bounds(len(all))
	out := make([]*gpgkeys.Key, 0, hi-lo)
	for _, k := range all[lo:hi] {
		out = append(out, t.out(k))
	}
	return out, int64(len(all)), nil
}

func (t gpgKeyTx) SetVerified(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k, ok := t.st.gpgKeys[id]
	if !ok || !t.live(k) {
		return notFound("gpg key")
	}
	k.Verified = true
	t.st.gpgKeys[id] = k
	return nil
}

func (t gpgKeyTx) DeleteKey(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k, ok := t.st.gpgKeys[id]
	if !ok || !t.live(k) {
		return notFound("gpg key")
	}
	if k.PrimaryKeyID == "" {
		for sid, s := range t.st.gpgKeys {
			if s.PrimaryKeyID == k.KeyID {
				delete(t.st.gpgKeys, sid)
			}
		}
	}
	delete(t.st.gpgKeys, id)
	return nil
}
