package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the organisation service's trusted ports: the team lookups
// the issues service makes (issues.TeamLookup) once it has checked the
// actor's rights on the repository, with no actor of their own. They are
// for the composition root (forge/site), which hands them to the issues
// service: Ports check nothing. Only NewWithPorts makes one.
type Ports struct{ s *Service }

// NewWithPorts is New, with the service's trusted ports (a value
// only the caller receives), for the composition root. New(cfg) is the
// service without them.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// OwnerTeam finds team name of the repository owner ownerID for a review
// request on repository repoID (issues.TeamLookup). It returns a nil team
// and no error when the owner is not an organisation (Forgejo ignores
// team reviewers then), the team and whether it has the repository
// otherwise, and an error that is forge.ErrNotFound when the organisation
// has no such team. The caller (the issues service) has checked the
// actor's rights on the repository.
func (p *Ports) OwnerTeam(ctx context.Context, ownerID forge.ID, name string, repoID forge.ID) (*forge.Team, bool, error) {
	s := p.s
	var (
		t   *forge.Team
		has bool
	)
	err := s.store.View(ctx, func(tx Tx) error {
		o, err := tx.UserByID(ctx, ownerID)
		if err != nil {
			return err
		}
		if !o.IsOrganization() {
			return nil
		}
		if t, err = tx.TeamByName(ctx, o.ID, name); errors.Is(err, forge.ErrNotFound) {
			return ErrTeamNotFound
		} else if err != nil {
			return err
		}
		has, err = tx.HasTeamRepo(ctx, t.ID, repoID)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return t, has, nil
}

// InOwnerTeams reports whether user userID is a member of one of the
// teams names (matched ignoring case) of organisation ownerID (branch
// protection's merge and approvals whitelists by team). An owner that is
// not an organisation has no teams: false.
func (p *Ports) InOwnerTeams(ctx context.Context, ownerID forge.ID, names []string, userID forge.ID) (bool, error) {
	s := p.s
	if len(names) == 0 || userID == 0 {
		return false, nil
	}
	var in bool
	err := s.store.View(ctx, func(tx Tx) error {
		teams, err := all(func(lo forge.ListOptions) ([]*forge.Team, int64, error) {
			return tx.ListTeams(ctx, TeamFilter{OrgID: ownerID, MemberID: userID}, lo)
		})
		if err != nil {
			return err
		}
		for _, t := range teams {
			for _, n := range names {
				if strings.EqualFold(t.Name, n) {
					in = true
					return nil
				}
			}
		}
		return nil
	})
	return in, err
}

// TeamsByID returns the teams of ids that exist, by id (issues.TeamLookup:
// the names of teams a review was requested from). Never nil.
func (p *Ports) TeamsByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Team, error) {
	s := p.s
	out := map[forge.ID]*forge.Team{}
	err := s.store.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			if _, ok := out[id]; ok {
				continue
			}
			t, err := tx.Team(ctx, id)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			out[id] = t
		}
		return nil
	})
	return out, err
}
