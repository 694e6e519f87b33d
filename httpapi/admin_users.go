package httpapi

import (
	"net/http"
	"strconv"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// adminListUsers is GET /admin/users.
func (a *API) adminListUsers(c *call) {
	q := c.r.URL.Query()
	f := auth.UserFilter{LoginName: q.Get("login_name"), Sort: q.Get("sort")}
	// Forgejo reads source_id with FormInt64: a value that is not a number
	// is no filter.
	if id, err := strconv.ParseInt(q.Get("source_id"), 10, 64); err == nil {
		f.LoginSource = &id
	}
	opts := c.listOptions()
	users, total, err := a.cfg.Auth.ListUsers(c.r.Context(), c.actor, f, opts)
	pageAs(c, users, total, opts, err, with(c.writeError), c.toUsers)
}

// adminCreateUser is POST /admin/users: 201 User. Forgejo's statuses:
// 422 for missing fields, bad names and e-mails and taken ones; 400 for a
// password that breaks the rules.
func (a *API) adminCreateUser(c *call) {
	var opt wire.CreateUserOption
	if !c.decode(&opt) {
		return
	}
	switch {
	case opt.Username == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Username]: Required")
		return
	case opt.Email == "":
		c.errorStatus(http.StatusUnprocessableEntity, "[Email]: Required")
		return
	}
	u, err := a.cfg.Auth.CreateUser(c.r.Context(), c.actor, auth.CreateUserOptions{
		Name:               opt.Username,
		Email:              opt.Email,
		FullName:           valueOf(opt.FullName),
		Password:           valueOf(opt.Password),
		LoginSource:        valueOf(opt.SourceID),
		LoginName:          valueOf(opt.LoginName),
		MustChangePassword: opt.MustChangePassword,
		Restricted:         opt.Restricted,
		Visibility:         forge.Visibility(valueOf(opt.Visibility)),
		Created:            opt.Created,
	})
	if err != nil {
		c.writeError(err, on(auth.ErrPasswordPolicy, http.StatusBadRequest),
			on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.json(http.StatusCreated, c.toUser(u))
}

// adminEditUser is PATCH /admin/users/{username}: 200 User. Forgejo's
// statuses: 422 for source_id without login_name; 400 for password and
// e-mail problems and for demoting the last administrator.
func (a *API) adminEditUser(c *call) {
	var opt wire.EditUserOption
	if !c.decode(&opt) {
		return
	}
	edit := auth.EditUserOptions{
		LoginSource: opt.SourceID, LoginName: opt.LoginName, Email: opt.Email, FullName: opt.FullName,
		Password: opt.Password, MustChangePassword: opt.MustChangePassword, Website: opt.Website,
		Location: opt.Location, Pronouns: opt.Pronouns, Description: opt.Description, Active: opt.Active,
		Admin: opt.Admin, AllowGitHook: opt.AllowGitHook, AllowImportLocal: opt.AllowImportLocal,
		MaxRepoCreation: opt.MaxRepoCreation, ProhibitLogin: opt.ProhibitLogin,
		AllowCreateOrganization: opt.AllowCreateOrganization, Restricted: opt.Restricted, HideEmail: opt.HideEmail,
	}
	if opt.Visibility != nil {
		v := forge.Visibility(*opt.Visibility)
		edit.Visibility = &v
	}
	u, err := a.cfg.Auth.EditUser(c.r.Context(), c.actor, c.pathValue("username"), edit)
	if err != nil {
		c.writeError(err, on(auth.ErrPasswordPolicy, http.StatusBadRequest),
			on(auth.ErrEmailInvalid, http.StatusBadRequest),
			on(auth.ErrLastAdmin, http.StatusBadRequest),
			on(forge.ErrConflict, http.StatusBadRequest))
		return
	}
	c.json(http.StatusOK, c.toUser(u))
}

// adminDeleteUser is DELETE /admin/users/{username}: 204; 422 for deleting
// oneself or the last administrator.
func (a *API) adminDeleteUser(c *call) {
	c.noContentOr(a.cfg.Auth.DeleteUser(c.r.Context(), c.actor, c.pathValue("username")), with(c.writeError))
}

// adminRenameUser is POST /admin/users/{username}/rename: 204; 422 for a
// missing, invalid or taken name.
func (a *API) adminRenameUser(c *call) {
	var opt wire.RenameUserOption
	if !c.decode(&opt) || !c.present("NewName", opt.NewName != "") {
		return
	}
	if _, err := a.cfg.Auth.RenameUser(c.r.Context(), c.actor, c.pathValue("username"), opt.NewName); err != nil {
		c.writeError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.noContent()
}
