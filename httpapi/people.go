package httpapi

import (
	"net/http"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// Handlers of the people operations: e-mail addresses, follows, blocks,
// settings and the avatar of users. package auth decides every rule
// (auth.Requirements, and each method's checks); these parse and answer.

// toEmail converts an address as Forgejo's convert.ToEmail and
// ToEmailSearch (the user's id and name are set by the lists that carry
// them).
func toEmail(e auth.EmailAddress) wire.Email {
	return wire.Email{Email: e.Email, Verified: e.Verified, Primary: e.Primary, UserID: e.UserID, UserName: e.UserName}
}

// emailError answers the refusals of e-mail operations: an address in use
// is 422 `Email address has been used: <e>` as in Forgejo's AddEmail
// (ctx.Error(422, …)), not the category's 409.
func (c *call) emailError(err error) {
	c.writeError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
}

// listEmails is GET /user/emails.
func (a *API) listEmails(c *call) {
	list, err := a.cfg.Auth.ListEmails(c.r.Context(), c.actor)
	jsonAs(c, http.StatusOK, list, err, c.emailError, each(toEmail))
}

// addEmails is POST /user/emails: 201 with all the actor's addresses.
func (a *API) addEmails(c *call) {
	var o wire.CreateEmailOption
	if !c.decode(&o) {
		return
	}
	list, err := a.cfg.Auth.AddEmails(c.r.Context(), c.actor, deref(o.Emails))
	jsonAs(c, http.StatusCreated, list, err, c.emailError, each(toEmail))
}

// deleteEmails is DELETE /user/emails: 204.
func (a *API) deleteEmails(c *call) {
	var o wire.DeleteEmailOption
	if !c.decode(&o) {
		return
	}
	c.noContentOr(a.cfg.Auth.DeleteEmails(c.r.Context(), c.actor, deref(o.Emails)), c.emailError)
}

// searchEmails is GET /admin/emails (every address; Forgejo's handler
// reads a keyword from a path parameter the route does not have) and
// /admin/emails/search?q= (search): a page with Link and X-Total-Count.
func (a *API) searchEmails(search bool) func(*call) {
	return func(c *call) {
		o := c.listOptions()
		q := ""
		if search {
			q = c.r.URL.Query().Get("q")
		}
		list, total, err := a.cfg.Auth.SearchEmails(c.r.Context(), c.actor, q, o)
		pageAs(c, list, total, o, err, c.emailError, each(toEmail))
	}
}

// adminUserEmails is GET /admin/users/{username}/emails.
func (a *API) adminUserEmails(c *call) {
	list, err := a.cfg.Auth.UserEmails(c.r.Context(), c.actor, c.pathValue("username"))
	jsonAs(c, http.StatusOK, list, err, c.emailError, each(toEmail))
}

// adminDeleteUserEmails is DELETE /admin/users/{username}/emails: 204.
func (a *API) adminDeleteUserEmails(c *call) {
	var o wire.DeleteEmailOption
	if !c.decode(&o) {
		return
	}
	c.noContentOr(a.cfg.Auth.DeleteUserEmails(c.r.Context(), c.actor, c.pathValue("username"), deref(o.Emails)), c.emailError)
}

// listFollows answers the followers or followings of {username} (the
// actor on /user/…): X-Total-Count, as Forgejo's listUserFollowers.
func (a *API) listFollows(following bool) func(*call) {
	return func(c *call) {
		o := c.listOptions()
		list, total, err := a.cfg.Auth.ListFollows(c.r.Context(), c.actor, c.pathValue("username"), following, o)
		totalAs(c, list, total, err, with(c.writeError), c.toUsers)
	}
}

// checkFollowing is GET /user/following/{username} and
// /users/{username}/following/{target}: 204 or 404.
func (a *API) checkFollowing(c *call) {
	name, target := "", c.pathValue("username")
	if t := c.pathValue("target"); t != "" {
		name, target = target, t
	}
	ok, err := a.cfg.Auth.IsFollowing(c.r.Context(), c.actor, name, target)
	c.presenceOr(ok, err, with(c.writeError))
}

// follow is PUT /user/following/{username}: 204; 403 when a block stands
// between the two.
func (a *API) follow(c *call) {
	c.noContentOr(a.cfg.Auth.Follow(c.r.Context(), c.actor, c.pathValue("username")), with(c.writeError))
}

// unfollow is DELETE /user/following/{username}: 204.
func (a *API) unfollow(c *call) {
	c.noContentOr(a.cfg.Auth.Unfollow(c.r.Context(), c.actor, c.pathValue("username")), with(c.writeError))
}

// blockUser is PUT /user/block/{username}: 204.
func (a *API) blockUser(c *call) {
	c.noContentOr(a.cfg.Auth.Block(c.r.Context(), c.actor, c.pathValue("username")), with(c.writeError))
}

// unblockUser is PUT /user/unblock/{username}: 204.
func (a *API) unblockUser(c *call) {
	c.noContentOr(a.cfg.Auth.Unblock(c.r.Context(), c.actor, c.pathValue("username")), with(c.writeError))
}

// listBlockedUsers is GET /user/list_blocked: Forgejo's BlockedUser is
// the blocked user's id and when; X-Total-Count.
func (a *API) listBlockedUsers(c *call) {
	list, total, err := a.cfg.Auth.ListBlocked(c.r.Context(), c.actor, c.listOptions())
	totalAs(c, list, total, err, with(c.writeError), each(func(b forge.Block) wire.BlockedUser {
		return wire.BlockedUser{BlockID: b.UserID, Created: apiTime(b.Created)}
	}))
}

// toSettings converts a user's settings as Forgejo's User2UserSettings.
func toSettings(s *auth.UserSettings) wire.UserSettings {
	u := s.User
	return wire.UserSettings{FullName: u.FullName, Website: u.Website, Location: u.Location, Pronouns: u.Pronouns,
		Language: u.Language, Description: u.Description, Theme: s.Settings.Theme, DiffViewStyle: s.Settings.DiffViewStyle,
		HideEmail: u.HideEmail, HidePronouns: u.HidePronouns, HideActivity: u.HideActivity,
		EnableRepoUnitHints: !s.Settings.DisableRepoUnitHints}
}

// getSettings is GET /user/settings.
func (a *API) getSettings(c *call) {
	s, err := a.cfg.Auth.Settings(c.r.Context(), c.actor)
	jsonAs(c, http.StatusOK, s, err, with(c.writeError), toSettings)
}

// editSettings is PATCH /user/settings: 200 with the settings after.
func (a *API) editSettings(c *call) {
	var o wire.UserSettingsOptions
	if !c.decode(&o) {
		return
	}
	s, err := a.cfg.Auth.EditSettings(c.r.Context(), c.actor, auth.SettingsEdit{FullName: o.FullName,
		Description: o.Description, Pronouns: o.Pronouns, Website: o.Website, Location: o.Location, Language: o.Language,
		Theme: o.Theme, DiffViewStyle: o.DiffViewStyle, HideEmail: o.HideEmail, HidePronouns: o.HidePronouns,
		HideActivity: o.HideActivity, EnableRepoUnitHints: o.EnableRepoUnitHints})
	jsonAs(c, http.StatusOK, s, err, with(c.writeError), toSettings)
}

// setUserAvatar is POST /user/avatar: `{"image": <base64>}`, 204.
func (a *API) setUserAvatar(c *call) {
	var o wire.UpdateUserAvatarOption
	img, ok := c.avatarImage(&o, &o.Image)
	if !ok {
		return
	}
	c.noContentOr(a.cfg.Auth.SetAvatar(c.r.Context(), c.actor, img), with(c.writeError))
}

// deleteUserAvatar is DELETE /user/avatar: 204.
func (a *API) deleteUserAvatar(c *call) {
	c.noContentOr(a.cfg.Auth.DeleteAvatar(c.r.Context(), c.actor), with(c.writeError))
}
