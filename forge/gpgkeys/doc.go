// Package gpgkeys owns users' GPG public keys and the host's signing keys
// (Forgejo's models/asymkey gpg_key*.go, routers/api/v1/user/gpg_key.go
// and routers/api/v1/misc/signing.go): keys are parsed with
// github.com/ProtonMail/go-crypto, stored with their subkeys and the
// e-mail addresses of the user their identities name, and verified by an
// armored detached signature of the user's verification token.
//
// It is a package of its own rather than part of package auth because its
// rules are about what a key proves, not about signing in: parsing
// OpenPGP, the token, which addresses a key's identities match (asked of
// the e-mail store through Emails), and the host's signing keys, which
// the same parser reads. Users are found through Users (auth.Service) and
// repositories through Repos (forge/repos), declared here with forge
// types only.
//
// It imports forge, the standard library, go-crypto and x/crypto/ssh only:
// never net/http, database/sql, storage drivers, go-git or another domain
// package.
package gpgkeys
