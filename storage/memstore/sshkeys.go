package memstore

import (
	"cmp"
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/sshkeys"
)

// sshKeyTx implements sshkeys.Tx over one memstore transaction.
type sshKeyTx struct{ *tx }

var _ sshkeys.Tx = sshKeyTx{}

// SSHKeys returns the store package forge/sshkeys consumes.
func (s *Store) SSHKeys() sshkeys.Store {
	return storeOf(s, func(t *tx) sshkeys.Tx { return sshKeyTx{t} })
}

// liveKey reports whether k's owner still exists (a user's deletion
// removes its keys, as the SQL schema's cascade).
func (t sshKeyTx) liveKey(k sshkeys.Key) bool {
	_, ok := t.st.users[k.OwnerID]
	return k.OwnerID == 0 || ok
}

// liveDeploy reports whether d's key and repository still exist.
func (t sshKeyTx) liveDeploy(d sshkeys.DeployKey) bool {
	k, ok := t.st.sshKeys[d.KeyID]
	_, repo := t.st.repos[d.RepoID]
	return ok && repo && t.liveKey(k)
}

func (t sshKeyTx) CreateKey(ctx context.Context, k *sshkeys.Key) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := t.st.users[k.OwnerID]; k.OwnerID != 0 && !ok {
		return missingRef("public key owner")
	}
	if err := conflictIf(t.st.sshKeys, func(o sshkeys.Key) bool {
		return t.liveKey(o) && o.Fingerprint == k.Fingerprint
	}, "public key"); err != nil {
		return err
	}
	c := *k
	c.Owner = nil
	c.ID = t.st.nextID("public_key")
	c.Created, c.Updated = ts(c.Created), ts(c.Updated)
	t.st.sshKeys[c.ID] = c
	k.ID = c.ID
	return nil
}

func (t sshKeyTx) key(ctx context.Context, match func(sshkeys.Key) bool) (*sshkeys.Key, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, k := range t.st.sshKeys {
		if t.liveKey(k) && match(k) {
			return &k, nil
		}
	}
	return nil, notFound("public key")
}

func (t sshKeyTx) KeyByID(ctx context.Context, id forge.ID) (*sshkeys.Key, error) {
	return t.key(ctx, func(k sshkeys.Key) bool { return k.ID == id })
}

func (t sshKeyTx) KeyByFingerprint(ctx context.Context, fp string) (*sshkeys.Key, error) {
	return t.key(ctx, func(k sshkeys.Key) bool { return k.Fingerprint == fp })
}

func (t sshKeyTx) DeleteKey(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if k, ok := t.st.sshKeys[id]; !ok || !t.liveKey(k) {
		return notFound("public key")
	}
	delete(t.st.sshKeys, id)
	for did, d := range t.st.deployKeys {
		if d.KeyID == id {
			delete(t.st.deployKeys, did)
		}
	}
	return nil
}

func (t sshKeyTx) ListKeys(ctx context.Context, f sshkeys.KeyFilter, o forge.ListOptions) ([]*sshkeys.Key, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.sshKeys, func(k sshkeys.Key) bool {
		return t.liveKey(k) && (f.OwnerID == 0 || k.OwnerID == f.OwnerID) && (f.Fingerprint == "" || k.Fingerprint == f.Fingerprint) &&
			(f.Name == "" || k.Name == f.Name) && (f.Type == "" || k.Type == f.Type)
	})
	out, n := sortedPage(all, func(a, b sshkeys.Key) int { return cmp.Compare(a.ID, b.ID) }, o)
	return out, n, nil
}

func (t sshKeyTx) CreateDeployKey(ctx context.Context, d *sshkeys.DeployKey) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if k, ok := t.st.sshKeys[d.KeyID]; !ok || !t.liveKey(k) {
		return missingRef("deploy key's key")
	}
	if _, ok := t.st.repos[d.RepoID]; !ok {
		return missingRef("deploy key's repository")
	}
	if err := conflictIf(t.st.deployKeys, func(o sshkeys.DeployKey) bool {
		return t.liveDeploy(o) && o.RepoID == d.RepoID && (o.KeyID == d.KeyID || o.Name == d.Name)
	}, "deploy key"); err != nil {
		return err
	}
	c := *d
	c.Repo, c.Fingerprint, c.Content = nil, "", ""
	c.ID = t.st.nextID("deploy_key")
	c.Created, c.Updated = ts(c.Created), ts(c.Updated)
	t.st.deployKeys[c.ID] = c
	d.ID = c.ID
	return nil
}

// withKey is d with its key's fingerprint and content.
func (t sshKeyTx) withKey(d sshkeys.DeployKey) *sshkeys.DeployKey {
	k := t.st.sshKeys[d.KeyID]
	d.Fingerprint, d.Content = k.Fingerprint, k.Content
	return &d
}

func (t sshKeyTx) DeployKeyByID(ctx context.Context, id forge.ID) (*sshkeys.DeployKey, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	d, ok := t.st.deployKeys[id]
	if !ok || !t.liveDeploy(d) {
		return nil, notFound("deploy key")
	}
	return t.withKey(d), nil
}

func (t sshKeyTx) DeleteDeployKey(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if d, ok := t.st.deployKeys[id]; !ok || !t.liveDeploy(d) {
		return notFound("deploy key")
	}
	delete(t.st.deployKeys, id)
	return nil
}

func (t sshKeyTx) ListDeployKeys(ctx context.Context, f sshkeys.DeployFilter, o forge.ListOptions) ([]*sshkeys.DeployKey, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := rowsWhere(t.st.deployKeys, func(d sshkeys.DeployKey) bool {
		return t.liveDeploy(d) && (f.RepoID == 0 || d.RepoID == f.RepoID) && (f.KeyID == 0 || d.KeyID == f.KeyID) &&
			(f.Name == "" || d.Name == f.Name) && (f.Fingerprint == "" || t.st.sshKeys[d.KeyID].Fingerprint == f.Fingerprint)
	})
	page, n := sortPage(all, func(a, b sshkeys.DeployKey) int { return cmp.Compare(a.ID, b.ID) }, o)
	out := make([]*sshkeys.DeployKey, len(page))
	for i, d := range page {
		out[i] = t.withKey(d)
	}
	return out, n, nil
}
