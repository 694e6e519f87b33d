package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// Auth returns the store package auth consumes.
func (db *DB) Auth() auth.Store {
	return authStore{storeOf(db, func(t *tx) auth.Tx { return t }), db}
}

// authStore is auth.Store with FindToken (auth.TokenFinder).
type authStore struct {
	domainstore.Store[*tx, auth.Tx]
	db *DB
}

var (
	_ auth.Store       = authStore{}
	_ auth.TokenFinder = authStore{}
	_ auth.Tx          = (*tx)(nil)
)

// FindToken is TokenByHash outside a transaction, answered from the token
// cache while no write transaction has ended since it was read (see
// tokenCache). A miss reads the token with one statement on the read pool
// (its own snapshot); a user cache miss reads the user row with a second
// one, which sees that user as committed then.
//
// When several servers share the database (Dialect.Shared) nothing is
// cached: another server's write would not end this one's generation.
func (s authStore) FindToken(ctx context.Context, hash string) (*auth.AccessToken, *forge.User, error) {
	if s.db.d.Shared {
		return (&tx{db: s.db, pool: s.db.read, readOnly: true}).TokenByHash(ctx, hash)
	}
	now, gen := time.Now(), s.db.writes.load()
	if t, u := s.db.tokens.get(hash, gen, now); t != nil {
		return t, u, nil
	}
	t, u, err := (&tx{db: s.db, pool: s.db.read, readOnly: true}).TokenByHash(ctx, hash)
	if err == nil {
		s.db.tokens.put(hash, gen, s.db.writes.load(), now, t, u)
	}
	return t, u, err
}

const userCols = `u.id, u.name, u.full_name, u.email, u.hide_email, u.location, u.website,
	u.description, u.pronouns, u.language, u.visibility, u.is_admin, u.is_active, u.prohibit_login,
	u.restricted, u.must_change_password, u.login_source, u.login_name, u.allow_git_hook,
	u.allow_import_local, u.allow_create_organization, u.max_repo_creation,
	u.created_unix, u.updated_unix, u.last_login_unix, u.type, u.avatar, u.repo_admin_change_team_access,
	u.num_followers, u.num_following, u.keep_pronouns_private, u.keep_activity_private`

// userDest returns the user and the scan destinations matching userCols.
func userDest() (*forge.User, []any, func()) {
	u := &forge.User{}
	var created, updated, login int64
	dest := []any{&u.ID, &u.Name, &u.FullName, &u.Email, &u.HideEmail, &u.Location, &u.Website,
		&u.Description, &u.Pronouns, &u.Language, &u.Visibility, &u.IsAdmin, &u.IsActive, &u.ProhibitLogin,
		&u.Restricted, &u.MustChangePassword, &u.LoginSource, &u.LoginName, &u.AllowGitHook,
		&u.AllowImportLocal, &u.AllowCreateOrganization, &u.MaxRepoCreation,
		&created, &updated, &login, &u.Type, &u.Avatar, &u.RepoAdminChangeTeamAccess,
		&u.NumFollowers, &u.NumFollowing, &u.HidePronouns, &u.HideActivity}
	return u, dest, func() {
		u.Created, u.Updated, u.LastLogin = fromUnix(created), fromUnix(updated), fromUnix(login)
	}
}

func fromUnix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func toUnix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func (t *tx) userWhere(ctx context.Context, what, query string, args ...any) (*forge.User, error) {
	u, dest, done := userDest()
	err := t.queryRow(ctx, query, args...).Scan(dest...)
	if err != nil {
		return nil, mapError(err, what)
	}
	done()
	return u, nil
}

func (t *tx) CreateUser(ctx context.Context, u *forge.User, passwordHash string) error {
	defaultVisibility(u)
	err := t.queryRow(ctx, sqlCreateUser,
		u.Name, strings.ToLower(u.Name), u.FullName, u.Email, strings.ToLower(u.Email),
		u.HideEmail, u.Location, u.Website, u.Description, u.Pronouns, u.Language, string(u.Visibility),
		u.IsAdmin, u.IsActive, u.ProhibitLogin, u.Restricted, u.MustChangePassword, u.LoginSource,
		u.LoginName, u.AllowGitHook, u.AllowImportLocal, u.AllowCreateOrganization, u.MaxRepoCreation,
		passwordHash, toUnix(u.Created), toUnix(u.Updated), toUnix(u.LastLogin), int(u.Type),
		u.Avatar, u.RepoAdminChangeTeamAccess, u.HidePronouns, u.HideActivity).Scan(&u.ID)
	return mapError(err, "create user")
}

func (t *tx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	return t.userWhere(ctx, "user", sqlUserByID, id)
}

func (t *tx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	return t.userWhere(ctx, "user", sqlUserByName, strings.ToLower(name))
}

func (t *tx) UserByEmail(ctx context.Context, email string) (*forge.User, error) {
	return t.userWhere(ctx, "user", sqlUserByEmail, strings.ToLower(email))
}

func (t *tx) UpdateUser(ctx context.Context, u *forge.User) error {
	defaultVisibility(u)
	res, err := t.exec(ctx, sqlUpdateUser,
		u.Name, strings.ToLower(u.Name), u.FullName, u.Email, strings.ToLower(u.Email), u.HideEmail,
		u.Location, u.Website, u.Description, u.Pronouns, u.Language, string(u.Visibility), u.IsAdmin,
		u.IsActive, u.ProhibitLogin, u.Restricted, u.MustChangePassword, u.LoginSource, u.LoginName,
		u.AllowGitHook, u.AllowImportLocal, u.AllowCreateOrganization, u.MaxRepoCreation,
		toUnix(u.Created), toUnix(u.Updated), toUnix(u.LastLogin), int(u.Type), u.Avatar,
		u.RepoAdminChangeTeamAccess, u.HidePronouns, u.HideActivity, u.ID)
	return affectedOne(res, err, "update user")
}

// affectedOne maps an Exec result that must touch exactly one row.
func affectedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return mapError(err, what)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return mapError(err, what)
	}
	if n == 0 {
		return mapError(sql.ErrNoRows, what)
	}
	return nil
}

// OwnsRepositories implements auth.Tx.
func (t *tx) OwnsRepositories(ctx context.Context, userID forge.ID) (bool, error) {
	var owns bool
	if err := t.queryRow(ctx, sqlUserOwnsRepos, userID).Scan(&owns); err != nil {
		return false, mapError(err, "owns repositories")
	}
	return owns, nil
}

// MemberOfOrgs implements auth.Tx: whether the user is a member of any
// organisation.
func (t *tx) MemberOfOrgs(ctx context.Context, userID forge.ID) (bool, error) {
	var member bool
	if err := t.queryRow(ctx, sqlMemberOfOrgs, userID).Scan(&member); err != nil {
		return false, mapError(err, "member of organisations")
	}
	return member, nil
}

// DeleteUser implements auth.Tx: a plain delete, the caller having checked
// that the user owns no repository. The foreign key from repository rows
// still refuses to orphan them: forge.ErrPrecondition, with no domain
// message.
func (t *tx) DeleteUser(ctx context.Context, id forge.ID) error {
	// The user's stars and watches go with the user (foreign keys): the
	// counters of the repositories they starred or watched follow.
	// So do its follows: the counters of the users on their other end.
	for _, q := range []string{sqlUncountFollowers, sqlUncountFollowing} {
		if _, err := t.exec(ctx, q, id); err != nil {
			return mapError(err, "delete user")
		}
	}
	for _, q := range []string{sqlUncountStars, sqlUncountWatches} {
		if _, err := t.exec(ctx, q, id, id); err != nil {
			return mapError(err, "delete user")
		}
	}
	res, err := t.exec(ctx, sqlDeleteUser, id)
	if isForeignKeyViolation(err) {
		return &forge.Error{Kind: forge.ErrPrecondition, Message: "delete user: rows still refer to the user", Err: err}
	}
	return affectedOne(res, err, "delete user")
}

var userSorts = map[string]string{
	"":                      "u.id ASC",
	"oldest":                "u.id ASC",
	"newest":                "u.id DESC",
	"alphabetically":        "u.lower_name ASC",
	"reversealphabetically": "u.lower_name DESC",
	"recentupdate":          "u.updated_unix DESC, u.id DESC",
	"leastupdate":           "u.updated_unix ASC, u.id ASC",
}

func (t *tx) ListUsers(ctx context.Context, f auth.UserFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	where, args := []string{"1=1"}, []any{}
	if f.LoginSource != nil {
		where, args = append(where, "u.login_source = ?"), append(args, *f.LoginSource)
	}
	if f.LoginName != "" {
		where, args = append(where, "u.login_name = ?"), append(args, f.LoginName)
	}
	if f.ID != 0 {
		where, args = append(where, "u.id = ?"), append(args, f.ID)
	}
	if f.IndividualsOnly {
		where, args = append(where, "u.type = ?"), append(args, forge.UserTypeIndividual)
	}
	if f.Keyword != "" {
		like := "%" + escapeLike(strings.ToLower(f.Keyword)) + "%"
		kw, kwArgs := "u.lower_name LIKE ? ESCAPE '\\' OR lower(u.full_name) LIKE ? ESCAPE '\\'", []any{like, like}
		if f.KeywordEmail {
			email := "lower(u.email) LIKE ? ESCAPE '\\'"
			kwArgs = append(kwArgs, like)
			if !f.HiddenEmails {
				email += " AND (NOT u.hide_email OR u.id = ?)"
				kwArgs = append(kwArgs, f.Self)
			}
			kw += " OR (" + email + ")"
		}
		where, args = append(where, "("+kw+")"), append(args, kwArgs...)
	}
	if len(f.Visibilities) > 0 {
		vis := strings.TrimSuffix(strings.Repeat("?,", len(f.Visibilities)), ",")
		where = append(where, "(u.visibility IN ("+vis+") OR u.id = ?)")
		for _, v := range f.Visibilities {
			args = append(args, string(v))
		}
		args = append(args, f.Self)
	}
	order, ok := userSorts[f.Sort]
	if !ok {
		order = userSorts[""]
	}
	cond := strings.Join(where, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM users u WHERE "+cond, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count users")
	}
	o = o.Normalize()
	users, err := queryAll(ctx, t, fromDest(userDest), "list users", "SELECT "+userCols+" FROM users u WHERE "+cond+
		" ORDER BY "+order+" LIMIT ? OFFSET ?", append(args, o.Limit, o.Offset())...)
	if err != nil {
		return nil, 0, err
	}
	return users, total, nil
}

func (t *tx) CountUsers(ctx context.Context, f auth.UserCount) (int64, error) {
	var n int64
	var allowed *bool
	if f.LoginAllowed != nil {
		prohibited := !*f.LoginAllowed
		allowed = &prohibited
	}
	err := t.queryRow(ctx, sqlCountUsers, flagArg(f.Admin), flagArg(f.Active), flagArg(allowed)).Scan(&n)
	return n, mapError(err, "count users")
}

// flagArg is a boolean filter as a query argument: NULL for no filter.
func flagArg(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func (t *tx) PasswordHash(ctx context.Context, id forge.ID) (string, error) {
	var h string
	err := t.queryRow(ctx, sqlPasswordHash, id).Scan(&h)
	return h, mapError(err, "user")
}

func (t *tx) SetPasswordHash(ctx context.Context, id forge.ID, hash string) error {
	res, err := t.exec(ctx, sqlSetPasswordHash, hash, id)
	return affectedOne(res, err, "set password")
}

const tokenCols = `t.id, t.uid, t.name, t.token_hash, t.token_last_eight, t.scope, t.created_unix, t.updated_unix`

func tokenDest() (*auth.AccessToken, []any, func() error) {
	tk := &auth.AccessToken{}
	var scope string
	var created, updated int64
	return tk, []any{&tk.ID, &tk.UserID, &tk.Name, &tk.Hash, &tk.LastEight, &scope, &created, &updated},
		func() error {
			s, err := forge.ParseScope(scope)
			tk.Scope, tk.Created, tk.Updated = s, fromUnix(created), fromUnix(updated)
			return err
		}
}

func (t *tx) CreateToken(ctx context.Context, tk *auth.AccessToken) error {
	err := t.queryRow(ctx, sqlCreateToken,
		tk.UserID, tk.Name, tk.Hash, tk.LastEight, tk.Scope.String(), toUnix(tk.Created), toUnix(tk.Updated)).
		Scan(&tk.ID)
	return mapError(err, "create token")
}

// TokenByHash runs on every authenticated request. Reading the token with
// its user's 28 columns costs more than twice a narrow read (modernc.org/sqlite
// describes every column of every result), so it reads the token and the
// user's version, and takes the user from the version-checked cache.
func (t *tx) TokenByHash(ctx context.Context, hash string) (*auth.AccessToken, *forge.User, error) {
	tk, dest, done := tokenDest()
	var version int64
	if err := t.queryRow(ctx, sqlTokenByHash, hash).Scan(append(dest, &version)...); err != nil {
		return nil, nil, mapError(err, "token")
	}
	if err := done(); err != nil {
		return nil, nil, err
	}
	if u := t.db.users.get(tk.UserID, version); u != nil {
		return tk, u, nil
	}
	u, dest, done2 := userDest()
	if err := t.queryRow(ctx, sqlUserVersion, tk.UserID).Scan(append(dest, &version)...); err != nil {
		return nil, nil, mapError(err, "user")
	}
	done2()
	if t.readOnly {
		t.db.users.put(u, version) // only committed rows enter the cache
	}
	return tk, u, nil
}

func (t *tx) scanTokens(ctx context.Context, what, query string, args ...any) ([]*auth.AccessToken, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, what)
	}
	defer rows.Close()
	list := []*auth.AccessToken{}
	for rows.Next() {
		tk, dest, done := tokenDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, mapError(err, what)
		}
		if err := done(); err != nil {
			return nil, err
		}
		list = append(list, tk)
	}
	return list, mapError(rows.Err(), what)
}

func (t *tx) ListTokens(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*auth.AccessToken, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountTokens, userID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count tokens")
	}
	o = o.Normalize()
	list, err := t.scanTokens(ctx, "list tokens", sqlListTokens, userID, o.Limit, o.Offset())
	return list, total, err
}

func (t *tx) TokensByName(ctx context.Context, userID forge.ID, name string) ([]*auth.AccessToken, error) {
	return t.scanTokens(ctx, "tokens", sqlTokensByName, userID, name)
}

func (t *tx) DeleteToken(ctx context.Context, userID, tokenID forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteToken, tokenID, userID)
	return affectedOne(res, err, "delete token")
}

func (t *tx) TouchToken(ctx context.Context, tokenID forge.ID, at time.Time) error {
	res, err := t.exec(ctx, sqlTouchToken, toUnix(at), tokenID)
	return affectedOne(res, err, "touch token")
}

// The fixed statements, prepared once by Open.
var (
	sqlUserByID   = prepared("SELECT " + userCols + " FROM users u WHERE u.id = ?")
	sqlUserByName = prepared("SELECT " + userCols + " FROM users u WHERE u.lower_name = ?")
	// Only people are found by e-mail (organisations' e-mails are not unique).
	sqlUserByEmail = prepared("SELECT " + userCols + " FROM users u WHERE u.lower_email = ? AND u.type = 0")
	sqlCountUsers  = prepared(`SELECT count(*) FROM users WHERE (CAST(?1 AS BOOLEAN) IS NULL OR is_admin = CAST(?1 AS BOOLEAN)) AND (CAST(?2 AS BOOLEAN) IS NULL OR is_active = CAST(?2 AS BOOLEAN)) AND (CAST(?3 AS BOOLEAN) IS NULL OR prohibit_login = CAST(?3 AS BOOLEAN))`)
	sqlTokenByHash = prepared("SELECT " + tokenCols + ", u.version" +
		" FROM access_token t JOIN users u ON u.id = t.uid WHERE t.token_hash = ?")
	sqlUserVersion = prepared("SELECT " + userCols + ", u.version FROM users u WHERE u.id = ?")
	sqlListTokens  = prepared("SELECT " + tokenCols +
		" FROM access_token t WHERE t.uid = ? ORDER BY t.id DESC LIMIT ? OFFSET ?")
	sqlTokensByName = prepared("SELECT " + tokenCols +
		" FROM access_token t WHERE t.uid = ? AND t.name = ? ORDER BY t.id")
	sqlCreateUser = prepared(`INSERT INTO users (name, lower_name, full_name, email, lower_email,
		hide_email, location, website, description, pronouns, language, visibility, is_admin, is_active,
		prohibit_login, restricted, must_change_password, login_source, login_name, allow_git_hook,
		allow_import_local, allow_create_organization, max_repo_creation, password_hash,
		created_unix, updated_unix, last_login_unix, type, avatar, repo_admin_change_team_access,
		keep_pronouns_private, keep_activity_private)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlUpdateUser = prepared(`UPDATE users SET name = ?, lower_name = ?, full_name = ?, email = ?,
		lower_email = ?, hide_email = ?, location = ?, website = ?, description = ?, pronouns = ?,
		language = ?, visibility = ?, is_admin = ?, is_active = ?, prohibit_login = ?, restricted = ?,
		must_change_password = ?, login_source = ?, login_name = ?, allow_git_hook = ?,
		allow_import_local = ?, allow_create_organization = ?, max_repo_creation = ?,
		created_unix = ?, updated_unix = ?, last_login_unix = ?, type = ?, avatar = ?,
		repo_admin_change_team_access = ?, keep_pronouns_private = ?, keep_activity_private = ?,
		version = version + 1 WHERE id = ?`)
	sqlDeleteUser    = prepared(`DELETE FROM users WHERE id = ?`)
	sqlUserOwnsRepos = prepared(`SELECT EXISTS (SELECT 1 FROM repository WHERE owner_id = ?)`)
	sqlMemberOfOrgs  = prepared(`SELECT EXISTS (SELECT 1 FROM org_user WHERE uid = ?)`)
	sqlUncountStars  = prepared(`UPDATE repository SET num_stars =
		(SELECT count(*) FROM star s WHERE s.repo_id = repository.id AND s.user_id <> ?1)
		WHERE id IN (SELECT repo_id FROM star WHERE user_id = ?2)`)
	sqlUncountWatches = prepared(`UPDATE repository SET num_watches =
		(SELECT count(*) FROM watch w WHERE w.repo_id = repository.id AND w.user_id <> ?1 AND w.mode IN (1, 3))
		WHERE id IN (SELECT repo_id FROM watch WHERE user_id = ?2)`)
	sqlPasswordHash    = prepared(`SELECT password_hash FROM users WHERE id = ?`)
	sqlSetPasswordHash = prepared(`UPDATE users SET password_hash = ?, version = version + 1 WHERE id = ?`)
	sqlCreateToken     = prepared(`INSERT INTO access_token (uid, name, token_hash, token_last_eight,
		scope, created_unix, updated_unix) VALUES (?,?,?,?,?,?,?) RETURNING id`)
	sqlCountTokens = prepared(`SELECT count(*) FROM access_token WHERE uid = ?`)
	sqlDeleteToken = prepared(`DELETE FROM access_token WHERE id = ? AND uid = ?`)
	sqlTouchToken  = prepared(`UPDATE access_token SET updated_unix = ? WHERE id = ?`)
)

// escapeLike escapes the LIKE wildcards of s for ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

// defaultVisibility gives a user with no visibility the column's default,
// public (Forgejo's default), so that no stored row has an empty one.
func defaultVisibility(u *forge.User) {
	if u.Visibility == "" {
		u.Visibility = forge.VisibilityPublic
	}
}
