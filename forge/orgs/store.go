package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// Store is the persistence of organisations, teams, memberships and
// blocks. Update runs fn in one transaction and commits iff it returns nil;
// View reads one snapshot.
type Store interface {
	Update(ctx context.Context, fn func(Tx) error) error
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction over organisations and what hangs on them.
// Organisations are accounts (forge.User with Type
// forge.UserTypeOrganization) in the same name space as users.
type Tx interface {
	// UserByName finds a user or organisation ignoring case;
	// forge.ErrNotFound if none.
	UserByName(ctx context.Context, name string) (*forge.User, error)
	// UserByID returns forge.ErrNotFound if none.
	UserByID(ctx context.Context, id forge.ID) (*forge.User, error)
	// UsersByID returns, in one query, the accounts of ids that exist, by
	// ID; missing ids are absent. Never nil.
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)

	// CreateOrg inserts an account of type organisation (org.ID is set).
	// forge.ErrConflict if the name is taken by any account, ignoring case.
	// An organisation's e-mail is neither unique nor looked up.
	CreateOrg(ctx context.Context, org *forge.User) error
	// UpdateOrg writes every field of an organisation's account.
	// forge.ErrConflict on a taken name; forge.ErrNotFound if org.ID is no
	// organisation.
	UpdateOrg(ctx context.Context, org *forge.User) error
	// DeleteOrg removes an organisation with its teams, memberships and
	// blocks; forge.ErrNotFound if id is no organisation. The caller has
	// made sure it owns no repository.
	DeleteOrg(ctx context.Context, id forge.ID) error
	// ListOrgs returns one page of the organisations matching f ordered by
	// name, and their number.
	ListOrgs(ctx context.Context, f OrgFilter, o forge.ListOptions) ([]*forge.User, int64, error)
	// OwnsRepositories reports whether the account owns a repository, in
	// any status.
	OwnsRepositories(ctx context.Context, ownerID forge.ID) (bool, error)

	// SetMember adds a member, or changes whether the membership is public.
	SetMember(ctx context.Context, m forge.Membership) error
	// Member returns a membership; forge.ErrNotFound if the user is no
	// member.
	Member(ctx context.Context, orgID, userID forge.ID) (forge.Membership, error)
	// DeleteMember removes a membership (no error if none).
	DeleteMember(ctx context.Context, orgID, userID forge.ID) error
	// ListMembers returns one page of an organisation's members (only the
	// public ones with publicOnly) ordered by name, and their number.
	ListMembers(ctx context.Context, orgID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.User, int64, error)

	// CreateTeam inserts t with its units (t.ID is set; NumMembers and
	// NumRepos are ignored). forge.ErrConflict if the organisation has a
	// team of that name, ignoring case.
	CreateTeam(ctx context.Context, t *forge.Team) error
	// Team returns a team by id; forge.ErrNotFound if none.
	Team(ctx context.Context, id forge.ID) (*forge.Team, error)
	// TeamByName finds an organisation's team ignoring case;
	// forge.ErrNotFound if none.
	TeamByName(ctx context.Context, orgID forge.ID, name string) (*forge.Team, error)
	// UpdateTeam writes every field of t and replaces its units.
	// forge.ErrConflict on a taken name.
	UpdateTeam(ctx context.Context, t *forge.Team) error
	// DeleteTeam removes a team with its members and repositories;
	// forge.ErrNotFound if none.
	DeleteTeam(ctx context.Context, id forge.ID) error
	// ListTeams returns one page of the teams matching f ordered by name,
	// and their number. Teams carry NumMembers and NumRepos, counted.
	ListTeams(ctx context.Context, f TeamFilter, o forge.ListOptions) ([]*forge.Team, int64, error)

	// AddTeamMember adds a user to a team (no error if already in it).
	AddTeamMember(ctx context.Context, teamID, userID forge.ID) error
	// RemoveTeamMember removes a user from a team; forge.ErrNotFound if
	// not in it.
	RemoveTeamMember(ctx context.Context, teamID, userID forge.ID) error
	// IsTeamMember reports whether the user is in the team.
	IsTeamMember(ctx context.Context, teamID, userID forge.ID) (bool, error)
	// ListTeamMembers returns one page of a team's members ordered by
	// name, and their number.
	ListTeamMembers(ctx context.Context, teamID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error)

	// AddTeamRepo gives a team a repository (no error if it has it).
	AddTeamRepo(ctx context.Context, teamID, repoID forge.ID) error
	// RemoveTeamRepo takes a repository from a team; forge.ErrNotFound if
	// the team does not have it.
	RemoveTeamRepo(ctx context.Context, teamID, repoID forge.ID) error
	// HasTeamRepo reports whether the team has the repository.
	HasTeamRepo(ctx context.Context, teamID, repoID forge.ID) (bool, error)
	// ListTeamRepos returns one page of a team's ready repositories
	// ordered by name, and their number; with publicOnly, only its public
	// repositories (for tokens restricted to public resources).
	ListTeamRepos(ctx context.Context, teamID forge.ID, publicOnly bool, o forge.ListOptions) ([]*forge.Repository, int64, error)
	// RepoByName finds an owner's repository ignoring case, whatever its
	// status; forge.ErrNotFound if none.
	RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error)
	// ListOwnerRepoIDs returns the ids of every ready repository of an
	// owner (to fill a team that includes all repositories).
	ListOwnerRepoIDs(ctx context.Context, ownerID forge.ID) ([]forge.ID, error)

	// SetBlock records that blockerID blocks userID (no error if it does).
	SetBlock(ctx context.Context, b forge.Block) error
	// DeleteBlock forgets a block; forge.ErrNotFound if none.
	DeleteBlock(ctx context.Context, blockerID, userID forge.ID) error
	// IsBlocked reports whether blockerID blocks userID.
	IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error)
	// ListBlocked returns one page of the blocks of blockerID, newest
	// first, and their number.
	ListBlocked(ctx context.Context, blockerID forge.ID, o forge.ListOptions) ([]forge.Block, int64, error)
	// DropBlocked removes what the blocked userID holds with blockerID,
	// as Forgejo's BlockUser: collaborations on and watches of the
	// repositories blockerID owns, whatever their status (their watch
	// counts follow), and the pending transfers userID offered blockerID.
	// No error if there is nothing.
	DropBlocked(ctx context.Context, blockerID, userID forge.ID) error
}

// OrgFilter narrows ListOrgs. Zero fields do not filter.
type OrgFilter struct {
	// Visibilities keeps organisations with one of these visibilities.
	Visibilities []forge.Visibility
	// MemberID keeps organisations the user is a member of.
	MemberID forge.ID
	// PublicMember, with MemberID, keeps only those where the membership
	// is public.
	PublicMember bool
	// ViewerMemberID keeps the organisations that user is a member of
	// (the only ones a restricted user sees), whatever MemberID says.
	ViewerMemberID forge.ID
}

// TeamFilter narrows ListTeams. Zero fields do not filter.
type TeamFilter struct {
	OrgID forge.ID
	// MemberID keeps the teams the user is in.
	MemberID forge.ID
	// RepoID keeps the teams that have the repository, a repository of
	// their organisation.
	RepoID forge.ID
	// OrgVisibilities keeps the teams of organisations with one of these
	// visibilities.
	OrgVisibilities []forge.Visibility
	// Keyword keeps teams whose name (or, with IncludeDesc, description)
	// contains it, ignoring case.
	Keyword     string
	IncludeDesc bool
}
