package site

import (
	"context"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
)

// Mentions is markup.Mentions over the accounts: a name is mentionable
// when it is a user or organisation the actor may see (auth's Profile,
// Forgejo's IsUsernameMentionable with its visibility).
type Mentions struct{ Auth *auth.Service }

func (m Mentions) Mentionable(ctx context.Context, actor forge.Actor, name string) bool {
	_, err := m.Auth.Profile(ctx, actor, name)
	return err == nil
}
