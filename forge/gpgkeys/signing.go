package gpgkeys

import (
	"bytes"
	"context"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge"
)

// SigningKeys are the public halves of the host's signing keys, as the
// API serves them. The zero value has none.
type SigningKeys struct {
	// GPG is the armored public key ("-----BEGIN PGP PUBLIC KEY
	// BLOCK-----"), as `gpg --export -a` prints it; "" if none.
	GPG string
	// SSH is the public key in authorized_keys form, one line ending in
	// "\n"; "" if none.
	SSH string
}

// ParseSigningKeys reads the host's signing keys: gpgKey an armored
// OpenPGP key (private or public: only its public half is kept; its first
// key when it holds several), sshKey an SSH key (an authorized_keys line,
// or an unencrypted private key in OpenSSH or PEM form). Either may be
// empty (no such key). forge.ErrInvalid names the key that does not parse.
func ParseSigningKeys(gpgKey, sshKey []byte) (SigningKeys, error) {
	var out SigningKeys
	if len(bytes.TrimSpace(gpgKey)) > 0 {
		list, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(gpgKey))
		if err != nil || len(list) == 0 {
			return SigningKeys{}, forge.Errorf(forge.ErrInvalid, "gpg signing key: not an armored OpenPGP key: %v", err)
		}
		pub, err := armoredPublic(list[0])
		if err != nil {
			return SigningKeys{}, forge.Errorf(forge.ErrInvalid, "gpg signing key: %v", err)
		}
		out.GPG = pub
	}
	if len(bytes.TrimSpace(sshKey)) > 0 {
		pub, err := sshPublic(sshKey)
		if err != nil {
			return SigningKeys{}, forge.Errorf(forge.ErrInvalid, "ssh signing key: %v", err)
		}
		out.SSH = string(ssh.MarshalAuthorizedKey(pub))
	}
	return out, nil
}

// armoredPublic is e's public key, armored.
func armoredPublic(e *openpgp.Entity) (string, error) {
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err != nil {
		return "", err
	}
	if err := e.Serialize(w); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	buf.WriteByte('\n')
	return buf.String(), nil
}

// sshPublic reads an authorized_keys line or a private key.
func sshPublic(b []byte) (ssh.PublicKey, error) {
	if pub, _, _, _, err := ssh.ParseAuthorizedKey(b); err == nil {
		return pub, nil
	}
	signer, err := ssh.ParsePrivateKey(b)
	if err != nil {
		return nil, err
	}
	return signer.PublicKey(), nil
}

// SigningKey returns the host's armored GPG signing key; "" (and no error)
// when the host has none, as Forgejo answers 200 with an empty body.
func (s *Service) SigningKey(ctx context.Context, actor forge.Actor) (string, error) {
	if err := publicRequirement.Check(actor); err != nil {
		return "", err
	}
	return s.cfg.Signing.GPG, nil
}

// RepoSigningKey is SigningKey for the repository owner/name: the host's
// key (Hearth keeps no key per repository) once the repository is found
// as the actor may see it (Repos: a not-found error otherwise).
func (s *Service) RepoSigningKey(ctx context.Context, actor forge.Actor, owner, name string) (string, error) {
	if err := repoSigningKeyRequirement.Check(actor); err != nil {
		return "", err
	}
	if s.cfg.Repos == nil {
		return "", forge.Errorf(forge.ErrNotFound, "repository does not exist [owner: %s, name: %s]", strings.ToLower(owner), strings.ToLower(name))
	}
	if _, _, err := s.cfg.Repos.RepoAccess(ctx, actor, owner, name); err != nil {
		return "", err
	}
	return s.cfg.Signing.GPG, nil
}

// SSHSigningKey returns the host's SSH signing key in authorized_keys
// form; forge.ErrNotFound with reason ErrNoSuchKey when the host has
// none (Forgejo's 404).
func (s *Service) SSHSigningKey(ctx context.Context, actor forge.Actor) (string, error) {
	if err := publicRequirement.Check(actor); err != nil {
		return "", err
	}
	if s.cfg.Signing.SSH == "" {
		return "", forge.Reasonf(forge.ErrNotFound, ErrNoSuchKey, "the host has no SSH signing key")
	}
	return s.cfg.Signing.SSH, nil
}
