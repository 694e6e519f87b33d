package httpapi

// sshKeyRoutes are the public SSH key operations (user keys, an
// administrator's keys of a user, repositories' deploy keys). forge/sshkeys
// declares what each requires (sshkeys.Requirements): the table derives
// the routes' scopes, token and administrator checks from it; the
// repository administrator is the service's check. Nil when the API has
// no key service: the operations then answer 501.
func (a *API) sshKeyRoutes() []route {
	if a.cfg.SSHKeys == nil {
		return nil
	}
	const rp = "/repos/{owner}/{repo}/keys"
	return []route{
		{Method: "GET", Path: "/user/keys", Op: "userCurrentListKeys", h: a.listMyKeys},
		{Method: "POST", Path: "/user/keys", Op: "userCurrentPostKey", h: a.addUserKey("")},
		{Method: "GET", Path: "/user/keys/{id}", Op: "userCurrentGetKey", h: a.getUserKey},
		{Method: "DELETE", Path: "/user/keys/{id}", Op: "userCurrentDeleteKey", h: a.deleteUserKey("")},
		{Method: "GET", Path: "/users/{username}/keys", Op: "userListKeys", h: a.listUserKeys},
		{Method: "POST", Path: "/admin/users/{username}/keys", Op: "adminCreatePublicKey", h: a.addUserKey("username")},
		{Method: "DELETE", Path: "/admin/users/{username}/keys/{id}", Op: "adminDeleteUserPublicKey", h: a.deleteUserKey("username")},
		{Method: "GET", Path: rp, Op: "repoListKeys", h: a.listDeployKeys},
		{Method: "POST", Path: rp, Op: "repoCreateKey", h: a.addDeployKey},
		{Method: "GET", Path: rp + "/{id}", Op: "repoGetKey", h: a.getDeployKey},
		{Method: "DELETE", Path: rp + "/{id}", Op: "repoDeleteKey", h: a.deleteDeployKey},
	}
}
