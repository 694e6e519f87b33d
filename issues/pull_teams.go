package issues

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TeamLookup finds the teams of a repository's owner for review requests
// and for branch protection's whitelists by team: forge/orgs.Ports, a
// trusted port (the service has checked the actor's rights on the
// repository before it asks). Without it (Config.TeamLookup nil) team
// reviewers are unknown (forge.ErrNotFound) and whitelisted teams admit
// nobody.
type TeamLookup interface {
	// OwnerTeam returns team name of owner ownerID and whether it has
	// repository repoID; a nil team and no error when the owner is not an
	// organisation; an error that is forge.ErrNotFound when there is no
	// such team.
	OwnerTeam(ctx context.Context, ownerID forge.ID, name string, repoID forge.ID) (*forge.Team, bool, error)
	// InOwnerTeams reports whether user userID is a member of one of the
	// teams names of owner ownerID.
	InOwnerTeams(ctx context.Context, ownerID forge.ID, names []string, userID forge.ID) (bool, error)
	// TeamsByID returns the teams of ids that exist, by id. Never nil.
	TeamsByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Team, error)
}

func (s *Service) teamLookup() TeamLookup { return s.cfg.TeamLookup }

// inWhitelistTeams reports whether the actor of a is a member of one of
// the teams names of the repository's owner.
func (s *Service) inWhitelistTeams(ctx context.Context, a *access, names []string) bool {
	tl := s.teamLookup()
	if tl == nil || len(names) == 0 || !a.actor.IsSignedIn() {
		return false
	}
	in, err := tl.InOwnerTeams(ctx, a.repo.OwnerID, names, a.actor.User.ID)
	return err == nil && in
}

// canMergeTeams is canMerge with the merge whitelist's teams (Forgejo's
// IsUserAllowedToMerge: a whitelisted user or a member of a whitelisted
// team).
func (s *Service) canMergeTeams(ctx context.Context, a *access, rule *repos.BranchProtection) bool {
	if canMerge(a, rule) {
		return true
	}
	return rule != nil && rule.EnableMergeWhitelist && s.inWhitelistTeams(ctx, a, rule.MergeWhitelistTeams)
}

// isOfficialTeams is isOfficial with the approvals whitelist's teams.
func (s *Service) isOfficialTeams(ctx context.Context, a *access, rule *repos.BranchProtection) bool {
	if isOfficial(a, rule) {
		return true
	}
	return rule != nil && rule.EnableApprovalsWhitelist && s.inWhitelistTeams(ctx, a, rule.ApprovalsWhitelistTeams)
}

// requestTeams resolves the team reviewers of a review request as
// Forgejo's apiReviewRequest: none when the owner is not an organisation;
// forge.ErrNotFound "Team '…' not exist" for an unknown team;
// forge.ErrInvalid (TeamReviewRequestRefusal, check filled with each
// team's TeamHasRepo) when the request is refused.
func (s *Service) requestTeams(ctx context.Context, a *access, names []string, add bool, check TeamReviewRequestCheck) ([]*forge.Team, error) {
	if len(names) == 0 {
		return nil, nil
	}
	tl := s.teamLookup()
	if tl == nil {
		return nil, reviewerNotFound("Team", names[0])
	}
	var out []*forge.Team
	for _, n := range names {
		t, has, err := tl.OwnerTeam(ctx, a.repo.OwnerID, n, a.repo.ID)
		if errors.Is(err, forge.ErrNotFound) {
			return nil, reviewerNotFound("Team", n)
		} else if err != nil {
			return nil, err
		}
		if t == nil {
			return nil, nil
		}
		check.TeamHasRepo = has
		if reason := TeamReviewRequestRefusal(check); reason != "" {
			return nil, notValidReviewRequest(reason, a.actor.UserID(), a.repo.ID)
		}
		dup := false
		for _, x := range out {
			dup = dup || x.ID == t.ID
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out, nil
}

// withActorTeams returns rule with the actor added to its merge and
// approvals whitelists of users when the actor is a member of one of their
// teams (so canMerge and isOfficial, pure, see the teams; the rule is
// copied, never changed). Called outside a transaction.
func (s *Service) withActorTeams(ctx context.Context, actor forge.Actor, ownerID forge.ID, rule *repos.BranchProtection) *repos.BranchProtection {
	if rule == nil || !actor.IsSignedIn() {
		return rule
	}
	a := &access{actor: actor, repo: &forge.Repository{OwnerID: ownerID}}
	merge := rule.EnableMergeWhitelist && s.inWhitelistTeams(ctx, a, rule.MergeWhitelistTeams)
	approve := rule.EnableApprovalsWhitelist && s.inWhitelistTeams(ctx, a, rule.ApprovalsWhitelistTeams)
	if !merge && !approve {
		return rule
	}
	c := *rule
	if merge {
		c.MergeWhitelistUserIDs = append(slices.Clone(rule.MergeWhitelistUserIDs), actor.User.ID)
	}
	if approve {
		c.ApprovalsWhitelistUserIDs = append(slices.Clone(rule.ApprovalsWhitelistUserIDs), actor.User.ID)
	}
	return &c
}

// teamRequests adds (or removes) the review requests of teams inside the
// transaction of reviewRequests, appending the requests made (or already
// there) to made, and those made now to told. A
// team request is official as Forgejo's IsOfficialReviewerTeam: a team of
// the approvals whitelist, else (no whitelist) a team writing code.
func (s *Service) teamRequests(ctx context.Context, tx Tx, ch *change, is *Issue, teams []*forge.Team, rule *repos.BranchProtection, add bool, now time.Time, made, told *[]*Review) error {
	for _, t := range teams {
		cur, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: is.ID, ReviewerTeamID: t.ID, Types: []ReviewType{ReviewRequest}}, all)
		if err != nil {
			return err
		}
		switch {
		case add && len(cur) == 0:
			r := &Review{IssueID: is.ID, Type: ReviewRequest, ReviewerTeamID: t.ID, Official: teamOfficial(t, rule), Created: now, Updated: now}
			if err := tx.CreateReview(ctx, r); err != nil {
				return err
			}
			*made, *told = append(*made, r), append(*told, r)
			if err := ch.comment(ctx, &Comment{Type: CommentReviewRequest, AssigneeTeamID: t.ID}); err != nil {
				return err
			}
		case add:
			*made = append(*made, cur[0])
		case len(cur) > 0:
			for _, r := range cur {
				if err := tx.DeleteReview(ctx, r.ID); err != nil {
					return err
				}
			}
			if err := ch.comment(ctx, &Comment{Type: CommentReviewRequest, AssigneeTeamID: t.ID, RemovedAssignee: true}); err != nil {
				return err
			}
		}
	}
	return nil
}

// teamOfficial is Forgejo's IsOfficialReviewerTeam.
func teamOfficial(t *forge.Team, rule *repos.BranchProtection) bool {
	if rule == nil {
		return false
	}
	if rule.EnableApprovalsWhitelist {
		return slices.ContainsFunc(rule.ApprovalsWhitelistTeams, func(n string) bool { return strings.EqualFold(n, t.Name) })
	}
	return t.Mode >= forge.AccessModeWrite || t.Units[forge.UnitCode] >= forge.AccessModeWrite
}

// fillTeams replaces the bare teams (id only) of views by the teams
// looked up.
func fillTeams(views []*ReviewView, teams []*forge.Team) {
	for _, v := range views {
		for _, t := range teams {
			if v.Team != nil && v.Team.ID == t.ID {
				v.Team = t
			}
		}
	}
}

// nameTeams fills the teams views carry by id only (requested teams,
// reviewing teams) from TeamLookup, outside any transaction; teams gone
// or unknown keep their id alone.
func (s *Service) nameTeams(ctx context.Context, teams []*forge.Team) {
	tl := s.teamLookup()
	if tl == nil || len(teams) == 0 {
		return
	}
	ids := make([]forge.ID, 0, len(teams))
	for _, t := range teams {
		ids = append(ids, t.ID)
	}
	found, err := tl.TeamsByID(ctx, ids)
	if err != nil {
		s.log.Debug("review teams", "err", err)
		return
	}
	for _, t := range teams {
		if f := found[t.ID]; f != nil {
			*t = *f
		}
	}
}

// nameReviewTeams is nameTeams for the reviewing teams of views.
func (s *Service) nameReviewTeams(ctx context.Context, views []*ReviewView) {
	var teams []*forge.Team
	for _, v := range views {
		if v != nil && v.Team != nil {
			teams = append(teams, v.Team)
		}
	}
	s.nameTeams(ctx, teams)
}
