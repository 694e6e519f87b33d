package sshkeys

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// RepoAccess is what sshkeys needs of the repository service
// (repos.Service satisfies it): owner/name as the actor sees it, with the
// actor's permission. Repositories the actor may not see are
// forge.ErrNotFound.
type RepoAccess interface {
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
}

// Config configures a Service. Store and Repos are required.
type Config struct {
	Store Store
	Repos RepoAccess
	Clock forge.Clock
}

// Service manages public keys and deploy keys. Every method takes the
// actor and checks it: its operation's requirement (Requirements), then
// who it is (the key's owner, a site administrator, the repository's
// administrator).
type Service struct {
	store Store
	repos RepoAccess
	clock forge.Clock
}

// New returns the service for cfg.
func New(cfg Config) (*Service, error) {
	s, _, err := NewWithPorts(cfg)
	return s, err
}

// NewWithPorts returns the service and its trusted ports (for the SSH
// server, which the composition root builds).
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	if cfg.Store == nil || cfg.Repos == nil {
		return nil, nil, errors.New("sshkeys: Config.Store and Config.Repos are required")
	}
	clock := cfg.Clock
	if clock == nil {
		clock = forge.SystemClock{}
	}
	s := &Service{store: cfg.Store, repos: cfg.Repos, clock: clock}
	return s, &Ports{s: s}, nil
}

// Errors with Forgejo's messages (routers/api/v1/repo/key.go
// HandleAddKeyError; user/key.go).
var (
	errKeyUsed         = forge.Errorf(forge.ErrInvalid, "Key content has been used as non-deploy key")
	errKeyTitleUsed    = forge.Errorf(forge.ErrInvalid, "Key title has been used")
	errDeployKeyExists = forge.Errorf(forge.ErrInvalid, "This key has already been added to this repository")
	errDeployNameUsed  = forge.Errorf(forge.ErrInvalid, "A key with the same name already exists")
	errNoAccess        = forge.Errorf(forge.ErrForbidden, "You do not have access to this key")
	errKeyNotFound     = forge.Errorf(forge.ErrNotFound, "public key does not exist")
	errDeployNotFound  = forge.Errorf(forge.ErrNotFound, "deploy key does not exist")
)

// UserNotFoundError is an unknown user named in the path (Forgejo's
// UserAssignmentAPI: 404 "GetUserByName" with the message). It is a
// forge.ErrNotFound.
type UserNotFoundError struct{ Name string }

func (e *UserNotFoundError) Error() string {
	return "user redirect does not exist [name: " + strings.ToLower(e.Name) + "]"
}

// Is makes it a forge.ErrNotFound.
func (e *UserNotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

func errUserNotFound(name string) error { return &UserNotFoundError{Name: name} }

// checkTitle refuses an empty or overlong title (Forgejo's binding
// `Required;MaxSize(50)` of CreateKeyOption.Title).
func checkTitle(title string) error {
	switch {
	case strings.TrimSpace(title) == "":
		return forge.Errorf(forge.ErrInvalid, "[Title]: Required")
	case len(title) > 50:
		return forge.Errorf(forge.ErrInvalid, "[Title]: MaxSize")
	}
	return nil
}

// parseOption checks a CreateKeyOption's title and parses its key.
func parseOption(title, text string) (*Parsed, error) {
	if err := checkTitle(title); err != nil {
		return nil, err
	}
	return Parse(text)
}

// userOf resolves username ("" for the actor itself) in tx.
func userOf(ctx context.Context, tx Tx, actor forge.Actor, username string) (*forge.User, error) {
	if username == "" {
		return actor.User, nil
	}
	u, err := tx.UserByName(ctx, username)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, errUserNotFound(username)
	}
	return u, err
}

// withOwners fills the Owner of keys.
func withOwners(ctx context.Context, tx Tx, keys ...*Key) error {
	ids := make([]forge.ID, 0, len(keys))
	for _, k := range keys {
		if k.OwnerID != 0 {
			ids = append(ids, k.OwnerID)
		}
	}
	users, err := tx.UsersByID(ctx, ids)
	if err != nil {
		return err
	}
	for _, k := range keys {
		k.Owner = users[k.OwnerID]
	}
	return nil
}

// ListUserKeys lists the user keys of username ("" for the actor: GET
// /user/keys, which needs a signed-in actor), one page, by ID, with their
// number. With a fingerprint it looks that key up instead, as Forgejo: of
// any user for /user/keys, of username's for /users/{username}/keys.
// Errors: the requirement's, forge.ErrNotFound for an unknown user.
func (s *Service) ListUserKeys(ctx context.Context, actor forge.Actor, username, fingerprint string, o forge.ListOptions) ([]*Key, int64, error) {
	op := "userListKeys"
	if username == "" {
		op = "userCurrentListKeys"
	}
	if err := check(actor, op); err != nil {
		return nil, 0, err
	}
	var (
		out []*Key
		n   int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		u, err := userOf(ctx, tx, actor, username)
		if err != nil {
			return err
		}
		f := KeyFilter{OwnerID: u.ID, Type: TypeUser}
		if fingerprint != "" {
			f = KeyFilter{Fingerprint: fingerprint}
			if username != "" {
				f.OwnerID = u.ID
			}
			o = forge.ListOptions{Page: 1, Limit: -1}
		}
		if out, n, err = tx.ListKeys(ctx, f, o); err != nil {
			return err
		}
		return withOwners(ctx, tx, out...)
	})
	return out, n, err
}

// GetUserKey returns a public key by id (any user's, as Forgejo: public
// keys are public). forge.ErrNotFound if none.
func (s *Service) GetUserKey(ctx context.Context, actor forge.Actor, id forge.ID) (*Key, error) {
	if err := check(actor, "userCurrentGetKey"); err != nil {
		return nil, err
	}
	var k *Key
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if k, err = tx.KeyByID(ctx, id); errors.Is(err, forge.ErrNotFound) {
			return errKeyNotFound
		} else if err != nil {
			return err
		}
		return withOwners(ctx, tx, k)
	})
	return k, err
}

// AddUserKey adds a key to username ("" for the actor: POST /user/keys;
// another user's: POST /admin/users/{username}/keys, site administrators
// only). Errors (forge.ErrInvalid, Forgejo's 422 messages): a bad title,
// an unreadable key (Parse), a key whose content is already used ("Key
// content has been used as non-deploy key"), a title the user already
// uses ("Key title has been used"); forge.ErrNotFound for an unknown
// user; the requirement's.
func (s *Service) AddUserKey(ctx context.Context, actor forge.Actor, username, title, text string) (*Key, error) {
	op := "userCurrentPostKey"
	if username != "" {
		op = "adminCreatePublicKey"
	}
	if err := check(actor, op); err != nil {
		return nil, err
	}
	p, err := parseOption(title, text)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var k *Key
	err = s.store.Update(ctx, func(tx Tx) error {
		u, err := userOf(ctx, tx, actor, username)
		if err != nil {
			return err
		}
		if _, err := tx.KeyByFingerprint(ctx, p.Fingerprint); err == nil {
			return errKeyUsed
		} else if !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		if same, _, err := tx.ListKeys(ctx, KeyFilter{OwnerID: u.ID, Name: title}, forge.ListOptions{Page: 1, Limit: 1}); err != nil {
			return err
		} else if len(same) > 0 {
			return errKeyTitleUsed
		}
		k = &Key{OwnerID: u.ID, Name: title, Fingerprint: p.Fingerprint, Content: p.Content,
			Mode: forge.AccessModeWrite, Type: TypeUser, Created: now, Updated: now}
		if err := tx.CreateKey(ctx, k); errors.Is(err, forge.ErrConflict) {
			return errKeyUsed
		} else if err != nil {
			return err
		}
		k.Owner = u
		return nil
	})
	return k, err
}

// DeleteUserKey removes the key id of username ("" for the actor: DELETE
// /user/keys/{id}, where a site administrator may remove anyone's key;
// DELETE /admin/users/{username}/keys/{id} removes only a key of
// username). Errors: forge.ErrNotFound for an unknown key or user,
// forge.ErrForbidden "You do not have access to this key" for another's
// key (or a deploy key); the requirement's.
func (s *Service) DeleteUserKey(ctx context.Context, actor forge.Actor, username string, id forge.ID) error {
	op := "userCurrentDeleteKey"
	if username != "" {
		op = "adminDeleteUserPublicKey"
	}
	if err := check(actor, op); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		u, err := userOf(ctx, tx, actor, username)
		if err != nil {
			return err
		}
		k, err := tx.KeyByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) {
			return errKeyNotFound
		} else if err != nil {
			return err
		}
		mayAny := username == "" && actor.IsSiteAdmin()
		if k.Type != TypeUser || (k.OwnerID != u.ID && !mayAny) {
			return errNoAccess
		}
		return tx.DeleteKey(ctx, id)
	})
}

// repoAdmin resolves owner/name for its administrator (Forgejo's reqAdmin:
// "user should be an owner or a collaborator with admin write of a
// repository").
func (s *Service) repoAdmin(ctx context.Context, actor forge.Actor, op, owner, name string) (*forge.Repository, error) {
	if err := check(actor, op); err != nil {
		return nil, err
	}
	r, perm, err := s.repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if perm.Mode < forge.AccessModeAdmin {
		return nil, forge.Errorf(forge.ErrForbidden, "user should be an owner or a collaborator with admin write of a repository")
	}
	return r, nil
}

// ListDeployKeys lists owner/name's deploy keys, one page, by ID, with
// their number; keyID and fingerprint (when set) narrow it. Repository
// administrators only.
func (s *Service) ListDeployKeys(ctx context.Context, actor forge.Actor, owner, name string, keyID forge.ID, fingerprint string, o forge.ListOptions) ([]*DeployKey, int64, error) {
	r, err := s.repoAdmin(ctx, actor, "repoListKeys", owner, name)
	if err != nil {
		return nil, 0, err
	}
	var (
		out []*DeployKey
		n   int64
	)
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		out, n, err = tx.ListDeployKeys(ctx, DeployFilter{RepoID: r.ID, KeyID: keyID, Fingerprint: fingerprint}, o)
		return err
	})
	for _, d := range out {
		d.Repo = r
	}
	return out, n, err
}

// GetDeployKey returns owner/name's deploy key id. Repository
// administrators only; forge.ErrNotFound for an unknown id or another
// repository's key.
func (s *Service) GetDeployKey(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) (*DeployKey, error) {
	r, err := s.repoAdmin(ctx, actor, "repoGetKey", owner, name)
	if err != nil {
		return nil, err
	}
	var d *DeployKey
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		d, err = tx.DeployKeyByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) || err == nil && d.RepoID != r.ID {
			return errDeployNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	d.Repo = r
	return d, nil
}

// AddDeployKey deploys a key on owner/name, read-only or read-write
// (Forgejo's AddDeployKey): its content may be deployed on several
// repositories but not be a user's key. Repository administrators only.
// Errors (forge.ErrInvalid with Forgejo's 422 messages): a bad title or
// key, "Key content has been used as non-deploy key", "This key has
// already been added to this repository", "A key with the same name
// already exists"; the requirement's and the repository's.
func (s *Service) AddDeployKey(ctx context.Context, actor forge.Actor, owner, name, title, text string, readOnly bool) (*DeployKey, error) {
	r, err := s.repoAdmin(ctx, actor, "repoCreateKey", owner, name)
	if err != nil {
		return nil, err
	}
	p, err := parseOption(title, text)
	if err != nil {
		return nil, err
	}
	mode := forge.AccessModeWrite
	if readOnly {
		mode = forge.AccessModeRead
	}
	now := s.clock.Now()
	var d *DeployKey
	err = s.store.Update(ctx, func(tx Tx) error {
		k, err := tx.KeyByFingerprint(ctx, p.Fingerprint)
		switch {
		case err == nil && k.Type != TypeDeploy:
			return errKeyUsed
		case errors.Is(err, forge.ErrNotFound):
			k = &Key{Name: title, Fingerprint: p.Fingerprint, Content: p.Content, Mode: forge.AccessModeRead,
				Type: TypeDeploy, Created: now, Updated: now}
			if err := tx.CreateKey(ctx, k); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if have, _, err := tx.ListDeployKeys(ctx, DeployFilter{RepoID: r.ID, KeyID: k.ID}, forge.ListOptions{Page: 1, Limit: 1}); err != nil {
			return err
		} else if len(have) > 0 {
			return errDeployKeyExists
		}
		if have, _, err := tx.ListDeployKeys(ctx, DeployFilter{RepoID: r.ID, Name: title}, forge.ListOptions{Page: 1, Limit: 1}); err != nil {
			return err
		} else if len(have) > 0 {
			return errDeployNameUsed
		}
		d = &DeployKey{KeyID: k.ID, RepoID: r.ID, Name: title, Fingerprint: k.Fingerprint, Content: k.Content,
			Mode: mode, Created: now, Updated: now}
		if err := tx.CreateDeployKey(ctx, d); errors.Is(err, forge.ErrConflict) {
			return errDeployKeyExists
		} else if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.Repo = r
	return d, nil
}

// DeleteDeployKey removes owner/name's deploy key id, and its public key
// when no repository uses it any more. An unknown id is no error (as
// Forgejo's DeleteDeployKey); another repository's key is
// forge.ErrForbidden "You do not have access to this key". Repository
// administrators only.
func (s *Service) DeleteDeployKey(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID) error {
	r, err := s.repoAdmin(ctx, actor, "repoDeleteKey", owner, name)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		d, err := tx.DeployKeyByID(ctx, id)
		if errors.Is(err, forge.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if d.RepoID != r.ID {
			return errNoAccess
		}
		if err := tx.DeleteDeployKey(ctx, id); err != nil {
			return err
		}
		if _, n, err := tx.ListDeployKeys(ctx, DeployFilter{KeyID: d.KeyID}, forge.ListOptions{Page: 1, Limit: 0}); err != nil {
			return err
		} else if n == 0 {
			return tx.DeleteKey(ctx, d.KeyID)
		}
		return nil
	})
}
