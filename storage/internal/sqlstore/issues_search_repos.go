package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// sqlSearchableRepos is the repository condition of the issue search
// (Forgejo's AccessibleRepositoryCondition), for one actor: the ready
// repositories the actor may see (ListRepos's VisibleTo rule, unless
// every one is visible), each with whether forge/repos.Access lets it read
// the issues unit and the pull-request unit. Parameters, by name: :uid
// (0 anonymous), :anon, :admin (site administrator), :restricted, :public
// (a token of public resources only), :visible (ListRepos's VisibleTo),
// :all (ListRepos's AllVisible), :owner (0 any), :ready.
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
var sqlSearchableRepos = prepared(`WITH
	a AS (SELECT CAST(?1 AS BIGINT) AS uid, CAST(?2 AS BOOLEAN) AS anon, CAST(?3 AS BOOLEAN) AS admin,
		CAST(?4 AS BOOLEAN) AS restricted, CAST(?5 AS BOOLEAN) AS public_only),
	collab AS (SELECT repo_id FROM collaboration WHERE user_id = ?1 AND mode > 0),
	seen_collab AS (SELECT repo_id FROM collaboration WHERE user_id = ?6),
	member AS (SELECT org_id FROM org_user WHERE uid = ?1),
	seen_member AS (SELECT org_id FROM org_user WHERE uid = ?6),
	team_grant AS MATERIALIZED (SELECT tr.repo_id, tu.uid, max(tm.authorize) AS authorize,
			max(CASE WHEN EXISTS (SELECT 1 FROM team_unit un WHERE un.team_id = tm.id AND un.unit = 'repo.issues' AND un.access_mode > 0) THEN 1 ELSE 0 END) AS issues,
			max(CASE WHEN EXISTS (SELECT 1 FROM team_unit un WHERE un.team_id = tm.id AND un.unit = 'repo.pulls' AND un.access_mode > 0) THEN 1 ELSE 0 END) AS pulls
		FROM team_user tu JOIN team tm ON tm.id = tu.team_id JOIN team_repo tr ON tr.team_id = tm.id
		JOIN repository tr_r ON tr_r.id = tr.repo_id AND tr_r.owner_id = tm.org_id
		WHERE tu.uid IN (?1, ?6) AND tu.uid > 0 GROUP BY tr.repo_id, tu.uid),
	v AS MATERIALIZED (SELECT r.id, r.owner_id, r.is_private, r.has_issues, r.external_tracker, r.has_pull_requests,
			u.type AS owner_type, u.visibility IN ('public', '') AS public_owner, u.visibility AS owner_visibility,
			r.id IN (SELECT repo_id FROM collab) AS collab, r.owner_id IN (SELECT org_id FROM member) AS member,
			g.authorize AS team_mode, coalesce(g.issues, 0) > 0 AS team_issues, coalesce(g.pulls, 0) > 0 AS team_pulls
		FROM repository r JOIN users u ON u.id = r.owner_id
		LEFT JOIN team_grant g ON g.repo_id = r.id AND g.uid = ?1
		WHERE r.status = ?9 AND (?8 = 0 OR r.owner_id = ?8)
		AND (CAST(?7 AS BOOLEAN) OR (NOT r.is_private AND NOT CAST(?4 AS BOOLEAN)
				AND (u.visibility IN ('public', '') OR (u.visibility = 'limited' AND ?6 > 0)
				OR r.owner_id IN (SELECT org_id FROM seen_member)))
			OR r.owner_id = ?6 OR r.id IN (SELECT repo_id FROM seen_collab)
			OR r.id IN (SELECT repo_id FROM team_grant WHERE uid = ?6))),
	p AS (SELECT v.*,
			NOT (a.public_only AND (v.is_private OR NOT v.public_owner))
			AND NOT (a.anon AND v.is_private)
			AND (v.collab OR CASE
				WHEN a.public_only OR a.anon THEN v.public_owner
				WHEN a.admin OR a.uid = v.owner_id THEN TRUE
				WHEN v.owner_visibility = 'private' OR a.restricted THEN v.member
				ELSE TRUE END) AS seen,
			a.anon OR a.admin OR a.uid = v.owner_id OR (v.owner_type = 1 AND coalesce(v.team_mode, 0) >= 3) AS full_access,
			v.collab OR (NOT v.is_private AND NOT a.restricted) AS plain
		FROM v, a)
	, s AS (SELECT id,
			seen AND has_issues AND NOT external_tracker AND (full_access OR plain OR (owner_type = 1 AND team_issues)) AS issues_ok,
			seen AND has_pull_requests AND (full_access OR plain OR (owner_type = 1 AND team_pulls)) AS pulls_ok
		FROM p)
	SELECT CAST(coalesce(json_group_array(id) FILTER (WHERE issues_ok), '[]') AS TEXT),
		CAST(coalesce(json_group_array(id) FILTER (WHERE pulls_ok), '[]') AS TEXT)
	FROM s`)

// SearchableRepos implements issues.SearchRepoTx.
func (t issueTx) SearchableRepos(ctx context.Context, actor forge.Actor, ownerID forge.ID) ([]forge.ID, []forge.ID, error) {
	uid := actor.UserID()
	publicOnly := actor.Scoped && actor.Scope.PublicOnly
	restricted := actor.IsSignedIn() && actor.User.Restricted
	visible, all := uid, actor.IsSiteAdmin()
	if publicOnly {
		visible, all = 0, false
	}
	key := searchReposKey{uid: uid, anon: uid == 0, admin: actor.IsSiteAdmin(), restricted: restricted, public: publicOnly,
		visible: visible, every: all, owner: ownerID}
	if e, ok := t.db.searchRepos.get(t.tx, key); ok {
		return cloneIDs(e.issues), cloneIDs(e.pulls), nil
	}
	// Two JSON lists in one row: a row per repository costs the driver
	// more than the query.
	var issueList, pullList string
	if err := t.queryRow(ctx, sqlSearchableRepos,
		uid, uid == 0, actor.IsSiteAdmin(), restricted, publicOnly, visible, all, ownerID, forge.RepoReady).Scan(&issueList, &pullList); err != nil {
		return nil, nil, mapError(err, "searchable repositories")
	}
	issueRepos, pullRepos := []forge.ID{}, []forge.ID{}
	if err := json.Unmarshal([]byte(issueList), &issueRepos); err != nil {
		return nil, nil, fmt.Errorf("searchable repositories: %w", err)
	}
	if err := json.Unmarshal([]byte(pullList), &pullRepos); err != nil {
		return nil, nil, fmt.Errorf("searchable repositories: %w", err)
	}
	// Sorted here rather than by the statement: the repositories come in
	// the order of the covering index, and sorting a few thousand ids in Go
	// costs less than SQLite's sorter.
	slices.Sort(issueRepos)
	slices.Sort(pullRepos)
	t.db.searchRepos.put(t.tx, key, searchReposEntry{issues: cloneIDs(issueRepos), pulls: cloneIDs(pullRepos)})
	return issueRepos, pullRepos, nil
}
