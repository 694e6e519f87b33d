package issues

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MentionTx records the users an issue's texts mention (Forgejo's
// issue_user.is_mentioned), read by IssueFilter.MentionedID.
type MentionTx interface {
	// AddMentions records that the issue mentions each user of userIDs;
	// recording one twice is no change. Mentions are never removed by an
	// edit (as Forgejo); they go with the issue or the user.
	// forge.ErrNotFound if the issue does not exist.
	AddMentions(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error
}

// ParseMentions returns the user names text mentions (`@name`), in order,
// each once ignoring case, leaving out mentions inside code (fenced blocks
// and inline code spans) and team mentions (`@org/team`), as Forgejo's
// FindAllMentionsMarkdown finds them (scanMentionSpans, textscan.go); the
// first DefaultMaxTextMentions mentions (users and teams together) are
// read, in linear time.
func ParseMentions(text string) []string {
	users, _ := scanMentions(text, DefaultMaxTextMentions)
	return users
}

// ParseTeamMentions returns the teams text mentions (`@org/team`) as
// "org/team", in order, each once ignoring case, leaving out mentions
// inside code.
func ParseTeamMentions(text string) []string {
	_, teams := scanMentions(text, DefaultMaxTextMentions)
	return teams
}

// scanMentions finds the user and the team mentions of text: the first
// max distinct ones (users and teams together; max < 0: all), in linear
// time.
func scanMentions(text string, max int) (users, teams []string) {
	seen := map[string]bool{}
	if max == 0 {
		return nil, nil
	}
	scanMentionSpans(blankCode(text), func(name string) bool {
		if k := strings.ToLower(name); !seen[k] {
			seen[k] = true
			if strings.Contains(name, "/") {
				teams = append(teams, name)
			} else {
				users = append(users, name)
			}
		}
		return max < 0 || len(seen) < max
	})
	return users, teams
}

// TeamMembers resolves the team an `@org/team` mention names:
// forge/orgs.Service.TeamMembers.
type TeamMembers interface {
	// TeamMembers returns the team named team of organisation org and its
	// members who may act, when actor (the writer of the mention) may see
	// the organisation's teams and the team has repository repoID; an
	// error that is forge.ErrNotFound otherwise.
	TeamMembers(ctx context.Context, actor forge.Actor, org, team string, repoID forge.ID) (*forge.Team, []*forge.User, error)
}

// TeamMentionable reports whether a mention of team t reaches its members
// in an issue (isPull false) or a pull request, as Forgejo's
// ResolveIssueMentionsByVisibility: an admin or owner team, or one with
// the issue's unit (Hearth asks read access to it, where Forgejo asks for
// the unit's row, which a unit at "none" also has).
func TeamMentionable(t *forge.Team, isPull bool) bool {
	return t.Mode >= forge.AccessModeAdmin || t.Unit(unitOf(isPull)) >= forge.AccessModeRead
}

// mentionTarget is a mentioned user and what they may read of the
// repository.
type mentionTarget struct {
	id                 forge.ID
	readIssue, readPul bool
}

// mentionTargets resolves the users texts mention in a's repository, as
// Forgejo's ResolveIssueMentionsByVisibility: existing individual accounts
// other than the actor that may act, and the members of each team
// `@owner/team` of the repository's owner that the actor may see, that
// has the repository and that is TeamMentionable (Config.Teams; nil
// mentions no team), each with what it may read (checked per issue kind
// when recorded): its own permission on the repository, and for a member
// mentioned through a team only, the team's unit too. It runs before the
// transaction that records them (permissions are the repository
// service's answer).
func (s *Service) mentionTargets(ctx context.Context, a *access, texts ...string) ([]mentionTarget, error) {
	names, teams := scanMentions(strings.Join(texts, "\n\n"), s.cfg.MaxTextMentions)
	if len(names) == 0 && len(teams) == 0 {
		return nil, nil
	}
	type pending struct {
		u                   *forge.User
		direct              bool
		teamIssue, teamPull bool
	}
	var order []forge.ID
	byID := map[forge.ID]*pending{}
	add := func(u *forge.User) *pending {
		p := byID[u.ID]
		if p == nil {
			p = &pending{u: u}
			byID[u.ID] = p
			order = append(order, u.ID)
		}
		return p
	}
	self := func(u *forge.User) bool { return a.actor.IsSignedIn() && u.ID == a.actor.User.ID }
	err := s.store.View(ctx, func(tx Tx) error {
		for _, name := range names {
			if a.actor.IsSignedIn() && strings.EqualFold(name, a.actor.User.Name) {
				continue
			}
			u, err := tx.UserByName(ctx, name)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			if !u.IsOrganization() && u.IsActive && !u.ProhibitLogin {
				add(u).direct = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.cfg.Teams != nil {
		for _, name := range teams {
			org, team, _ := strings.Cut(name, "/")
			if !strings.EqualFold(org, a.repo.OwnerName) || strings.Contains(team, "/") {
				continue // only the teams of the repository's owner (Forgejo)
			}
			t, members, err := s.cfg.Teams.TeamMembers(ctx, a.actor, org, team, a.repo.ID)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return nil, err
			}
			issues, pulls := TeamMentionable(t, false), TeamMentionable(t, true)
			if !issues && !pulls {
				continue
			}
			for _, u := range members {
				if self(u) || u.IsOrganization() || !u.IsActive || u.ProhibitLogin {
					continue
				}
				p := add(u)
				p.teamIssue, p.teamPull = p.teamIssue || issues, p.teamPull || pulls
			}
		}
	}
	var out []mentionTarget
	for _, id := range order {
		p := byID[id]
		as := forge.Actor{User: p.u, Method: forge.AuthPassword}
		_, perm, err := s.repos.RepoAccess(ctx, as, a.repo.OwnerName, a.repo.Name)
		if errors.Is(err, forge.ErrNotFound) || errors.Is(err, forge.ErrForbidden) || errors.Is(err, forge.ErrUnauthenticated) {
			continue // hidden from the user, or an account that may not act
		} else if err != nil {
			return nil, err
		}
		b := &access{actor: as, repo: a.repo, perm: perm}
		out = append(out, mentionTarget{id: id,
			readIssue: b.canRead(false) && (p.direct || p.teamIssue),
			readPul:   b.canRead(true) && (p.direct || p.teamPull)})
	}
	return out, nil
}

// recordMentions records the mentions of targets who may read is, and
// returns their ids (whom the event notifies).
func recordMentions(ctx context.Context, tx Tx, is *Issue, targets []mentionTarget) ([]forge.ID, error) {
	var ids []forge.ID
	for _, t := range targets {
		if is.IsPull && t.readPul || !is.IsPull && t.readIssue {
			ids = append(ids, t.id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return ids, tx.AddMentions(ctx, is.ID, ids)
}
