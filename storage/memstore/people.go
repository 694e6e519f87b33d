package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// followKey keys a follow: user follows follow.
type followKey struct{ user, follow forge.ID }

// followRow is a follow's order (its id) and time.
type followRow struct {
	id forge.ID
	at time.Time
}

// emailRow is a further e-mail address of a user.
type emailRow struct {
	uid      forge.ID
	email    string
	verified bool
}

// countFollow adds delta to the counters of a follow of k.
func (s *state) countFollow(k followKey, delta int64) {
	if r, ok := s.users[k.user]; ok {
		r.u.NumFollowing += delta
		s.users[k.user] = r
	}
	if r, ok := s.users[k.follow]; ok {
		r.u.NumFollowers += delta
		s.users[k.follow] = r
	}
}

// deleteUserPeople drops the follows (uncounting them), addresses and
// settings of user id, as the schema's ON DELETE CASCADE does.
func (s *state) deleteUserPeople(id forge.ID) {
	for k := range s.follows {
		if k.user == id || k.follow == id {
			s.countFollow(k, -1)
			delete(s.follows, k)
		}
	}
	deleteWhere(s.emails, func(_ forge.ID, e emailRow) bool { return e.uid == id })
	delete(s.settings, id)
}

func (t *tx) Follow(ctx context.Context, userID, followID forge.ID, at time.Time) error {
	if err := writeRef(ctx, t, t.st.users, userID, "follow user"); err != nil {
		return err
	}
	if _, ok := t.st.users[followID]; !ok {
		return missingRef("follow user")
	}
	k := followKey{userID, followID}
	if _, ok := t.st.follows[k]; ok {
		return nil
	}
	t.st.follows[k] = followRow{id: t.st.nextID("follow"), at: ts(at)}
	t.st.countFollow(k, 1)
	return nil
}

func (t *tx) Unfollow(ctx context.Context, userID, followID forge.ID) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := followKey{userID, followID}
	if _, ok := t.st.follows[k]; ok {
		delete(t.st.follows, k)
		t.st.countFollow(k, -1)
	}
	return nil
}

func (t *tx) IsFollowing(ctx context.Context, userID, followID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	_, ok := t.st.follows[followKey{userID, followID}]
	return ok, nil
}

func (t *tx) ListFollows(ctx context.Context, f auth.FollowFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	type hit struct {
		id forge.ID
		u  forge.User
	}
	var all []hit
	for k, r := range t.st.follows {
		other, subject := k.user, k.follow
		if f.Following {
			other, subject = k.follow, k.user
		}
		if subject != f.UserID {
			continue
		}
		if u, ok := t.st.users[other]; ok && f.Matches(&u.u) {
			all = append(all, hit{r.id, u.u})
		}
	}
	slices.SortFunc(all, func(a, b hit) int { return cmp.Compare(a.id, b.id) })
	lo, hi := o.Normalize().Bounds(len(all))
	out := make([]*forge.User, 0, hi-lo)
	for _, h := range all[lo:hi] {
		u := h.u
		out = append(out, &u)
	}
	return out, int64(len(all)), nil
}

func (t *tx) SetBlock(ctx context.Context, b forge.Block) error {
	return orgTx{t}.SetBlock(ctx, b)
}

func (t *tx) DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error {
	return orgTx{t}.DeleteBlock(ctx, blockerID, userID)
}

func (t *tx) ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error) {
	return orgTx{t}.ListBlocked(ctx, blockerID, o)
}

func (t *tx) DropBlocked(ctx context.Context, ownerID, userID forge.ID) error {
	return orgTx{t}.DropBlocked(ctx, ownerID, userID)
}

// emailIDs returns the ids of the further addresses, ascending.
func (s *state) emailIDs() []forge.ID {
	ids := make([]forge.ID, 0, len(s.emails))
	for id := range s.emails {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (t *tx) EmailAddresses(ctx context.Context, userID forge.ID) ([]auth.EmailAddress, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []auth.EmailAddress{}
	for _, id := range t.st.emailIDs() {
		if e := t.st.emails[id]; e.uid == userID {
			out = append(out, auth.EmailAddress{UserID: userID, Email: e.email, Verified: e.verified})
		}
	}
	return out, nil
}

func (t *tx) AddEmailAddress(ctx context.Context, e auth.EmailAddress) error {
	if err := writeRef(ctx, t, t.st.users, e.UserID, "add e-mail address"); err != nil {
		return err
	}
	if err := conflictIf(t.st.emails, func(o emailRow) bool { return strings.EqualFold(o.email, e.Email) }, "e-mail address"); err != nil {
		return err
	}
	t.st.emails[t.st.nextID("email_address")] = emailRow{uid: e.UserID, email: e.Email, verified: e.Verified}
	return nil
}

func (t *tx) DeleteEmailAddress(ctx context.Context, userID forge.ID, email string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	for id, e := range t.st.emails {
		if e.uid == userID && strings.EqualFold(e.email, email) {
			delete(t.st.emails, id)
			return nil
		}
	}
	return notFound("e-mail address")
}

func (t *tx) EmailAddressOwner(ctx context.Context, email string) (forge.ID, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	for _, e := range t.st.emails {
		if strings.EqualFold(e.email, email) {
			return e.uid, nil
		}
	}
	return 0, notFound("e-mail address")
}

func (t *tx) SearchEmails(ctx context.Context, keyword string, o forge.ListOptions) ([]auth.EmailAddress, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	kw := strings.ToLower(keyword)
	var all []auth.EmailAddress
	add := func(u forge.User, email string, verified, primary bool) {
		if strings.Contains(strings.ToLower(email), kw) || strings.Contains(strings.ToLower(u.Name), kw) ||
			strings.Contains(strings.ToLower(u.FullName), kw) {
			all = append(all, auth.EmailAddress{UserID: u.ID, UserName: u.Name, Email: email, Verified: verified, Primary: primary})
		}
	}
	for _, r := range t.st.users {
		if r.u.Type == forge.UserTypeIndividual && r.u.Email != "" {
			add(r.u, r.u.Email, r.u.IsActive, true)
		}
	}
	for _, e := range t.st.emails {
		if r, ok := t.st.users[e.uid]; ok {
			add(r.u, e.email, e.verified, false)
		}
	}
	slices.SortFunc(all, func(a, b auth.EmailAddress) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email)),
			-cmp.Compare(b2i(a.Primary), b2i(b.Primary)), cmp.Compare(a.UserID, b.UserID))
	})
	lo, hi := o.Normalize().Bounds(len(all))
	return append([]auth.EmailAddress{}, all[lo:hi]...), int64(len(all)), nil
}

func (t *tx) Settings(ctx context.Context, userID forge.ID) (auth.Settings, error) {
	if err := t.read(ctx); err != nil {
		return auth.Settings{}, err
	}
	return t.st.settings[userID], nil
}

func (t *tx) PutSettings(ctx context.Context, userID forge.ID, s auth.Settings) error {
	if err := writeRef(ctx, t, t.st.users, userID, "user settings"); err != nil {
		return err
	}
	t.st.settings[userID] = s
	return nil
}
