package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// The people part of auth.Tx: follows, further e-mail addresses and
// settings. Blocks are the statements orgs_blocks.go writes.

// Follow implements auth.Tx: the row and both counters, the users' version
// moving as every update of their rows does.
func (t *tx) Follow(ctx context.Context, userID, followID forge.ID, at time.Time) error {
	res, err := t.exec(ctx, sqlFollow, userID, followID, toUnix(at))
	if err != nil {
		return mapError(err, "follow user")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return mapError(err, "follow user")
	}
	return t.countFollow(ctx, userID, followID, 1)
}

// countFollow adds delta to the counters of a follow of followID by
// userID.
func (t *tx) countFollow(ctx context.Context, userID, followID forge.ID, delta int) error {
	if _, err := t.exec(ctx, sqlCountFollowing, delta, userID); err != nil {
		return mapError(err, "count follows")
	}
	_, err := t.exec(ctx, sqlCountFollowers, delta, followID)
	return mapError(err, "count follows")
}

// Unfollow implements auth.Tx.
func (t *tx) Unfollow(ctx context.Context, userID, followID forge.ID) error {
	res, err := t.exec(ctx, sqlUnfollow, userID, followID)
	if err != nil {
		return mapError(err, "unfollow user")
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return mapError(err, "unfollow user")
	}
	return t.countFollow(ctx, userID, followID, -1)
}

// IsFollowing implements auth.Tx.
func (t *tx) IsFollowing(ctx context.Context, userID, followID forge.ID) (bool, error) {
	var ok bool
	err := t.queryRow(ctx, sqlIsFollowing, userID, followID).Scan(&ok)
	return ok, mapError(err, "follow")
}

// ListFollows implements auth.Tx: by follow id, the earliest first.
func (t *tx) ListFollows(ctx context.Context, f auth.FollowFilter, o forge.ListOptions) ([]*forge.User, int64, error) {
	join, where := "f.user_id = u.id", "f.follow_id = ?"
	if f.Following {
		join, where = "f.follow_id = u.id", "f.user_id = ?"
	}
	args := []any{f.UserID}
	if len(f.Visibilities) > 0 {
		where += " AND (u.visibility IN (" + strings.TrimSuffix(strings.Repeat("?,", len(f.Visibilities)), ",") + ") OR u.id = ?)"
		for _, v := range f.Visibilities {
			args = append(args, string(v))
		}
		args = append(args, f.Self)
	}
	from := " FROM follow f JOIN users u ON " + join + " WHERE " + where
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count follows")
	}
	o = o.Normalize()
	users, err := queryAll(ctx, t, fromDest(userDest), "list follows", "SELECT "+userCols+from+
		" ORDER BY f.id LIMIT ? OFFSET ?", append(args, o.Limit, o.Offset())...)
	return users, total, err
}

// EmailAddresses implements auth.Tx.
func (t *tx) EmailAddresses(ctx context.Context, userID forge.ID) ([]auth.EmailAddress, error) {
	return queryAll(ctx, t, func(r rowScanner) (auth.EmailAddress, error) {
		e := auth.EmailAddress{UserID: userID}
		err := r.Scan(&e.Email, &e.Verified)
		return e, err
	}, "e-mail addresses", sqlEmailAddresses, userID)
}

// AddEmailAddress implements auth.Tx.
func (t *tx) AddEmailAddress(ctx context.Context, e auth.EmailAddress) error {
	_, err := t.exec(ctx, sqlAddEmail, e.UserID, e.Email, strings.ToLower(e.Email), e.Verified)
	return mapError(err, "add e-mail address")
}

// DeleteEmailAddress implements auth.Tx.
func (t *tx) DeleteEmailAddress(ctx context.Context, userID forge.ID, email string) error {
	res, err := t.exec(ctx, sqlDeleteEmail, userID, strings.ToLower(email))
	return affectedOne(res, err, "delete e-mail address")
}

// EmailAddressOwner implements auth.Tx.
func (t *tx) EmailAddressOwner(ctx context.Context, email string) (forge.ID, error) {
	var id forge.ID
	err := t.queryRow(ctx, sqlEmailOwner, strings.ToLower(email)).Scan(&id)
	return id, mapError(err, "e-mail address")
}

// SearchEmails implements auth.Tx over the primary addresses of people and
// the further ones.
func (t *tx) SearchEmails(ctx context.Context, keyword string, o forge.ListOptions) ([]auth.EmailAddress, int64, error) {
	like := "%" + escapeLike(strings.ToLower(keyword)) + "%"
	var total int64
	if err := t.queryRow(ctx, sqlCountEmails, like).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count e-mail addresses")
	}
	o = o.Normalize()
	list, err := queryAll(ctx, t, func(r rowScanner) (auth.EmailAddress, error) {
		var e auth.EmailAddress
		err := r.Scan(&e.UserID, &e.UserName, &e.Email, &e.Verified, &e.Primary)
		return e, err
	}, "search e-mail addresses", sqlSearchEmails, like, o.Limit, o.Offset())
	return list, total, err
}

// Settings implements auth.Tx.
func (t *tx) Settings(ctx context.Context, userID forge.ID) (auth.Settings, error) {
	var s auth.Settings
	err := t.queryRow(ctx, sqlSettings, userID).Scan(&s.Theme, &s.DiffViewStyle, &s.DisableRepoUnitHints)
	if errors.Is(err, sql.ErrNoRows) {
		return auth.Settings{}, nil
	}
	return s, mapError(err, "user settings")
}

// PutSettings implements auth.Tx.
func (t *tx) PutSettings(ctx context.Context, userID forge.ID, s auth.Settings) error {
	_, err := t.exec(ctx, sqlPutSettings, userID, s.Theme, s.DiffViewStyle, s.DisableRepoUnitHints)
	return mapError(err, "user settings")
}

// emailsOfPeople is every person's addresses: the primary one (verified as
// the account is active) and the further ones, with the user.
const emailsOfPeople = `(SELECT u.id AS uid, u.name AS name, u.full_name AS full_name, u.email AS email,
		u.lower_email AS lower_email, u.is_active AS verified, 1 AS is_primary
		FROM users u WHERE u.type = 0 AND u.email <> ''
	UNION ALL
	SELECT u.id, u.name, u.full_name, e.email, e.lower_email, e.is_activated, 0
		FROM email_address e JOIN users u ON u.id = e.uid) m
	WHERE m.lower_email LIKE ?1 ESCAPE '\' OR lower(m.name) LIKE ?1 ESCAPE '\' OR lower(m.full_name) LIKE ?1 ESCAPE '\'`

var (
	sqlFollow = prepared(`INSERT INTO follow (user_id, follow_id, created_unix) VALUES (?, ?, ?)
		ON CONFLICT DO NOTHING`)
	// The users user ?1 follows lose a follower, those following it one
	// followed account.
	sqlUncountFollowers = prepared(`UPDATE users SET num_followers = num_followers - 1, version = version + 1
		WHERE id IN (SELECT follow_id FROM follow WHERE user_id = ?)`)
	sqlUncountFollowing = prepared(`UPDATE users SET num_following = num_following - 1, version = version + 1
		WHERE id IN (SELECT user_id FROM follow WHERE follow_id = ?)`)
	sqlUnfollow       = prepared(`DELETE FROM follow WHERE user_id = ? AND follow_id = ?`)
	sqlIsFollowing    = prepared(`SELECT EXISTS (SELECT 1 FROM follow WHERE user_id = ? AND follow_id = ?)`)
	sqlCountFollowing = prepared(`UPDATE users SET num_following = num_following + ?, version = version + 1 WHERE id = ?`)
	sqlCountFollowers = prepared(`UPDATE users SET num_followers = num_followers + ?, version = version + 1 WHERE id = ?`)
	sqlEmailAddresses = prepared(`SELECT email, is_activated FROM email_address WHERE uid = ? ORDER BY id`)
	sqlAddEmail       = prepared(`INSERT INTO email_address (uid, email, lower_email, is_activated) VALUES (?, ?, ?, ?)`)
	sqlDeleteEmail    = prepared(`DELETE FROM email_address WHERE uid = ? AND lower_email = ?`)
	sqlEmailOwner     = prepared(`SELECT uid FROM email_address WHERE lower_email = ?`)
	sqlCountEmails    = prepared(`SELECT count(*) FROM ` + emailsOfPeople)
	sqlSearchEmails   = prepared(`SELECT m.uid, m.name, m.email, m.verified, m.is_primary FROM ` + emailsOfPeople +
		` ORDER BY m.lower_email, m.is_primary DESC, m.uid LIMIT ?2 OFFSET ?3`)
	sqlSettings    = prepared(`SELECT theme, diff_view_style, disable_repo_unit_hints FROM user_setting WHERE user_id = ?`)
	sqlPutSettings = prepared(`INSERT INTO user_setting (user_id, theme, diff_view_style, disable_repo_unit_hints)
		VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET theme = excluded.theme,
		diff_view_style = excluded.diff_view_style, disable_repo_unit_hints = excluded.disable_repo_unit_hints`)
)
