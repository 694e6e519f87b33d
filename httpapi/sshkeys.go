package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// keyError maps the key service's errors: an unknown user in the path as
// Forgejo's UserAssignmentAPI (404 "GetUserByName"), repositories as the
// repository routes, the rest by category (422 for bad or duplicate keys,
// with Forgejo's messages).
func (c *call) keyError(err error) {
	var user *sshkeys.UserNotFoundError
	var owner *repos.OwnerNotFoundError
	switch {
	case errors.As(err, &user):
		c.notFoundBody("GetUserByName", err.Error())
	case errors.As(err, &owner), errors.Is(err, repos.ErrRepoNotFound):
		c.repoError(err)
	default:
		c.writeError(err)
	}
}

// toPublicKey is Forgejo's convert.ToPublicKey, with the private
// information (type, owner, read_only) only for the key's owner and site
// administrators (appendPrivateInformation).
func (c *call) toPublicKey(k *sshkeys.Key) wire.PublicKey {
	u := c.rootURL() + "api/v1/user/keys/" + strconv.FormatInt(int64(k.ID), 10)
	out := wire.PublicKey{ID: int64(k.ID), Key: k.Content, URL: &u, Title: &k.Name, Fingerprint: &k.Fingerprint, Created: apiTime(k.Created)}
	if c.actor.IsSiteAdmin() || c.actor.UserID() == k.OwnerID && k.OwnerID != 0 {
		typ, ro := string(k.Type), k.Mode == forge.AccessModeRead
		out.KeyType, out.ReadOnly = &typ, &ro
		if k.Owner != nil && k.Type == sshkeys.TypeUser {
			owner := c.toUser(k.Owner)
			out.User = &owner
		}
	}
	return out
}

func (c *call) toPublicKeys(list []*sshkeys.Key) []wire.PublicKey {
	out := make([]wire.PublicKey, len(list))
	for i, k := range list {
		out[i] = c.toPublicKey(k)
	}
	return out
}

// toDeployKey is Forgejo's convert.ToDeployKey, without the repository
// (deployKeysShown adds it where Forgejo does).
func (c *call) toDeployKey(d *sshkeys.DeployKey) wire.DeployKey {
	u := c.rootURL() + "api/v1/repos/" + url.PathEscape(c.owner()) + "/" + url.PathEscape(c.repo()) + "/keys/" +
		strconv.FormatInt(int64(d.ID), 10)
	return wire.DeployKey{ID: int64(d.ID), KeyID: int64(d.KeyID), Key: d.Content, URL: u, Title: d.Name,
		Fingerprint: d.Fingerprint, Created: apiTime(d.Created), ReadOnly: d.ReadOnly()}
}

func (c *call) toDeployKeys(list []*sshkeys.DeployKey) []wire.DeployKey {
	out := make([]wire.DeployKey, len(list))
	for i, d := range list {
		out[i] = c.toDeployKey(d)
	}
	return out
}

// listMyKeys is GET /user/keys (?fingerprint looks a key up among all
// users', as Forgejo): 200 with X-Total-Count.
func (a *API) listMyKeys(c *call) {
	list, total, err := a.cfg.SSHKeys.ListUserKeys(c.r.Context(), c.actor, "", c.query().Get("fingerprint"), c.listOptions())
	totalAs(c, list, total, err, c.keyError, c.toPublicKeys)
}

// listUserKeys is GET /users/{username}/keys.
func (a *API) listUserKeys(c *call) {
	list, total, err := a.cfg.SSHKeys.ListUserKeys(c.r.Context(), c.actor, c.pathValue("username"), c.query().Get("fingerprint"), c.listOptions())
	totalAs(c, list, total, err, c.keyError, c.toPublicKeys)
}

// getUserKey is GET /user/keys/{id}: any user's key (public keys are
// public), 404 for an unknown id.
func (a *API) getUserKey(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	k, err := a.cfg.SSHKeys.GetUserKey(c.r.Context(), c.actor, id)
	jsonAs(c, http.StatusOK, k, err, c.keyError, c.toPublicKey)
}

// decodeKey reads a CreateKeyOption, answering Forgejo's binding errors
// (422 `[Title]: Required`, `[Key]: Required`).
func (c *call) decodeKey() (wire.CreateKeyOption, bool) {
	var o wire.CreateKeyOption
	if !c.decode(&o) {
		return o, false
	}
	return o, c.present("Title", o.Title != "") && c.present("Key", o.Key != "")
}

// addUserKey is POST /user/keys (param "") and POST
// /admin/users/{username}/keys (param "username"): 201 with the key.
func (a *API) addUserKey(param string) func(*call) {
	return func(c *call) {
		o, ok := c.decodeKey()
		if !ok {
			return
		}
		username := ""
		if param != "" {
			username = c.pathValue(param)
		}
		k, err := a.cfg.SSHKeys.AddUserKey(c.r.Context(), c.actor, username, o.Title, o.Key)
		jsonAs(c, http.StatusCreated, k, err, c.keyError, c.toPublicKey)
	}
}

// deleteUserKey is DELETE /user/keys/{id} and DELETE
// /admin/users/{username}/keys/{id}: 204; 404 for an unknown key, 403 "You
// do not have access to this key" for another's.
func (a *API) deleteUserKey(param string) func(*call) {
	return func(c *call) {
		id, ok := c.idParam("id")
		if !ok {
			return
		}
		username := ""
		if param != "" {
			username = c.pathValue(param)
		}
		c.noContentOr(a.cfg.SSHKeys.DeleteUserKey(c.r.Context(), c.actor, username, id), c.keyError)
	}
}

// listDeployKeys is GET /repos/{owner}/{repo}/keys (?key_id,
// ?fingerprint): 200 with X-Total-Count.
func (a *API) listDeployKeys(c *call) {
	keyID, _ := strconv.ParseInt(c.query().Get("key_id"), 10, 64) // Forgejo's FormInt64: 0 when it does not parse
	list, total, err := a.cfg.SSHKeys.ListDeployKeys(c.r.Context(), c.actor, c.owner(), c.repo(), keyID,
		c.query().Get("fingerprint"), c.listOptions())
	if err != nil {
		c.keyError(err)
		return
	}
	out, err := c.deployKeysShown(list)
	if err != nil {
		c.keyError(err)
		return
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
}

// deployKeysShown converts deploy keys as Forgejo's ListDeployKeys and
// GetDeployKey answer them: with the repository (its permissions those of
// the key: read, or read and write) for site administrators and the
// repository's owner (appendPrivateInformation), without for other
// administrators of the repository.
func (c *call) deployKeysShown(list []*sshkeys.DeployKey) ([]wire.DeployKey, error) {
	out := c.toDeployKeys(list)
	if len(list) == 0 || !c.actor.IsSiteAdmin() && c.actor.UserID() != list[0].Repo.OwnerID {
		return out, nil
	}
	v, err := c.a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		return nil, err
	}
	views := make([]*repos.View, len(list))
	for i, d := range list {
		kv := *v
		kv.Perm = forge.Permission{Mode: d.Mode, Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: d.Mode}}
		views[i] = &kv
	}
	shown, err := c.toRepos(views)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Repository = &shown[i]
	}
	return out, nil
}

// getDeployKey is GET /repos/{owner}/{repo}/keys/{id}.
func (a *API) getDeployKey(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	d, err := a.cfg.SSHKeys.GetDeployKey(c.r.Context(), c.actor, c.owner(), c.repo(), id)
	if err != nil {
		c.keyError(err)
		return
	}
	out, err := c.deployKeysShown([]*sshkeys.DeployKey{d})
	if err != nil {
		c.keyError(err)
		return
	}
	c.json(http.StatusOK, out[0])
}

// addDeployKey is POST /repos/{owner}/{repo}/keys: 201 with the deploy
// key (read_only false unless asked).
func (a *API) addDeployKey(c *call) {
	o, ok := c.decodeKey()
	if !ok {
		return
	}
	d, err := a.cfg.SSHKeys.AddDeployKey(c.r.Context(), c.actor, c.owner(), c.repo(), o.Title, o.Key, valueOf(o.ReadOnly))
	jsonAs(c, http.StatusCreated, d, err, c.keyError, c.toDeployKey)
}

// deleteDeployKey is DELETE /repos/{owner}/{repo}/keys/{id}: 204 (an
// unknown id too, as Forgejo).
func (a *API) deleteDeployKey(c *call) {
	id, ok := c.idParam("id")
	if !ok {
		return
	}
	c.noContentOr(a.cfg.SSHKeys.DeleteDeployKey(c.r.Context(), c.actor, c.owner(), c.repo(), id), c.keyError)
}
