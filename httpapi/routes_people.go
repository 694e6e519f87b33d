package httpapi

// peopleRoutes are the operations of users' e-mail addresses, follows,
// blocks, settings and avatar (Forgejo's /user, /users and /admin groups).
// package auth declares what each requires (auth.Requirements): the table
// derives the routes' scopes, token and administrator checks from it.
func (a *API) peopleRoutes() []route {
	return []route{
		{Method: "GET", Path: "/user/emails", Op: "userListEmails", h: a.listEmails},
		{Method: "POST", Path: "/user/emails", Op: "userAddEmail", h: a.addEmails},
		{Method: "DELETE", Path: "/user/emails", Op: "userDeleteEmail", h: a.deleteEmails},
		{Method: "GET", Path: "/admin/emails", Op: "adminGetAllEmails", h: a.searchEmails(false)},
		{Method: "GET", Path: "/admin/emails/search", Op: "adminSearchEmails", h: a.searchEmails(true)},
		{Method: "GET", Path: "/admin/users/{username}/emails", Op: "adminListUserEmails", h: a.adminUserEmails},
		{Method: "DELETE", Path: "/admin/users/{username}/emails", Op: "adminDeleteUserEmails", h: a.adminDeleteUserEmails},

		{Method: "GET", Path: "/user/followers", Op: "userCurrentListFollowers", h: a.listFollows(false)},
		{Method: "GET", Path: "/user/following", Op: "userCurrentListFollowing", h: a.listFollows(true)},
		{Method: "GET", Path: "/user/following/{username}", Op: "userCurrentCheckFollowing", h: a.checkFollowing},
		{Method: "PUT", Path: "/user/following/{username}", Op: "userCurrentPutFollow", h: a.follow},
		{Method: "DELETE", Path: "/user/following/{username}", Op: "userCurrentDeleteFollow", h: a.unfollow},
		{Method: "GET", Path: "/users/{username}/followers", Op: "userListFollowers", h: a.listFollows(false)},
		{Method: "GET", Path: "/users/{username}/following", Op: "userListFollowing", h: a.listFollows(true)},
		{Method: "GET", Path: "/users/{username}/following/{target}", Op: "userCheckFollowing", h: a.checkFollowing},

		{Method: "PUT", Path: "/user/block/{username}", Op: "userBlockUser", h: a.blockUser},
		{Method: "PUT", Path: "/user/unblock/{username}", Op: "userUnblockUser", h: a.unblockUser},
		{Method: "GET", Path: "/user/list_blocked", Op: "userListBlockedUsers", h: a.listBlockedUsers},

		{Method: "GET", Path: "/user/settings", Op: "getUserSettings", h: a.getSettings},
		{Method: "PATCH", Path: "/user/settings", Op: "updateUserSettings", h: a.editSettings},
		{Method: "POST", Path: "/user/avatar", Op: "userUpdateAvatar", h: a.setUserAvatar},
		{Method: "DELETE", Path: "/user/avatar", Op: "userDeleteAvatar", h: a.deleteUserAvatar},
	}
}
