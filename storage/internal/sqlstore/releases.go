package sqlstore

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

const releaseCols = `id, repo_id, author_id, tag_name, target, name, body, is_draft, is_prerelease, hide_archive_links, created_unix`

const attachmentCols = `id, uuid, repo_id, release_id, uploader_id, name, size, download_count, external_url, created_unix`

var (
	sqlCreateRelease = prepared(`INSERT INTO release (repo_id, author_id, tag_name, lower_tag_name, target, name, body,
		is_draft, is_prerelease, hide_archive_links, created_unix) VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlReleaseByID   = prepared("SELECT " + releaseCols + " FROM release WHERE repo_id = ? AND id = ?")
	sqlReleaseByTag  = prepared("SELECT " + releaseCols + " FROM release WHERE repo_id = ? AND lower_tag_name = ?")
	sqlUpdateRelease = prepared(`UPDATE release SET tag_name = ?, lower_tag_name = ?, target = ?, name = ?, body = ?,
		is_draft = ?, is_prerelease = ?, hide_archive_links = ?, created_unix = ? WHERE id = ? AND repo_id = ?`)
	sqlDeleteRelease = prepared(`DELETE FROM release WHERE id = ?`)

	sqlCreateAttachment = prepared(`INSERT INTO attachment (uuid, repo_id, release_id, uploader_id, name, size,
		download_count, external_url, created_unix) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`)
	sqlAttachment       = prepared("SELECT " + attachmentCols + " FROM attachment WHERE id = ?")
	sqlAttachmentByUUID = prepared("SELECT " + attachmentCols + " FROM attachment WHERE uuid = ?")
	sqlListAttachments  = prepared("SELECT " + attachmentCols + " FROM attachment WHERE release_id = ? ORDER BY id")
	sqlUpdateAttachment = prepared(`UPDATE attachment SET name = ?, download_count = ?, external_url = ? WHERE id = ?`)
	sqlDeleteAttachment = prepared(`DELETE FROM attachment WHERE id = ?`)
)

func (t *tx) CreateRelease(ctx context.Context, r *repos.Release) error {
	return mapError(t.queryRow(ctx, sqlCreateRelease, r.RepoID, r.AuthorID, r.TagName, strings.ToLower(r.TagName), r.Target,
		r.Name, r.Body, r.Draft, r.Prerelease, r.HideArchiveLinks, toUnix(r.Created)).Scan(&r.ID), "release")
}

func releaseDest() (*repos.Release, []any, func()) {
	r := &repos.Release{}
	var created int64
	return r, []any{&r.ID, &r.RepoID, &r.AuthorID, &r.TagName, &r.Target, &r.Name, &r.Body, &r.Draft, &r.Prerelease,
		&r.HideArchiveLinks, &created}, func() { r.Created = fromUnix(created) }
}

func (t *tx) scanRelease(ctx context.Context, q string, args ...any) (*repos.Release, error) {
	r, dest, done := releaseDest()
	if err := t.queryRow(ctx, q, args...).Scan(dest...); err != nil {
		return nil, mapError(err, "release")
	}
	done()
	return r, nil
}

func (t *tx) ReleaseByID(ctx context.Context, repoID, id forge.ID) (*repos.Release, error) {
	return t.scanRelease(ctx, sqlReleaseByID, repoID, id)
}

func (t *tx) ReleaseByTag(ctx context.Context, repoID forge.ID, tag string) (*repos.Release, error) {
	return t.scanRelease(ctx, sqlReleaseByTag, repoID, strings.ToLower(tag))
}

func (t *tx) ListReleases(ctx context.Context, repoID forge.ID, f repos.ReleaseFilter, o forge.ListOptions) ([]*repos.Release, int64, error) {
	where, args := "repo_id = ?", []any{repoID}
	if !f.IncludeDrafts {
		where += " AND NOT is_draft"
	}
	if f.Draft != nil {
		where, args = where+" AND is_draft = ?", append(args, *f.Draft)
	}
	if f.Prerelease != nil {
		where, args = where+" AND is_prerelease = ?", append(args, *f.Prerelease)
	}
	if f.Keyword != "" {
		kw := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(f.Keyword)) + "%"
		where, args = where+` AND (lower(name) LIKE ? ESCAPE '\' OR lower_tag_name LIKE ? ESCAPE '\')`, append(args, kw, kw)
	}
	var total int64
	if err := t.queryRow(ctx, "SELECT count(*) FROM release WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, mapError(err, "releases")
	}
	list, err := queryAll(ctx, t, fromDest(releaseDest), "releases", "SELECT "+releaseCols+" FROM release WHERE "+where+" ORDER BY created_unix DESC, id DESC LIMIT ? OFFSET ?",
		append(args, o.Limit, o.Offset())...)
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

func (t *tx) UpdateRelease(ctx context.Context, r *repos.Release) error {
	res, err := t.exec(ctx, sqlUpdateRelease, r.TagName, strings.ToLower(r.TagName), r.Target, r.Name, r.Body, r.Draft,
		r.Prerelease, r.HideArchiveLinks, toUnix(r.Created), r.ID, r.RepoID)
	return affectedOne(res, err, "release")
}

func (t *tx) DeleteRelease(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteRelease, id)
	return affectedOne(res, err, "release")
}

func (t *tx) CreateAttachment(ctx context.Context, a *repos.Attachment) error {
	return mapError(t.queryRow(ctx, sqlCreateAttachment, a.UUID, a.RepoID, a.ReleaseID, a.UploaderID, a.Name, a.Size,
		a.Downloads, a.ExternalURL, toUnix(a.Created)).Scan(&a.ID), "attachment")
}

func (t *tx) scanAttachments(ctx context.Context, q string, args ...any) ([]*repos.Attachment, error) {
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, mapError(err, "attachment")
	}
	defer rows.Close()
	list := []*repos.Attachment{}
	for rows.Next() {
		a := &repos.Attachment{}
		var created int64
		if err := rows.Scan(&a.ID, &a.UUID, &a.RepoID, &a.ReleaseID, &a.UploaderID, &a.Name, &a.Size, &a.Downloads,
			&a.ExternalURL, &created); err != nil {
			return nil, mapError(err, "attachment")
		}
		a.Created = fromUnix(created)
		list = append(list, a)
	}
	return list, mapError(rows.Err(), "attachment")
}

func (t *tx) oneAttachment(ctx context.Context, q string, arg any) (*repos.Attachment, error) {
	list, err := t.scanAttachments(ctx, q, arg)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "attachment: not found")
	}
	return list[0], nil
}

func (t *tx) Attachment(ctx context.Context, id forge.ID) (*repos.Attachment, error) {
	return t.oneAttachment(ctx, sqlAttachment, id)
}

func (t *tx) AttachmentByUUID(ctx context.Context, uuid string) (*repos.Attachment, error) {
	return t.oneAttachment(ctx, sqlAttachmentByUUID, uuid)
}

func (t *tx) ListAttachments(ctx context.Context, releaseID forge.ID) ([]*repos.Attachment, error) {
	return t.scanAttachments(ctx, sqlListAttachments, releaseID)
}

func (t *tx) UpdateAttachment(ctx context.Context, a *repos.Attachment) error {
	res, err := t.exec(ctx, sqlUpdateAttachment, a.Name, a.Downloads, a.ExternalURL, a.ID)
	return affectedOne(res, err, "attachment")
}

func (t *tx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	res, err := t.exec(ctx, sqlDeleteAttachment, id)
	return affectedOne(res, err, "attachment")
}
