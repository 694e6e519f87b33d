package forge

import (
	"strings"
	"time"
)

// Unit is a part of a repository that access is granted to separately
// (Forgejo's repository units). The values are Forgejo's unit keys.
type Unit string

// Repository units, with Forgejo's keys.
const (
	UnitCode           Unit = "repo.code"
	UnitIssues         Unit = "repo.issues"
	UnitExternalIssues Unit = "repo.ext_issues"
	UnitPulls          Unit = "repo.pulls"
	UnitReleases       Unit = "repo.releases"
	UnitWiki           Unit = "repo.wiki"
	UnitExternalWiki   Unit = "repo.ext_wiki"
	UnitProjects       Unit = "repo.projects"
	UnitPackages       Unit = "repo.packages"
	UnitActions        Unit = "repo.actions"
)

// Units lists every unit in Forgejo's order (the order of its unit types).
var Units = []Unit{
	UnitCode, UnitIssues, UnitPulls, UnitReleases, UnitWiki,
	UnitExternalWiki, UnitExternalIssues, UnitProjects, UnitPackages, UnitActions,
}

// ParseUnit finds a unit by its key, ignoring case; ok is false for an
// unknown key (Forgejo ignores those).
func ParseUnit(key string) (u Unit, ok bool) {
	k := Unit(strings.ToLower(key))
	for _, u := range Units {
		if u == k {
			return u, true
		}
	}
	return "", false
}

// External reports whether u links outside the forge (external tracker or
// wiki): at most read access applies to it.
func (u Unit) External() bool { return u == UnitExternalIssues || u == UnitExternalWiki }

// Permission is an actor's access to one repository: an overall Mode and,
// per unit, the access the actor has to that unit. It is what
// repos.Permission computes, and what every repository, issue and pull
// request rule consults.
type Permission struct {
	// Mode is the overall access (Forgejo's Permission.AccessMode): owner
	// and admin imply every unit.
	Mode AccessMode
	// Units holds the access per enabled unit of the repository (disabled
	// units are absent: none, even for owners); nil means every unit at
	// Mode.
	Units map[Unit]AccessMode
}

// Unit returns the actor's access to unit u.
func (p Permission) Unit(u Unit) AccessMode {
	if p.Units == nil {
		return p.Mode
	}
	return p.Units[u]
}

// CanRead reports whether the actor may read unit u.
func (p Permission) CanRead(u Unit) bool { return p.Unit(u) >= AccessModeRead }

// CanWrite reports whether the actor may write unit u.
func (p Permission) CanWrite(u Unit) bool { return p.Unit(u) >= AccessModeWrite }

// HasAccess reports whether the actor may see the repository at all: read
// access overall or to one unit (Forgejo's Permission.HasAccess).
func (p Permission) HasAccess() bool {
	if p.Mode >= AccessModeRead {
		return true
	}
	for _, m := range p.Units {
		if m >= AccessModeRead {
			return true
		}
	}
	return false
}

// OwnersTeam is the name of the team every organisation is created with:
// its members own the organisation. It is never left empty.
const OwnersTeam = "Owners"

// Team is a group of an organisation's members with an access to some or
// all of its repositories.
type Team struct {
	ID    ID
	OrgID ID
	// Name is unique in the organisation, ignoring case.
	Name        string
	Description string
	// Mode is the team's access (Forgejo's authorize): owner for the Owners
	// team, otherwise none, read, write or admin.
	Mode AccessMode
	// Units is the access per unit; units absent have none. Admin and
	// owner teams have every unit (external units at read).
	Units map[Unit]AccessMode
	// IncludesAllRepos gives the team every repository of the
	// organisation, present and future.
	IncludesAllRepos bool
	// CanCreateOrgRepo lets members create repositories in the organisation.
	CanCreateOrgRepo bool
	NumMembers       int
	NumRepos         int
}

// IsOwners reports whether t is the organisation's Owners team.
func (t *Team) IsOwners() bool {
	return t.Mode == AccessModeOwner && strings.EqualFold(t.Name, OwnersTeam)
}

// Unit returns the team's access to unit u.
func (t *Team) Unit(u Unit) AccessMode { return t.Units[u] }

// TeamGrant is what one team gives its members on one repository: the
// input of repos.Permission for organisation repositories.
type TeamGrant struct {
	TeamID ID
	Mode   AccessMode
	Units  map[Unit]AccessMode
}

// Membership is a user's membership of an organisation.
type Membership struct {
	OrgID, UserID ID
	// Public members are shown to everyone who may see the organisation.
	Public bool
}

// Block records that a user or organisation (Blocker) blocked a user.
type Block struct {
	BlockerID, UserID ID
	Created           time.Time
}
