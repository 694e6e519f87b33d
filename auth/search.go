package auth

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// SearchUsersOptions are the query of Forgejo's GET /users/search.
type SearchUsersOptions struct {
	// Keyword matches names and full names, and e-mails the actor may see.
	Keyword string
	// UID, when non-zero, keeps the user with that id.
	UID forge.ID
	// Sort is "oldest", "newest", "alphabetically" (the default),
	// "reversealphabetically", "recentupdate" or "leastupdate"; anything
	// else is the default.
	Sort string
}

// userSortOrders are the sort values SearchUsers accepts.
var userSortOrders = map[string]bool{"oldest": true, "newest": true, "alphabetically": true,
	"reversealphabetically": true, "recentupdate": true, "leastupdate": true}

// SearchUsers is Forgejo's user search: one page of the individual users
// (no organisations) matching o that the actor may see, and the number of
// all matches, each as the actor may see it (forge.User.VisibleTo: no
// e-mail for anonymous actors, no hidden e-mail for others, sign-in details
// only for the user and site administrators). Visibility follows CanSee: anonymous actors see public
// users, signed-in actors public and limited users and themselves, site
// administrators everyone; a public-only token sees public users only. The
// keyword matches an e-mail only when it is not hidden, or is the actor's,
// or the actor is a site administrator.
//
// As in Forgejo, UID GhostUserID (-1) and ActionsUserID (-2) answer the
// pseudo-user alone, whatever the other options.
//
// Errors: the actor's *forge.AccountStateError; forge.ErrForbidden when its
// credential lacks read:user.
func (s *Service) SearchUsers(ctx context.Context, actor forge.Actor, o SearchUsersOptions, lo forge.ListOptions) ([]*forge.User, int64, error) {
	if err := operations["userSearch"].Check(actor); err != nil {
		return nil, 0, err
	}
	switch o.UID {
	case GhostUserID:
		return []*forge.User{GhostUser().VisibleTo(actor)}, 1, nil
	case ActionsUserID:
		return []*forge.User{ActionsUser().VisibleTo(actor)}, 1, nil
	}
	f := SearchFilter(actor, o)
	var (
		users []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		users, total, err = tx.ListUsers(ctx, f, lo.Normalize())
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return visibleTo(actor, users), total, nil
}

// SearchFilter is the store filter of a user search by actor: the
// visibility rule of CanSee as a query.
func SearchFilter(actor forge.Actor, o SearchUsersOptions) UserFilter {
	f := UserFilter{
		ID:              o.UID,
		IndividualsOnly: true,
		Keyword:         strings.TrimSpace(o.Keyword),
		KeywordEmail:    true,
		Sort:            "alphabetically",
		Self:            actor.UserID(),
	}
	if userSortOrders[o.Sort] {
		f.Sort = o.Sort
	}
	switch {
	case actor.Scoped && actor.Scope.PublicOnly:
		f.Visibilities, f.Self = []forge.Visibility{forge.VisibilityPublic}, 0
	case actor.IsSiteAdmin():
		f.HiddenEmails = true
	case actor.IsSignedIn():
		f.Visibilities = []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited}
	default:
		f.Visibilities = []forge.Visibility{forge.VisibilityPublic}
	}
	return f
}

// Forgejo's pseudo-users: the ghost stands for deleted accounts, the
// Actions user for automation.
const (
	GhostUserID   forge.ID = -1
	ActionsUserID forge.ID = -2
)

// GhostUser is Forgejo's NewGhostUser.
func GhostUser() *forge.User {
	return &forge.User{ID: GhostUserID, Name: "Ghost", Visibility: forge.VisibilityPublic}
}

// ActionsUser is Forgejo's NewActionsUser.
func ActionsUser() *forge.User {
	return &forge.User{ID: ActionsUserID, Name: "forgejo-actions", FullName: "Forgejo Actions",
		Email: "noreply@forgejo.org", HideEmail: true, IsActive: true, LoginName: "forgejo-actions",
		AllowCreateOrganization: true, Visibility: forge.VisibilityPublic}
}
