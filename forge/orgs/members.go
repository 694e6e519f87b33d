package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ListMembers returns one page of an organisation's members (GET
// /orgs/{org}/members): every member for members and site administrators,
// only the public members for others. Needs read:organization.
func (s *Service) ListMembers(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// ListPublicMembers returns one page of an organisation's public members.
// Needs read:organization.
func (s *Service) ListPublicMembers(ctx context.Context, actor forge.Actor, org string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return nil, 0, errTodo
}

// MemberAnswer is the answer of IsMember.
type MemberAnswer int

// IsMember answers, as Forgejo's orgIsMember.
const (
	// IsAMember: 204.
	IsAMember MemberAnswer = iota
	// NotAMember: 404.
	NotAMember
	// AskPublic: the actor may only learn of public membership: 302 to
	// /api/v1/orgs/{Org}/public_members/{User}.
	AskPublic
)

// MemberCheck is the answer of IsMember with the canonical names for the
// redirect.
type MemberCheck struct {
	Answer    MemberAnswer
	Org, User string
}

// IsMember tells whether user is a member of org as Forgejo's orgIsMember
// does: members and site administrators learn it (IsAMember or
// NotAMember); a non-member asking about themself gets NotAMember; anyone
// else is sent to the public membership check (AskPublic). Needs
// read:organization. forge.ErrNotFound for an unknown user or an
// organisation the actor may not see.
func (s *Service) IsMember(ctx context.Context, actor forge.Actor, org, user string) (MemberCheck, error) {
	return MemberCheck{}, errTodo
}

// IsPublicMember reports whether user is a public member of org. Needs
// read:organization. forge.ErrNotFound for an unknown user or an
// organisation the actor may not see.
func (s *Service) IsPublicMember(ctx context.Context, actor forge.Actor, org, user string) (bool, error) {
	return false, errTodo
}

// Publicize makes the actor's own membership public (PUT
// /orgs/{org}/public_members/{username}). Needs write:organization and a
// member (forge.ErrForbidden `Must be an organization member`);
// forge.ErrForbidden `Cannot publicize another member` for another user.
func (s *Service) Publicize(ctx context.Context, actor forge.Actor, org, user string) error {
	return errTodo
}

// Conceal hides the actor's own membership (DELETE
// /orgs/{org}/public_members/{username}); as Publicize, with `Cannot
// conceal another member`.
func (s *Service) Conceal(ctx context.Context, actor forge.Actor, org, user string) error {
	return errTodo
}

// RemoveMember removes user from org and from every team of it (DELETE
// /orgs/{org}/members/{username}). Needs write:organization and an owner.
// forge.ErrNotFound for an unknown user; removing the last owner is
// refused with forge.ErrInvalid (Forgejo's `user is the last member of
// owner team [uid: N]`).
func (s *Service) RemoveMember(ctx context.Context, actor forge.Actor, org, user string) error {
	return errTodo
}
