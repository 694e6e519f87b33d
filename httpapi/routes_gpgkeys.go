package httpapi

// gpgKeyRoutes are the GPG key and signing-key operations (Forgejo's
// /user/gpg_keys, /user/gpg_key_token, /user/gpg_key_verify,
// /users/{username}/gpg_keys, /signing-key.gpg, /signing-key.ssh and
// /repos/{owner}/{repo}/signing-key.gpg). forge/gpgkeys declares what each
// requires (gpgkeys.Requirements) but the two public ones, which need no
// scope (Forgejo's "Misc (public accessible)" group). Nil when the API
// has no GPG key service: the operations then answer 501.
func (a *API) gpgKeyRoutes() []route {
	if a.cfg.GPGKeys == nil {
		return nil
	}
	return []route{
		{Method: "GET", Path: "/user/gpg_keys", Op: "userCurrentListGPGKeys", h: a.listMyGPGKeys},
		{Method: "POST", Path: "/user/gpg_keys", Op: "userCurrentPostGPGKey", h: a.createGPGKey},
		{Method: "GET", Path: "/user/gpg_keys/{id}", Op: "userCurrentGetGPGKey", h: a.getGPGKey},
		{Method: "DELETE", Path: "/user/gpg_keys/{id}", Op: "userCurrentDeleteGPGKey", h: a.deleteGPGKey},
		{Method: "GET", Path: "/user/gpg_key_token", Op: "getVerificationToken", h: a.getGPGKeyToken},
		{Method: "POST", Path: "/user/gpg_key_verify", Op: "userVerifyGPGKey", h: a.verifyGPGKey},
		{Method: "GET", Path: "/users/{username}/gpg_keys", Op: "userListGPGKeys", h: a.listUserGPGKeys},
		{Method: "GET", Path: "/signing-key.gpg", Op: "getSigningKey", h: a.getSigningKey},
		{Method: "GET", Path: "/signing-key.ssh", Op: "getSSHSigningKey", h: a.getSSHSigningKey},
		{Method: "GET", Path: "/repos/{owner}/{repo}/signing-key.gpg", Op: "repoSigningKey", h: a.getRepoSigningKey},
	}
}
