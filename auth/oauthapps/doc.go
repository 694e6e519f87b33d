// Package oauthapps owns users' OAuth2 application records (Forgejo's
// models/auth/oauth2.go OAuth2Application and routers/api/v1/user/app.go):
// a name, redirect URIs, whether the client is confidential, a client id
// (a random UUID) and a client secret that is shown once, when the
// application is created or edited (each edit makes a new one, as
// Forgejo's PATCH does), and kept only as a digest.
//
// It is a package of its own rather than a part of package auth because
// its records are a user's settings with a store of their own: auth's
// store and its users' credentials are left as they are, and the OAuth2
// authorization flow, when Hearth serves it, reads the records through
// VerifySecret and RedirectAllowed here.
//
// It imports forge and the standard library only.
package oauthapps
