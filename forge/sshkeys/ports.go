package sshkeys

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the trusted, actor-less methods of the service, for the SSH
// server only (NewWithPorts): it authenticates a connection by the public
// key the client proved it holds.
type Ports struct{ s *Service }

// ErrUnknownKey is a public key that no user and no repository has.
var ErrUnknownKey = forge.Errorf(forge.ErrUnauthenticated, "unknown public key")

// ActorOf returns who a connection authenticated by the public key of
// fingerprint acts as: a user's key acts as the user (whose account
// state the operations check, so that a disabled user's keys stop
// working), a deploy key as a forge.DeployKey with its mode on each
// repository it is deployed to. ErrUnknownKey if no key has fingerprint.
func (p *Ports) ActorOf(ctx context.Context, fingerprint string) (forge.Actor, *Key, error) {
	var (
		actor forge.Actor
		key   *Key
	)
	err := p.s.store.View(ctx, func(tx Tx) error {
		k, err := tx.KeyByFingerprint(ctx, fingerprint)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrUnknownKey
		} else if err != nil {
			return err
		}
		key = k
		switch k.Type {
		case TypeUser:
			users, err := tx.UsersByID(ctx, []forge.ID{k.OwnerID})
			if err != nil {
				return err
			}
			u := users[k.OwnerID]
			if u == nil || u.IsOrganization() {
				return ErrUnknownKey
			}
			actor = forge.Actor{User: u, Method: forge.AuthSSHKey}
		case TypeDeploy:
			ds, _, err := tx.ListDeployKeys(ctx, DeployFilter{KeyID: k.ID}, forge.ListOptions{Page: 1, Limit: -1})
			if err != nil {
				return err
			}
			grant := &forge.DeployKey{KeyID: k.ID, Repos: make(map[forge.ID]forge.AccessMode, len(ds))}
			for _, d := range ds {
				grant.Repos[d.RepoID] = d.Mode
			}
			actor = forge.Actor{Method: forge.AuthSSHKey, DeployKey: grant}
		default:
			return ErrUnknownKey
		}
		return nil
	})
	return actor, key, err
}
