package sqlstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var sqlCreateStatus = prepared(`INSERT INTO commit_status (repo_id, sha, state, target_url, description, context,
	creator_id, created_unix, updated_unix) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`)

func (t *tx) CreateStatus(ctx context.Context, st *repos.CommitStatus) error {
	return mapError(t.queryRow(ctx, sqlCreateStatus, st.RepoID, st.SHA, string(st.State), st.TargetURL, st.Description,
		st.Context, st.CreatorID, toUnix(st.Created), toUnix(st.Updated)).Scan(&st.ID), "commit status")
}

func (t *tx) ListStatuses(ctx context.Context, repoID forge.ID, sha string, f repos.StatusFilter, o forge.ListOptions) ([]*repos.CommitStatus, int64, error) {
	where, args := "repo_id = ? AND sha = ?", []any{repoID, sha}
	if f.State != "" {
		where, args = where+" AND state = ?", append(args, string(f.State))
	}
	order := "id DESC"
	if f.Sort == "oldest" {
		order = "id ASC"
	}
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM commit_status WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "commit statuses")
	}
	rows, err := t.query(ctx, `SELECT id, repo_id, sha, state, target_url, description, context, creator_id,
		created_unix, updated_unix FROM commit_status WHERE `+where+" ORDER BY "+order+" LIMIT ? OFFSET ?",
		append(args, o.Limit, o.Offset())...)
	if err != nil {
		return nil, 0, mapError(err, "commit statuses")
	}
	defer rows.Close()
	list := []*repos.CommitStatus{}
	for rows.Next() {
		st := &repos.CommitStatus{}
		var created, updated int64
		if err := rows.Scan(&st.ID, &st.RepoID, &st.SHA, &st.State, &st.TargetURL, &st.Description, &st.Context,
			&st.CreatorID, &created, &updated); err != nil {
			return nil, 0, mapError(err, "commit statuses")
		}
		st.Created, st.Updated = fromUnix(created), fromUnix(updated)
		list = append(list, st)
	}
	return list, total, mapError(rows.Err(), "commit statuses")
}
