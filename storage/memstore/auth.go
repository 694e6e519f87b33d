package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// authStore is auth.Store with FindToken (auth.TokenFinder).
type authStore struct {
	domainstore.Store[*tx, auth.Tx]
	s *Store
}

var (
	_ auth.Store       = authStore{}
	_ auth.TokenFinder = authStore{} // every token request: no transaction to set up
	_ auth.Tx          = (*tx)(nil)
)

// FindToken is TokenByHash on the last committed state.
func (a authStore) FindToken(ctx context.Context, hash string) (*auth.AccessToken, *forge.User, error) {
	var tk *auth.AccessToken
	var u *forge.User
	err := a.s.view(ctx, func(t *tx) error {
		var err error
		tk, u, err = t.TokenByHash(ctx, hash)
		return err
	})
	return tk, u, err
}

func storedUser(u *forge.User) forge.User {
	if u.Visibility == "" {
		u.Visibility = forge.VisibilityPublic // the SQL column's default
	}
	v := *u
	v.Created, v.Updated, v.LastLogin = ts(u.Created), ts(u.Updated), ts(u.LastLogin)
	return v
}

// userTaken reports whether another user than id has the name or e-mail.
func (s *state) userTaken(id forge.ID, name, email string) bool {
	for _, r := range s.users {
		// Organisations' e-mails are neither unique nor looked up.
		if r.u.ID != id && (strings.EqualFold(r.u.Name, name) ||
			r.u.Type == forge.UserTypeIndividual && strings.EqualFold(r.u.Email, email)) {
			return true
		}
	}
	return false
}

func (t *tx) CreateUser(ctx context.Context, u *forge.User, passwordHash string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if t.st.userTaken(0, u.Name, u.Email) {
		return conflict("create user")
	}
	v := storedUser(u)
	v.NumFollowers, v.NumFollowing = 0, 0 // kept by Follow and Unfollow
	v.ID = t.st.nextID("users")
	t.st.users[v.ID] = userRow{u: v, hash: passwordHash}
	u.ID = v.ID
	return nil
}

func (t *tx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	r, ok := t.st.users[id]
	if !ok {
		return nil, notFound("user")
	}
	u := r.u
	return &u, nil
}

func (t *tx) userWhere(ctx context.Context, match func(*forge.User) bool) (*forge.User, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, r := range t.st.users {
		if match(&r.u) {
			u := r.u
			return &u, nil
		}
	}
	return nil, notFound("user")
}

func (t *tx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	return t.userWhere(ctx, func(u *forge.User) bool { return strings.EqualFold(u.Name, name) })
}

// UserByEmail never finds an organisation (their e-mails are not looked
// up).
func (t *tx) UserByEmail(ctx context.Context, email string) (*forge.User, error) {
	return t.userWhere(ctx, func(u *forge.User) bool {
		return u.Type == forge.UserTypeIndividual && strings.EqualFold(u.Email, email)
	})
}

func (t *tx) UpdateUser(ctx context.Context, u *forge.User) error {
	r, err := writeRow(ctx, t, t.st.users, u.ID, "update user")
	if err != nil {
		return err
	}
	if t.st.userTaken(u.ID, u.Name, u.Email) {
		return conflict("update user")
	}
	counts := [2]int64{r.u.NumFollowers, r.u.NumFollowing} // never written by an update
	r.u = storedUser(u)
	r.u.NumFollowers, r.u.NumFollowing = counts[0], counts[1]
	t.st.users[u.ID] = r
	return nil
}

// OwnsRepositories implements auth.Tx.
func (t *tx) OwnsRepositories(ctx context.Context, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	for _, r := range t.st.repos {
		if r.OwnerID == userID {
			return true, nil
		}
	}
	return false, nil
}

// DeleteUser cascades as the SQL schema does: tokens, two-factor enrolment,
// collaborations, watches, stars, transfers, memberships of organisations
// and teams, and blocks naming the user go with it.
// It is a plain delete, the caller having checked that the user owns no
// repository; like the schema's foreign key it refuses to orphan
// repositories (forge.ErrPrecondition, with no domain message).
func (t *tx) DeleteUser(ctx context.Context, id forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for _, r := range t.st.repos {
		if r.OwnerID == id {
			return forge.Errorf(forge.ErrPrecondition, "delete user: rows still refer to the user")
		}
	}
	if _, ok := t.st.users[id]; !ok {
		return notFound("delete user")
	}
	t.st.deleteUserPeople(id) // people.go
	delete(t.st.users, id)
	delete(t.st.twoFactor, id)
	deleteWhere(t.st.tokens, func(_ forge.ID, tk auth.AccessToken) bool { return tk.UserID == id })
	deleteWhere(t.st.collabs, func(k pair, _ forge.AccessMode) bool { return k.user == id })
	t.st.deleteUserIssues(id)
	t.st.deleteUserPackages(id) // packages.go
	touched := map[forge.ID]bool{}
	for k := range t.st.watches {
		touched[k.repo] = touched[k.repo] || k.user == id
	}
	for k := range t.st.stars {
		touched[k.repo] = touched[k.repo] || k.user == id
	}
	deleteWhere(t.st.watches, func(k pair, _ watchRow) bool { return k.user == id })
	deleteWhere(t.st.stars, func(k pair, _ starRow) bool { return k.user == id })
	// The counters of the repositories the user starred or watched follow.
	for repo, ok := range touched {
		if ok {
			t.st.recountWatches(repo)
			t.st.recountStars(repo)
		}
	}
	deleteWhere(t.st.transfers, func(_ forge.ID, tr transferRow) bool { return tr.doer == id || tr.recipient == id })
	// Memberships of organisations and teams, and blocks by and of the
	// user, go as the schema's ON DELETE CASCADE takes them.
	// An organisation's teams go with it.
	teams := map[forge.ID]bool{}
	for tid, tm := range t.st.teams {
		teams[tid] = tm.OrgID == id
	}
	t.st.deleteTeams(teams)
	deleteWhere(t.st.orgMembers, func(k orgUser, _ bool) bool { return k.user == id || k.org == id })
	deleteWhere(t.st.teamUsers, func(k teamUser, _ struct{}) bool { return k.user == id })
	deleteWhere(t.st.blocks, func(k blockKey, _ time.Time) bool { return k.blocker == id || k.user == id })
	return nil
}

// MemberOfOrgs implements auth.Tx.
func (t *tx) MemberOfOrgs(ctx context.Context, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	for k := range t.st.orgMembers {
		if k.user == userID {
			return true, nil
		}
	}
	return false, nil
}

// deleteWhere deletes the entries for which del is true.
func deleteWhere[K comparable, V any](m map[K]V, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

func (t *tx) ListUsers(ctx context.Context, f auth.UserFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var all []*forge.User
	for _, r := range t.st.users {
		if f.LoginSource != nil && r.u.LoginSource != *f.LoginSource {
			continue
		}
		if f.LoginName != "" && r.u.LoginName != f.LoginName {
			continue
		}
		if !matchUser(&r.u, f) {
			continue
		}
		u := r.u
		all = append(all, &u)
	}
	byID := func(a, b *forge.User) int { return cmp.Compare(a.ID, b.ID) }
	byName := func(a, b *forge.User) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), byID(a, b))
	}
	byUpdated := func(a, b *forge.User) int { return cmp.Or(a.Updated.Compare(b.Updated), byID(a, b)) }
	order := byID
	switch f.Sort {
	case "newest":
		order = reverse(byID)
	case "alphabetically":
		order = byName
	case "reversealphabetically":
		order = reverse(byName)
	case "recentupdate":
		order = reverse(byUpdated)
	case "leastupdate":
		order = byUpdated
	}
	slices.SortFunc(all, order)
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]*forge.User{}, all[lo:hi]...), int64(len(all)), nil
}

// matchUser applies the ID, type, keyword and visibility fields of f as
// storage/sqlite's query does.
func matchUser(u *forge.User, f auth.UserFilter) bool {
	if f.ID != 0 && u.ID != f.ID {
		return false
	}
	if f.IndividualsOnly && u.Type != forge.UserTypeIndividual {
		return false
	}
	if f.Keyword != "" {
		kw := strings.ToLower(f.Keyword)
		hit := strings.Contains(strings.ToLower(u.Name), kw) || strings.Contains(strings.ToLower(u.FullName), kw)
		if !hit && f.KeywordEmail && strings.Contains(strings.ToLower(u.Email), kw) {
			hit = f.HiddenEmails || !u.HideEmail || u.ID == f.Self
		}
		if !hit {
			return false
		}
	}
	if len(f.Visibilities) > 0 && u.ID != f.Self && !slices.Contains(f.Visibilities, u.Visibility) {
		return false
	}
	return true
}

func reverse[T any](f func(a, b T) int) func(a, b T) int { return func(a, b T) int { return f(b, a) } }

func (t *tx) CountUsers(ctx context.Context, f auth.UserCount) (int64, error) {
	return countRows(ctx, t, t.st.users, func(r userRow) bool { return f.Matches(&r.u) })
}

func (t *tx) PasswordHash(ctx context.Context, id forge.ID) (string, error) {
	if err := t.read(ctx); err != nil {
		return "", err
	}
	r, ok := t.st.users[id]
	if !ok {
		return "", notFound("user")
	}
	return r.hash, nil
}

func (t *tx) SetPasswordHash(ctx context.Context, id forge.ID, hash string) error {
	return updateRow(ctx, t, t.st.users, id, "set password", func(r userRow) userRow {
		r.hash = hash
		return r
	})
}

func (t *tx) CreateToken(ctx context.Context, tk *auth.AccessToken) error {
	if err := writeRef(ctx, t, t.st.users, tk.UserID, "create token"); err != nil {
		return err
	}
	if err := conflictIf(t.st.tokens, func(o auth.AccessToken) bool {
		return o.Hash == tk.Hash || (o.UserID == tk.UserID && o.Name == tk.Name)
	}, "create token"); err != nil {
		return err
	}
	v := *tk
	v.ID = t.st.nextID("access_token")
	v.Token = "" // the clear value is never stored
	v.Created, v.Updated = ts(tk.Created), ts(tk.Updated)
	t.st.tokens[v.ID] = v
	tk.ID = v.ID
	return nil
}

func (t *tx) TokenByHash(ctx context.Context, hash string) (*auth.AccessToken, *forge.User, error) {
	if err := t.read(ctx); err != nil {
		return nil, nil, err
	}
	for _, tk := range t.st.tokens {
		if tk.Hash == hash {
			u := t.st.users[tk.UserID].u
			return &tk, &u, nil
		}
	}
	return nil, nil, notFound("token")
}

func (t *tx) tokensWhere(keep func(auth.AccessToken) bool) []*auth.AccessToken {
	list := []*auth.AccessToken{}
	for _, tk := range t.st.tokens {
		if keep(tk) {
			list = append(list, &tk)
		}
	}
	slices.SortFunc(list, func(a, b *auth.AccessToken) int { return cmp.Compare(a.ID, b.ID) })
	return list
}

func (t *tx) ListTokens(ctx context.Context, userID forge.ID, o forge.ListOptions) ([]*auth.AccessToken, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := t.tokensWhere(func(tk auth.AccessToken) bool { return tk.UserID == userID })
	slices.Reverse(all) // newest first
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]*auth.AccessToken{}, all[lo:hi]...), int64(len(all)), nil
}

func (t *tx) TokensByName(ctx context.Context, userID forge.ID, name string) ([]*auth.AccessToken, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	return t.tokensWhere(func(tk auth.AccessToken) bool { return tk.UserID == userID && tk.Name == name }), nil
}

func (t *tx) DeleteToken(ctx context.Context, userID, tokenID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if tk, ok := t.st.tokens[tokenID]; !ok || tk.UserID != userID {
		return notFound("delete token")
	}
	delete(t.st.tokens, tokenID)
	return nil
}

func (t *tx) TouchToken(ctx context.Context, tokenID forge.ID, at time.Time) error {
	return updateRow(ctx, t, t.st.tokens, tokenID, "touch token", func(tk auth.AccessToken) auth.AccessToken {
		tk.Updated = ts(at)
		return tk
	})
}

func (t *tx) CreateLoginSource(ctx context.Context, s *auth.LoginSource) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if err := conflictIf(t.st.sources, func(o auth.LoginSource) bool { return o.Name == s.Name }, "create login source"); err != nil {
		return err
	}
	v := *s
	v.ID = t.st.nextID("login_source")
	v.Created, v.Updated = ts(s.Created), ts(s.Updated)
	t.st.sources[v.ID] = v
	s.ID = v.ID
	return nil
}

func (t *tx) LoginSourceByID(ctx context.Context, id forge.ID) (*auth.LoginSource, error) {
	return readRow(ctx, t, t.st.sources, id, "login source")
}

func (t *tx) ListLoginSources(ctx context.Context) ([]*auth.LoginSource, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	list := []*auth.LoginSource{}
	for _, s := range t.st.sources {
		list = append(list, &s)
	}
	slices.SortFunc(list, func(a, b *auth.LoginSource) int { return cmp.Compare(a.ID, b.ID) })
	return list, nil
}

func (t *tx) TwoFactor(ctx context.Context, userID forge.ID) (*auth.TwoFactor, error) {
	return readRow(ctx, t, t.st.twoFactor, userID, "two-factor")
}

// PutTwoFactor replaces an enrolment but keeps its creation time, as the SQL
// upsert does.
func (t *tx) PutTwoFactor(ctx context.Context, tf *auth.TwoFactor) error {
	if err := writeRef(ctx, t, t.st.users, tf.UserID, "two-factor"); err != nil {
		return err
	}
	v := *tf
	v.Created, v.Updated = ts(tf.Created), ts(tf.Updated)
	if old, ok := t.st.twoFactor[tf.UserID]; ok {
		v.Created = old.Created
	}
	t.st.twoFactor[tf.UserID] = v
	return nil
}

func (t *tx) DeleteTwoFactor(ctx context.Context, userID forge.ID) error {
	return deleteRow(ctx, t, t.st.twoFactor, userID, "two-factor", nil)
}
