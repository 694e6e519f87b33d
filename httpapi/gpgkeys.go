package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// gpgKeyError maps the GPG key service's errors: a key that does not
// exist is Forgejo's bare ctx.NotFound(), a key id stored already 422 `A
// key with the same id already exists` (HandleAddGPGKeyError), the rest by
// category (the parse and signature errors 422, no matching e-mail 404,
// with Forgejo's messages).
func (c *call) gpgKeyError(err error) {
	if errors.Is(err, gpgkeys.ErrNoSuchKey) {
		c.notFound()
		return
	}
	c.writeError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
}

// gpgKeyID reads {id} as Forgejo's ctx.ParamsInt64: a value that is not a
// number is 0, which no key has.
func (c *call) gpgKeyID() forge.ID {
	id, _ := strconv.ParseInt(c.pathValue("id"), 10, 64)
	return id
}

// toGPGKey is Forgejo's convert.ToGPGKey: can_certify is the key's
// can_sign, as Forgejo writes it; times in UTC.
func toGPGKey(k *gpgkeys.Key) wire.GPGKey {
	created, expires := k.Created, k.Expires
	out := wire.GPGKey{ID: k.ID, PrimaryKeyID: k.PrimaryKeyID, KeyID: k.KeyID, PublicKey: k.Content,
		Created: &created, Expires: &expires, CanSign: k.CanSign, CanEncryptComms: k.CanEncryptComms,
		CanEncryptStorage: k.CanEncryptStorage, CanCertify: k.CanSign, Verified: k.Verified,
		Emails: make([]wire.GPGKeyEmail, len(k.Emails)), SubsKey: make([]wire.GPGKey, len(k.SubKeys))}
	for i, e := range k.Emails {
		out.Emails[i] = wire.GPGKeyEmail{Email: e.Email, Verified: e.Verified}
	}
	for i, s := range k.SubKeys {
		sub := toGPGKey(s)
		// Forgejo's subkeys carry no e-mails and no subkeys (null).
		sub.Emails, sub.SubsKey = nil, nil
		out.SubsKey[i] = sub
	}
	return out
}

func toGPGKeys(list []*gpgkeys.Key) []wire.GPGKey {
	out := make([]wire.GPGKey, len(list))
	for i, k := range list {
		out[i] = toGPGKey(k)
	}
	return out
}

// listMyGPGKeys is GET /user/gpg_keys: 200 with X-Total-Count.
func (a *API) listMyGPGKeys(c *call) {
	list, total, err := a.cfg.GPGKeys.ListOwn(c.r.Context(), c.actor, c.listOptions())
	totalAs(c, list, total, err, c.gpgKeyError, toGPGKeys)
}

// listUserGPGKeys is GET /users/{username}/gpg_keys.
func (a *API) listUserGPGKeys(c *call) {
	list, total, err := a.cfg.GPGKeys.List(c.r.Context(), c.actor, c.pathValue("username"), c.listOptions())
	totalAs(c, list, total, err, c.gpgKeyError, toGPGKeys)
}

// getGPGKey is GET /user/gpg_keys/{id}.
func (a *API) getGPGKey(c *call) {
	k, err := a.cfg.GPGKeys.Get(c.r.Context(), c.actor, c.gpgKeyID())
	jsonAs(c, http.StatusOK, k, err, c.gpgKeyError, toGPGKey)
}

// createGPGKey is POST /user/gpg_keys: 201 with the first key added.
func (a *API) createGPGKey(c *call) {
	var in wire.CreateGPGKeyOption
	if !c.decode(&in) || !c.present("ArmoredKey", in.ArmoredKey != "") {
		return
	}
	sig := ""
	if in.Signature != nil {
		sig = *in.Signature
	}
	k, err := a.cfg.GPGKeys.Add(c.r.Context(), c.actor, in.ArmoredKey, sig)
	jsonAs(c, http.StatusCreated, k, err, c.gpgKeyError, toGPGKey)
}

// deleteGPGKey is DELETE /user/gpg_keys/{id}: 204, also for a key the
// actor does not have (Forgejo's DeleteGPGKey).
func (a *API) deleteGPGKey(c *call) {
	c.noContentOr(a.cfg.GPGKeys.Delete(c.r.Context(), c.actor, c.gpgKeyID()), c.gpgKeyError)
}

// getGPGKeyToken is GET /user/gpg_key_token: the token, as text.
func (a *API) getGPGKeyToken(c *call) {
	tok, err := a.cfg.GPGKeys.Token(c.r.Context(), c.actor)
	c.plainTextOr(tok, err, c.gpgKeyError)
}

// verifyGPGKey is POST /user/gpg_key_verify: 200 with the key (Forgejo's
// handler answers 200 where its document says 201).
func (a *API) verifyGPGKey(c *call) {
	var in wire.VerifyGPGKeyOption
	if !c.decode(&in) || !c.present("KeyID", in.KeyID != "") {
		return
	}
	sig := ""
	if in.Signature != nil {
		sig = *in.Signature
	}
	k, err := a.cfg.GPGKeys.Verify(c.r.Context(), c.actor, in.KeyID, sig)
	jsonAs(c, http.StatusOK, k, err, c.gpgKeyError, toGPGKey)
}

// getSigningKey is GET /signing-key.gpg: the host's armored public key,
// an empty 200 when it has none (Forgejo's).
func (a *API) getSigningKey(c *call) {
	key, err := a.cfg.GPGKeys.SigningKey(c.r.Context(), c.actor)
	c.plainTextOr(key, err, c.gpgKeyError)
}

// getRepoSigningKey is GET /repos/{owner}/{repo}/signing-key.gpg: the
// host's key, once the repository is found as the actor may see it.
func (a *API) getRepoSigningKey(c *call) {
	key, err := a.cfg.GPGKeys.RepoSigningKey(c.r.Context(), c.actor, c.owner(), c.repo())
	c.plainTextOr(key, err, func(err error) { c.repoError(err) })
}

// getSSHSigningKey is GET /signing-key.ssh: the host's SSH public key in
// authorized_keys form, 404 when it has none.
func (a *API) getSSHSigningKey(c *call) {
	key, err := a.cfg.GPGKeys.SSHSigningKey(c.r.Context(), c.actor)
	c.plainTextOr(key, err, c.gpgKeyError)
}
