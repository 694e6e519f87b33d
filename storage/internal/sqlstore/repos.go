package sqlstore

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// Repos returns the store package forge/repos consumes.
func (db *DB) Repos() repos.Store {
	return repoStore{storeOf(db, func(t *tx) repos.Tx { return t }), db}
}

// repoStore is repos.Store with Generation (repos.Generations).
type repoStore struct {
	domainstore.Store[*tx, repos.Tx]
	db *DB
}

var (
	_ repos.Store = repoStore{}
	_ repos.Tx    = (*tx)(nil)
)

// repoFields are the repository columns written by CreateRepo and
// UpdateRepo, in the order of repoArgs.
var repoFields = []string{"owner_id", "name", "lower_name", "description", "website", "is_private", "is_template",
	"is_archived", "is_empty", "archived_unix", "default_branch", "object_format", "size", "created_unix",
	"updated_unix", "fork_id", "status", "avatar",
	"has_issues", "has_wiki", "has_pull_requests", "has_projects", "has_releases", "has_packages", "has_actions",
	"ignore_whitespace_conflicts", "allow_merge", "allow_rebase", "allow_rebase_explicit", "allow_squash",
	"allow_fast_forward_only", "allow_manual_merge", "autodetect_manual_merge", "allow_rebase_update",
	"default_delete_branch_after_merge", "default_allow_maintainer_edit", "default_merge_style",
	"default_update_style", "wiki_branch", "globally_editable_wiki",
	"internal_tracker", "enable_time_tracker", "allow_only_contributors_to_track_time", "enable_issue_dependencies",
	"external_tracker", "external_tracker_url", "external_tracker_format", "external_tracker_style",
	"external_tracker_regexp_pattern", "external_wiki", "external_wiki_url"}

// repoCols are the columns read: the id, the written ones, the counters
// and the topics (newline-separated: topics cannot contain newlines).
var repoCols = func() string {
	cols := []string{"r.id"}
	for _, f := range repoFields {
		if f != "lower_name" {
			cols = append(cols, "r."+f)
		}
	}
	return strings.Join(append(cols, "r.num_stars", "r.num_watches", "r.num_forks",
		"coalesce((SELECT string_agg(t.topic, '\n') FROM repo_topic t WHERE t.repo_id = r.id), '')"), ", ")
}()

func repoDest() (*forge.Repository, []any, func() error) {
	r := &forge.Repository{}
	var archived, created, updated int64
	var topics string
	var it forge.InternalTracker
	var et forge.ExternalTracker
	var ew forge.ExternalWiki
	var hasIT, hasET, hasEW bool
	return r, []any{&r.ID, &r.OwnerID, &r.Name, &r.Description, &r.Website, &r.Private, &r.Template,
			&r.Archived, &r.Empty, &archived, &r.DefaultBranch, &r.ObjectFormat, &r.Size, &created,
			&updated, &r.ForkID, &r.Status, &r.Avatar,
			&r.HasIssues, &r.HasWiki, &r.HasPullRequests, &r.HasProjects, &r.HasReleases, &r.HasPackages, &r.HasActions,
			&r.IgnoreWhitespaceConflicts, &r.AllowMerge, &r.AllowRebase, &r.AllowRebaseExplicit, &r.AllowSquash,
			&r.AllowFastForwardOnly, &r.AllowManualMerge, &r.AutodetectManualMerge, &r.AllowRebaseUpdate,
			&r.DefaultDeleteBranchAfterMerge, &r.DefaultAllowMaintainerEdit, &r.DefaultMergeStyle,
			&r.DefaultUpdateStyle, &r.WikiBranch, &r.GloballyEditableWiki,
			&hasIT, &it.EnableTimeTracker, &it.AllowOnlyContributorsToTrackTime, &it.EnableIssueDependencies,
			&hasET, &et.URL, &et.Format, &et.Style, &et.RegexpPattern, &hasEW, &ew.URL,
			&r.NumStars, &r.NumWatches, &r.NumForks, &topics},
		func() error {
			r.ArchivedAt, r.Created, r.Updated = fromUnix(archived), fromUnix(created), fromUnix(updated)
			if hasIT {
				r.InternalTracker = &it
			}
			if hasET {
				r.ExternalTracker = &et
			}
			if hasEW {
				r.ExternalWiki = &ew
			}
			r.Topics = []string{}
			if topics != "" {
				r.Topics = strings.Split(topics, "\n")
				sort.Strings(r.Topics)
			}
			return nil
		}
}

func repoArgs(r *forge.Repository) []any {
	var it forge.InternalTracker
	var et forge.ExternalTracker
	var ew forge.ExternalWiki
	if r.InternalTracker != nil {
		it = *r.InternalTracker
	}
	if r.ExternalTracker != nil {
		et = *r.ExternalTracker
	}
	if r.ExternalWiki != nil {
		ew = *r.ExternalWiki
	}
	return []any{r.OwnerID, r.Name, strings.ToLower(r.Name), r.Description, r.Website, r.Private, r.Template,
		r.Archived, r.Empty, toUnix(r.ArchivedAt), r.DefaultBranch, string(r.ObjectFormat), r.Size, toUnix(r.Created),
		toUnix(r.Updated), r.ForkID, r.Status, r.Avatar,
		r.HasIssues, r.HasWiki, r.HasPullRequests, r.HasProjects, r.HasReleases, r.HasPackages, r.HasActions,
		r.IgnoreWhitespaceConflicts, r.AllowMerge, r.AllowRebase, r.AllowRebaseExplicit, r.AllowSquash,
		r.AllowFastForwardOnly, r.AllowManualMerge, r.AutodetectManualMerge, r.AllowRebaseUpdate,
		r.DefaultDeleteBranchAfterMerge, r.DefaultAllowMaintainerEdit, r.DefaultMergeStyle,
		r.DefaultUpdateStyle, r.WikiBranch, r.GloballyEditableWiki,
		r.InternalTracker != nil, it.EnableTimeTracker, it.AllowOnlyContributorsToTrackTime, it.EnableIssueDependencies,
		r.ExternalTracker != nil, et.URL, et.Format, et.Style, et.RegexpPattern, r.ExternalWiki != nil, ew.URL}
}

// writeTopics replaces a repository's topics; those it did not have are
// noted in the topic table as taken at (noteTopics).
func (t *tx) writeTopics(ctx context.Context, id forge.ID, topics []string, at time.Time) error {
	var before []string
	if len(topics) > 0 { // a repository without topics takes none: no read
		var err error
		if before, err = t.repoTopics(ctx, id); err != nil {
			return err
		}
	}
	if _, err := t.exec(ctx, sqlDeleteTopics, id); err != nil {
		return mapError(err, "repository topics")
	}
	for _, topic := range topics {
		if _, err := t.exec(ctx, sqlAddTopic, id, topic); err != nil {
			return mapError(err, "repository topics")
		}
	}
	return t.noteTopics(ctx, before, topics, at)
}

var (
	sqlCreateRepo = prepared("INSERT INTO repository (" + strings.Join(repoFields, ", ") + ") VALUES (" +
		strings.Repeat("?,", len(repoFields)-1) + "?) RETURNING id")
	sqlUpdateRepo   = prepared("UPDATE repository SET " + strings.Join(repoFields, " = ?, ") + " = ? WHERE id = ?")
	sqlRepoByName   = prepared("SELECT " + repoCols + " FROM repository r WHERE r.owner_id = ? AND r.lower_name = ?")
	sqlRepoByID     = prepared("SELECT " + repoCols + " FROM repository r WHERE r.id = ?")
	sqlDeleteTopics = prepared(`DELETE FROM repo_topic WHERE repo_id = ?`)
	sqlAddTopic     = prepared(`INSERT INTO repo_topic (repo_id, topic) VALUES (?, ?) ON CONFLICT DO NOTHING`)
	sqlDeleteRepo   = prepared(`DELETE FROM repository WHERE id = ?`)

	sqlSetCollab = prepared(`INSERT INTO collaboration (repo_id, user_id, mode) VALUES (?,?,?)
		ON CONFLICT (repo_id, user_id) DO UPDATE SET mode = excluded.mode`)
	sqlDeleteCollab = prepared(`DELETE FROM collaboration WHERE repo_id = ? AND user_id = ?`)
	sqlCollabMode   = prepared(`SELECT mode FROM collaboration WHERE repo_id = ? AND user_id = ?`)
	sqlCountCollabs = prepared(`SELECT count(*) FROM collaboration WHERE repo_id = ?`)
	sqlListCollabs  = prepared("SELECT " + userCols + `, c.mode FROM collaboration c JOIN users u ON u.id = c.user_id
		WHERE c.repo_id = ? ORDER BY u.lower_name, u.id LIMIT ? OFFSET ?`)

	sqlSetWatch = prepared(`INSERT INTO watch (repo_id, user_id, mode, created_unix) VALUES (?,?,?,?)
		ON CONFLICT (repo_id, user_id) DO UPDATE SET mode = excluded.mode, created_unix = excluded.created_unix`)
	sqlDeleteWatch   = prepared(`DELETE FROM watch WHERE repo_id = ? AND user_id = ?`)
	sqlWatch         = prepared(`SELECT mode, created_unix FROM watch WHERE repo_id = ? AND user_id = ?`)
	sqlCountWatchers = prepared(`UPDATE repository SET num_watches =
		(SELECT count(*) FROM watch WHERE repo_id = ? AND mode IN (1, 3)) WHERE id = ?`)
	sqlListWatchers = prepared("SELECT " + userCols + ` FROM watch w JOIN users u ON u.id = w.user_id
		WHERE w.repo_id = ? AND w.mode IN (1, 3) ORDER BY u.id LIMIT ? OFFSET ?`)
	sqlNumWatchers = prepared(`SELECT count(*) FROM watch WHERE repo_id = ? AND mode IN (1, 3)`)

	sqlStar       = prepared(`INSERT INTO star (repo_id, user_id, created_unix) VALUES (?,?,?) ON CONFLICT DO NOTHING`)
	sqlUnstar     = prepared(`DELETE FROM star WHERE repo_id = ? AND user_id = ?`)
	sqlIsStarred  = prepared(`SELECT count(*) FROM star WHERE repo_id = ? AND user_id = ?`)
	sqlCountStars = prepared(`UPDATE repository SET num_stars = (SELECT count(*) FROM star WHERE repo_id = ?) WHERE id = ?`)
	sqlNumStars   = prepared(`SELECT count(*) FROM star WHERE repo_id = ?`)
	sqlListStars  = prepared("SELECT " + userCols + ` FROM star s JOIN users u ON u.id = s.user_id
		WHERE s.repo_id = ? ORDER BY s.created_unix, u.id LIMIT ? OFFSET ?`)
)

func (t *tx) CreateRepo(ctx context.Context, r *forge.Repository) error {
	if err := mapError(t.queryRow(ctx, sqlCreateRepo, repoArgs(r)...).Scan(&r.ID), "create repository"); err != nil {
		return err
	}
	return t.writeTopics(ctx, r.ID, r.Topics, r.Updated)
}

func (t *tx) scanRepo(ctx context.Context, query string, args ...any) (*forge.Repository, error) {
	r, dest, done := repoDest()
	if err := t.queryRow(ctx, query, args...).Scan(dest...); err != nil {
		return nil, mapError(err, "repository")
	}
	return r, done()
}

func (t *tx) RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error) {
	return t.scanRepo(ctx, sqlRepoByName, ownerID, strings.ToLower(name))
}

func (t *tx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	return t.scanRepo(ctx, sqlRepoByID, id)
}

func (t *tx) UpdateRepo(ctx context.Context, r *forge.Repository) error {
	res, err := t.exec(ctx, sqlUpdateRepo, append(repoArgs(r), r.ID)...)
	if err := affectedOne(res, err, "update repository"); err != nil {
		return err
	}
	return t.writeTopics(ctx, r.ID, r.Topics, r.Updated)
}

func (t *tx) DeleteRepo(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteRepo, id)
	return affectedOne(res, err, "delete repository")
}

var repoSorts = map[string]string{
	"": "r.id", "id": "r.id", "oldest": "r.id", "newest": "r.id", "created": "r.created_unix",
	"alpha": "r.lower_name", "updated": "r.updated_unix", "size": "r.size", "stars": "r.num_stars",
}

func (t *tx) ListRepos(ctx context.Context, f repos.RepoFilter, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	where, args := []string{"1=1"}, []any{}
	add := func(cond string, a ...any) { where, args = append(where, cond), append(args, a...) }
	if f.OwnerID != 0 {
		add("r.owner_id = ?", f.OwnerID)
	}
	if !f.AnyStatus {
		add("r.status = ?", forge.RepoReady)
	}
	if f.Keyword != "" {
		var ors []string
		var kargs []any
		for _, word := range strings.Split(strings.ToLower(f.Keyword), ",") {
			if word = strings.TrimSpace(word); word == "" {
				continue
			}
			if f.Topic {
				ors = append(ors, `EXISTS (SELECT 1 FROM repo_topic t WHERE t.repo_id = r.id AND lower(t.topic) = ?)`)
				kargs = append(kargs, word)
				continue
			}
			like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(word) + "%"
			ors = append(ors, `r.lower_name LIKE ? ESCAPE '\'`,
				`EXISTS (SELECT 1 FROM repo_topic t WHERE t.repo_id = r.id AND lower(t.topic) LIKE ? ESCAPE '\')`)
			kargs = append(kargs, like, like)
			if f.IncludeDesc {
				ors = append(ors, `lower(r.description) LIKE ? ESCAPE '\'`)
				kargs = append(kargs, like)
			}
		}
		if len(ors) > 0 {
			add("("+strings.Join(ors, " OR ")+")", kargs...)
		}
	}
	if !f.AllVisible {
		add(`((NOT r.is_private AND NOT CAST(? AS BOOLEAN) AND (u.visibility IN ('public', '') OR (u.visibility = 'limited' AND ? > 0)
				OR EXISTS (SELECT 1 FROM org_user ou WHERE ou.org_id = r.owner_id AND ou.uid = ?)))
			OR r.owner_id = ? OR EXISTS (SELECT 1 FROM collaboration c WHERE c.repo_id = r.id AND c.user_id = ?)
			OR EXISTS (SELECT 1 FROM team_repo tr JOIN team_user tu ON tu.team_id = tr.team_id
				JOIN team tm ON tm.id = tr.team_id
				WHERE tr.repo_id = r.id AND tu.uid = ? AND tm.org_id = r.owner_id))`,
			f.Restricted, f.VisibleTo, f.VisibleTo, f.VisibleTo, f.VisibleTo, f.VisibleTo)
	}
	if f.CollaboratorOf != 0 {
		add(`(r.owner_id = ? OR EXISTS (SELECT 1 FROM collaboration c WHERE c.repo_id = r.id AND c.user_id = ?))`,
			f.CollaboratorOf, f.CollaboratorOf)
	}
	if f.Private != nil {
		add("r.is_private = ?", *f.Private)
	}
	if f.Archived != nil {
		add("r.is_archived = ?", *f.Archived)
	}
	if f.Template != nil {
		add("r.is_template = ?", *f.Template)
	}
	if f.StarredBy != 0 {
		add("EXISTS (SELECT 1 FROM star s WHERE s.repo_id = r.id AND s.user_id = ?)", f.StarredBy)
	}
	if f.ForkOf != 0 {
		add("r.fork_id = ?", f.ForkOf)
	}
	if f.WatchedBy != 0 {
		add("EXISTS (SELECT 1 FROM watch w WHERE w.repo_id = r.id AND w.user_id = ? AND w.mode IN (1, 3))", f.WatchedBy)
	}
	col, ok := repoSorts[f.Sort]
	if !ok {
		col = "r.id"
	}
	dir := "ASC"
	if f.Order == "desc" || (f.Order == "" && (f.Sort == "newest" || f.Sort == "updated" || f.Sort == "stars" || f.Sort == "size")) {
		dir = "DESC"
	}
	from := " FROM repository r JOIN users u ON u.id = r.owner_id WHERE " + strings.Join(where, " AND ")
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*)"+from, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "count repositories")
	}
	rows, err := t.query(ctx, "SELECT "+repoCols+from+" ORDER BY "+col+" "+dir+", r.id "+dir+" LIMIT ? OFFSET ?",
		append(args, o.Limit, o.Offset())...)
	if err != nil {
		return nil, 0, mapError(err, "list repositories")
	}
	defer rows.Close()
	list := []*forge.Repository{}
	for rows.Next() {
		r, dest, done := repoDest()
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, mapError(err, "list repositories")
		}
		if err := done(); err != nil {
			return nil, 0, err
		}
		list = append(list, r)
	}
	return list, total, mapError(rows.Err(), "list repositories")
}

func (t *tx) SetCollaborator(ctx context.Context, repoID, userID forge.ID, mode forge.AccessMode) error {
	_, err := t.exec(ctx, sqlSetCollab, repoID, userID, int(mode))
	return mapError(err, "collaborator")
}

func (t *tx) DeleteCollaborator(ctx context.Context, repoID, userID forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteCollab, repoID, userID)
	return affectedOne(res, err, "collaborator")
}

func (t *tx) CollaboratorMode(ctx context.Context, repoID, userID forge.ID) (forge.AccessMode, error) {
	var m int
	err := t.queryRow(ctx, sqlCollabMode, repoID, userID).Scan(&m)
	if err != nil {
		if e := mapError(err, "collaborator"); isNotFound(e) {
			return forge.AccessNone, nil
		}
		return 0, mapError(err, "collaborator")
	}
	return forge.AccessMode(m), nil
}

func (t *tx) ListCollaborators(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]repos.Collaborator, int64, error) {
	var total int64
	if err := t.queryRow(ctx, sqlCountCollabs, repoID).Scan(&total); err != nil {
		return nil, 0, mapError(err, "collaborators")
	}
	rows, err := t.query(ctx, sqlListCollabs, repoID, o.Limit, o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "collaborators")
	}
	defer rows.Close()
	list := []repos.Collaborator{}
	for rows.Next() {
		u, dest, done := userDest()
		var m int
		if err := rows.Scan(append(dest, &m)...); err != nil {
			return nil, 0, mapError(err, "collaborators")
		}
		done()
		list = append(list, repos.Collaborator{User: u, Mode: forge.AccessMode(m)})
	}
	return list, total, mapError(rows.Err(), "collaborators")
}

func (t *tx) SetWatch(ctx context.Context, repoID, userID forge.ID, mode repos.WatchMode, at time.Time) error {
	var err error
	if mode == repos.WatchNone {
		_, err = t.exec(ctx, sqlDeleteWatch, repoID, userID)
	} else {
		_, err = t.exec(ctx, sqlSetWatch, repoID, userID, int(mode), toUnix(at))
	}
	if err != nil {
		return mapError(err, "watch")
	}
	_, err = t.exec(ctx, sqlCountWatchers, repoID, repoID)
	return mapError(err, "watch")
}

func (t *tx) Watch(ctx context.Context, repoID, userID forge.ID) (repos.WatchMode, time.Time, error) {
	var m int
	var at int64
	err := t.queryRow(ctx, sqlWatch, repoID, userID).Scan(&m, &at)
	if err != nil {
		if e := mapError(err, "watch"); isNotFound(e) {
			return repos.WatchNone, time.Time{}, nil
		}
		return 0, time.Time{}, mapError(err, "watch")
	}
	return repos.WatchMode(m), fromUnix(at), nil
}

// listUsers returns a page of a repository's users (o as given: not
// normalised) and their count.
func (t *tx) listUsers(ctx context.Context, what, countQ, listQ string, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	return countedRows(ctx, t, fromDest(userDest), what, countQ, []any{repoID}, listQ, repoID, o.Limit, o.Offset())
}

func (t *tx) ListWatchers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	return t.listUsers(ctx, "watchers", sqlNumWatchers, sqlListWatchers, repoID, o)
}

func (t *tx) SetStar(ctx context.Context, repoID, userID forge.ID, starred bool, at time.Time) error {
	var err error
	if starred {
		_, err = t.exec(ctx, sqlStar, repoID, userID, toUnix(at))
	} else {
		_, err = t.exec(ctx, sqlUnstar, repoID, userID)
	}
	if err != nil {
		return mapError(err, "star")
	}
	_, err = t.exec(ctx, sqlCountStars, repoID, repoID)
	return mapError(err, "star")
}

func (t *tx) IsStarred(ctx context.Context, repoID, userID forge.ID) (bool, error) {
	var n int
	err := t.queryRow(ctx, sqlIsStarred, repoID, userID).Scan(&n)
	return n > 0, mapError(err, "star")
}

func (t *tx) ListStargazers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	return t.listUsers(ctx, "stargazers", sqlNumStars, sqlListStars, repoID, o)
}
