package sqlstore

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// The repository condition of the issue search (Forgejo's
// AccessibleRepositoryCondition), for one actor: the ready repositories the
// actor may see (ListRepos's VisibleTo rule, unless every one is visible),
// each with whether forge/repos.Access lets it read the issues unit and
// the pull-request unit.
//
// The rule is evaluated here, in Go, over a few narrow reads: the ready
// repositories with their owners' type and visibility, and the actor's
// collaborations, organisation memberships and team grants. Written as
// one statement, SQLite spent a few µs per repository on the rule's
// expressions, the most of a search's cost after its first page.
//
// Access, per unit: nothing when a public-only token meets a private
// repository or a non-public owner, or an anonymous actor a private
// repository, or the owner is not visible to the actor
// (repos.OwnerVisibleTo) and the actor is no collaborator; otherwise the
// unit must be enabled, and then anonymous actors, site administrators,
// the owner and members of a team with admin mode read it, as do, on a
// user's repository, collaborators and everyone but restricted users on
// a public one, and on an organisation's, collaborators, members of a
// team that gives the unit, and everyone but restricted users on a
// public one.

// sqlSearchRepoRows are the ready repositories (of ?2, when not 0) with
// what the rule reads of them and of their owners. Two cheap parts of the
// rule are left to the statement, so that an actor who sees little reads
// little: with ?3 (a restricted user) only the repositories of ?4 (the
// user) and of the JSON list ?5 (the user's collaborations and team
// repositories) are read; with ?6 (anonymous, or a public-only token) no
// private one.
var sqlSearchRepoRows = prepared(`SELECT r.id, r.owner_id, r.is_private, r.has_issues, r.external_tracker, r.has_pull_requests,
		u.type, u.visibility
	FROM repository r JOIN users u ON u.id = r.owner_id
	WHERE r.status = ?1 AND (CAST(?2 AS BIGINT) = 0 OR r.owner_id = ?2)
	AND (NOT CAST(?3 AS BOOLEAN) OR r.owner_id = ?4 OR r.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?5)))
	AND (NOT CAST(?6 AS BOOLEAN) OR r.is_private = FALSE)`)

// sqlSearchActorRows are, in one statement, a user's collaborations
// ('c': repository, mode), organisation memberships ('m': organisation)
// and team grants ('g': per repository of an organisation, the highest
// authorize mode of the user's teams there and whether one of them gives
// the issues unit and the pull-request unit).
var sqlSearchActorRows = prepared(`SELECT 'c', repo_id, mode, 0, 0 FROM collaboration WHERE user_id = ?1
	UNION ALL SELECT 'm', org_id, 0, 0, 0 FROM org_user WHERE uid = ?1
	UNION ALL SELECT 'g', tr.repo_id, max(tm.authorize),
		max(CASE WHEN EXISTS (SELECT 1 FROM team_unit un WHERE un.team_id = tm.id AND un.unit = 'repo.issues' AND un.access_mode > 0) THEN 1 ELSE 0 END),
		max(CASE WHEN EXISTS (SELECT 1 FROM team_unit un WHERE un.team_id = tm.id AND un.unit = 'repo.pulls' AND un.access_mode > 0) THEN 1 ELSE 0 END)
	FROM team_user tu JOIN team tm ON tm.id = tu.team_id JOIN team_repo tr ON tr.team_id = tm.id
	JOIN repository tr_r ON tr_r.id = tr.repo_id AND tr_r.owner_id = tm.org_id
	WHERE tu.uid = ?1 GROUP BY tr.repo_id`)

// teamGrant is what a user's teams give on one repository.
type teamGrant struct {
	mode          forge.AccessMode
	issues, pulls bool
}

// SearchableRepos implements issues.SearchRepoTx.
func (t issueTx) SearchableRepos(ctx context.Context, actor forge.Actor, ownerID forge.ID) ([]forge.ID, []forge.ID, error) {
	uid := actor.UserID()
	anon := uid == 0
	admin := actor.IsSiteAdmin()
	publicOnly := actor.Scoped && actor.Scope.PublicOnly
	restricted := actor.IsSignedIn() && actor.User.Restricted
	// visible is ListRepos's VisibleTo (0 for a public-only token), every
	// its AllVisible.
	visible, every := uid, admin
	if publicOnly {
		visible, every = 0, false
	}
	key := searchReposKey{uid: uid, anon: anon, admin: admin, restricted: restricted, public: publicOnly,
		visible: visible, every: every, owner: ownerID}
	if e, ok := t.db.searchRepos.get(t.tx, key); ok {
		return cloneIDs(e.issues), cloneIDs(e.pulls), nil
	}

	// The actor's collaborations (any mode: visibility; mode > 0: access),
	// memberships and team grants. visible is uid or 0, so one read of each
	// serves both the visibility and the access rule.
	collab, seenCollab := map[forge.ID]bool{}, map[forge.ID]bool{}
	member := map[forge.ID]bool{}
	grants := map[forge.ID]teamGrant{}
	if uid > 0 {
		rows, err := t.query(ctx, sqlSearchActorRows, uid)
		if err != nil {
			return nil, nil, mapError(err, "searchable repositories")
		}
		for rows.Next() {
			var kind string
			var id forge.ID
			var mode forge.AccessMode
			var issuesUnit, pullsUnit bool
			if err := rows.Scan(&kind, &id, &mode, &issuesUnit, &pullsUnit); err != nil {
				rows.Close()
				return nil, nil, mapError(err, "searchable repositories")
			}
			switch kind {
			case "c":
				collab[id] = collab[id] || mode > 0
				seenCollab[id] = true
			case "m":
				member[id] = true
			case "g":
				grants[id] = teamGrant{mode: mode, issues: issuesUnit, pulls: pullsUnit}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, mapError(err, "searchable repositories")
		}
	}
	if visible == 0 {
		// A public-only token: visibility as an anonymous listing's (its
		// access still reads the user's rows, as Access does).
		seenCollab = map[forge.ID]bool{}
	}
	seenMember := member
	seenGrant := grants
	if visible == 0 {
		seenMember, seenGrant = map[forge.ID]bool{}, map[forge.ID]teamGrant{}
	}

	var own []forge.ID
	for id := range seenCollab {
		own = append(own, id)
	}
	for id := range seenGrant {
		own = append(own, id)
	}
	rows, err := t.query(ctx, sqlSearchRepoRows, forge.RepoReady, ownerID, restricted && !every, visible, idList(own), anon || publicOnly)
	if err != nil {
		return nil, nil, mapError(err, "searchable repositories")
	}
	defer rows.Close()
	issueRepos, pullRepos := []forge.ID{}, []forge.ID{}
	for rows.Next() {
		var id, owner forge.ID
		var private, hasIssues, external, hasPulls bool
		var ownerType forge.UserType
		var vis string
		if err := rows.Scan(&id, &owner, &private, &hasIssues, &external, &hasPulls, &ownerType, &vis); err != nil {
			return nil, nil, mapError(err, "searchable repositories")
		}
		publicOwner := vis == string(forge.VisibilityPublic) || vis == ""
		_, teamSeen := seenGrant[id]
		// ListRepos's VisibleTo rule.
		if !(every || !private && !restricted && (publicOwner || vis == string(forge.VisibilityLimited) && visible > 0 || seenMember[owner]) ||
			owner == visible || seenCollab[id] || teamSeen) {
			continue
		}
		isCollab := collab[id]
		var seen bool
		switch {
		case publicOnly && (private || !publicOwner), anon && private:
			seen = false
		case isCollab:
			seen = true
		case publicOnly || anon:
			seen = publicOwner
		case admin || uid == owner:
			seen = true
		case vis == string(forge.VisibilityPrivate) || restricted:
			seen = member[owner]
		default:
			seen = true
		}
		if !seen {
			continue
		}
		g := grants[id]
		org := ownerType == forge.UserTypeOrganization
		full := anon || admin || uid == owner || org && g.mode >= forge.AccessModeAdmin
		plain := isCollab || !private && !restricted
		if hasIssues && !external && (full || plain || org && g.issues) {
			issueRepos = append(issueRepos, id)
		}
		if hasPulls && (full || plain || org && g.pulls) {
			pullRepos = append(pullRepos, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, mapError(err, "searchable repositories")
	}
	// Sorted here: the repositories come in the order SQLite reads them.
	slices.Sort(issueRepos)
	slices.Sort(pullRepos)
	t.db.searchRepos.put(t.tx, key, searchReposEntry{issues: cloneIDs(issueRepos), pulls: cloneIDs(pullRepos)})
	return issueRepos, pullRepos, nil
}
