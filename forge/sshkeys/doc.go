// Package sshkeys holds users' public SSH keys and repositories' deploy
// keys (Forgejo's models/asymkey ssh_key*.go and deploy keys): parsed and
// fingerprinted as `ssh-keygen -lf` prints them, stored once per content
// (a fingerprint is unique across users and deploy keys), and the trusted
// lookup the SSH server authenticates a connection with (Ports).
//
// It is a domain of its own (not part of auth or forge/repos) because a
// key is both: a credential of a user (auth's concern) and a grant on a
// repository (repos' concern). Keeping it apart lets the SSH transport
// depend on one small service, and lets auth and repos stay unaware of
// key formats; repository administrators are recognised through the
// one-method RepoAccess interface that forge/repos satisfies.
package sshkeys
