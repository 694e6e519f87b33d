package sqlstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var (
	sqlRepoFlags      = prepared(`SELECT name FROM repo_flag WHERE repo_id = ? ORDER BY name`)
	sqlDeleteFlags    = prepared(`DELETE FROM repo_flag WHERE repo_id = ?`)
	sqlAddFlag        = prepared(`INSERT INTO repo_flag (repo_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING`)
	sqlRepoTopicNames = prepared(`SELECT topic FROM repo_topic WHERE repo_id = ?`)
	sqlNoteTopic      = prepared(`INSERT INTO topic (name, created_unix, updated_unix) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET updated_unix = excluded.updated_unix`)
	sqlCountTopics = prepared(`SELECT count(*) FROM topic t
		WHERE lower(t.name) LIKE ? ESCAPE '\' AND EXISTS (SELECT 1 FROM repo_topic r WHERE r.topic = t.name)`)
	sqlSearchTopics = prepared(`SELECT t.id, t.name, count(*), t.created_unix, t.updated_unix
		FROM topic t JOIN repo_topic r ON r.topic = t.name
		WHERE lower(t.name) LIKE ? ESCAPE '\'
		GROUP BY t.id, t.name, t.created_unix, t.updated_unix
		ORDER BY count(*) DESC, t.id LIMIT ? OFFSET ?`)
)

func (t *tx) RepoFlags(ctx context.Context, repoID forge.ID) ([]string, error) {
	return t.strings(ctx, sqlRepoFlags, "repository flags", repoID)
}

// strings reads the one text column of query's rows.
func (t *tx) strings(ctx context.Context, query, what string, args ...any) ([]string, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err, what)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, mapError(err, what)
		}
		out = append(out, s)
	}
	return out, mapError(rows.Err(), what)
}

func (t *tx) SetRepoFlags(ctx context.Context, repoID forge.ID, flags []string) error {
	var ok bool
	if err := t.queryRow(ctx, sqlRepoExists, repoID).Scan(&ok); err != nil {
		return mapError(err, "repository flags")
	}
	if !ok {
		return forge.Errorf(forge.ErrNotFound, "repository flags: missing referenced row")
	}
	if _, err := t.exec(ctx, sqlDeleteFlags, repoID); err != nil {
		return mapError(err, "repository flags")
	}
	for _, f := range flags {
		if _, err := t.exec(ctx, sqlAddFlag, repoID, f); err != nil {
			return mapError(err, "repository flags")
		}
	}
	return nil
}

// repoTopics reads a repository's topics as stored.
func (t *tx) repoTopics(ctx context.Context, id forge.ID) ([]string, error) {
	return t.strings(ctx, sqlRepoTopicNames, "repository topics", id)
}

// noteTopics records in the topic table the topics a repository took (in
// now, not in before) at time at: created then when new, updated then.
func (t *tx) noteTopics(ctx context.Context, before, now []string, at time.Time) error {
	for _, name := range now {
		if slices.Contains(before, name) {
			continue
		}
		if _, err := t.exec(ctx, sqlNoteTopic, name, toUnix(at), toUnix(at)); err != nil {
			return mapError(err, "topics")
		}
	}
	return nil
}

func (t *tx) SearchTopics(ctx context.Context, keyword string, o forge.ListOptions) ([]repos.Topic, int64, error) {
	like := "%" + escapeLike(strings.ToLower(keyword)) + "%"
	var total int64
	if err := t.queryRow(ctx, sqlCountTopics, like).Scan(&total); err != nil {
		return nil, 0, mapError(err, "topics")
	}
	o = o.Normalize()
	rows, err := t.query(ctx, sqlSearchTopics, like, o.Limit, o.Offset())
	if err != nil {
		return nil, 0, mapError(err, "topics")
	}
	defer rows.Close()
	out := []repos.Topic{}
	for rows.Next() {
		var tp repos.Topic
		var created, updated int64
		if err := rows.Scan(&tp.ID, &tp.Name, &tp.RepoCount, &created, &updated); err != nil {
			return nil, 0, mapError(err, "topics")
		}
		tp.Created, tp.Updated = fromUnix(created), fromUnix(updated)
		out = append(out, tp)
	}
	return out, total, mapError(rows.Err(), "topics")
}
