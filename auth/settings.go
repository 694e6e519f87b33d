package auth

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Settings are a user's preferences that decide nothing others see (the
// privacy ones, HideEmail, HidePronouns and HideActivity, are on
// forge.User): Forgejo's theme, diff_view_style and
// enable_repo_unit_hints. The zero value is the default of an account
// that never set them but for EnableRepoUnitHints, which Forgejo turns on
// by default: DisableRepoUnitHints stores its negation so that the zero
// value is that default.
type Settings struct {
	Theme                string
	DiffViewStyle        string
	DisableRepoUnitHints bool
}

// UserSettings is what GET and PATCH /user/settings show: the profile
// fields of the user and its Settings.
type UserSettings struct {
	User     *forge.User
	Settings Settings
}

// SettingsEdit is a partial update of the actor's settings (Forgejo's
// UserSettingsOptions). A nil field is left alone.
type SettingsEdit struct {
	FullName, Description, Pronouns, Website, Location, Language *string
	Theme, DiffViewStyle                                         *string
	HideEmail, HidePronouns, HideActivity, EnableRepoUnitHints   *bool
}

// Settings returns the actor's settings. Needs a signed-in user with
// read:user.
func (s *Service) Settings(ctx context.Context, actor forge.Actor) (*UserSettings, error) {
	if err := start(actor, "getUserSettings"); err != nil {
		return nil, err
	}
	var out *UserSettings
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = settingsOf(ctx, tx, actor.User.ID)
		return err
	})
	return out, err
}

func settingsOf(ctx context.Context, tx Tx, id forge.ID) (*UserSettings, error) {
	u, err := tx.UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	st, err := tx.Settings(ctx, id)
	if err != nil {
		return nil, err
	}
	return &UserSettings{User: u, Settings: st}, nil
}

// EditSettings applies e to the actor's profile and settings in one
// transaction and returns them after (Forgejo's PATCH /user/settings).
// forge.ErrInvalid `full name is too long` or `[Website]: ValidUrl` as
// EditUser refuses them. Needs a signed-in user with write:user.
func (s *Service) EditSettings(ctx context.Context, actor forge.Actor, e SettingsEdit) (*UserSettings, error) {
	if err := start(actor, "updateUserSettings"); err != nil {
		return nil, err
	}
	if err := checkProfile(e.FullName, e.Website); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out *UserSettings
	err := s.store.Update(ctx, func(tx Tx) error {
		cur, err := settingsOf(ctx, tx, actor.User.ID)
		if err != nil {
			return err
		}
		u := *cur.User
		set(&u.FullName, e.FullName)
		set(&u.Description, e.Description)
		set(&u.Pronouns, e.Pronouns)
		set(&u.Website, e.Website)
		set(&u.Location, e.Location)
		set(&u.Language, e.Language)
		set(&u.HideEmail, e.HideEmail)
		set(&u.HidePronouns, e.HidePronouns)
		set(&u.HideActivity, e.HideActivity)
		if u != *cur.User {
			u.Updated = now
			if err := tx.UpdateUser(ctx, &u); err != nil {
				return err
			}
		}
		st := cur.Settings
		set(&st.Theme, e.Theme)
		set(&st.DiffViewStyle, e.DiffViewStyle)
		if e.EnableRepoUnitHints != nil {
			st.DisableRepoUnitHints = !*e.EnableRepoUnitHints
		}
		if st != cur.Settings {
			if err := tx.PutSettings(ctx, u.ID, st); err != nil {
				return err
			}
		}
		out = &UserSettings{User: &u, Settings: st}
		return nil
	})
	return out, err
}
