package memstore

import (
	"cmp"
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

// storedRelease keeps what the SQL backends keep: not the loaded author or
// assets.
func storedRelease(r *repos.Release) repos.Release {
	v := *r
	v.Author, v.Assets = nil, nil
	v.Created = ts(r.Created)
	return v
}

func releaseNotFound() error { return notFound("release") }

func (s *state) tagTaken(id, repoID forge.ID, tag string) bool {
	for _, r := range s.releases {
		if r.ID != id && r.RepoID == repoID && strings.EqualFold(r.TagName, tag) {
			return true
		}
	}
	return false
}

func (t *tx) CreateRelease(ctx context.Context, r *repos.Release) error {
	if err := writeRef(ctx, t, t.st.repos, r.RepoID, "release"); err != nil {
		return err
	}
	if t.st.tagTaken(0, r.RepoID, r.TagName) {
		return conflict("release")
	}
	v := storedRelease(r)
	v.ID = t.st.nextID("release")
	t.st.releases[v.ID] = v
	r.ID = v.ID
	return nil
}

func (t *tx) ReleaseByID(ctx context.Context, repoID, id forge.ID) (*repos.Release, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	r, ok := t.st.releases[id]
	if !ok || r.RepoID != repoID {
		return nil, releaseNotFound()
	}
	return &r, nil
}

func (t *tx) ReleaseByTag(ctx context.Context, repoID forge.ID, tag string) (*repos.Release, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, r := range t.st.releases {
		if r.RepoID == repoID && strings.EqualFold(r.TagName, tag) {
			return &r, nil
		}
	}
	return nil, releaseNotFound()
}

func (t *tx) ListReleases(ctx context.Context, repoID forge.ID, f repos.ReleaseFilter, o forge.ListOptions) ([]*repos.Release, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	kw := strings.ToLower(f.Keyword)
	all := []*repos.Release{}
	for _, r := range t.st.releases {
		switch {
		case r.RepoID != repoID,
			!f.IncludeDrafts && r.Draft,
			f.Draft != nil && r.Draft != *f.Draft,
			f.Prerelease != nil && r.Prerelease != *f.Prerelease,
			kw != "" && !strings.Contains(strings.ToLower(r.Name), kw) && !strings.Contains(strings.ToLower(r.TagName), kw):
			continue
		}
		all = append(all, &r)
	}
	page, n := sortPage(all, func(a, b *repos.Release) int {
		return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(b.ID, a.ID)) // newest first
	}, o)
	return page, n, nil
}

// UpdateRelease writes r.ID's tag, target, texts, flags and creation time;
// its repository and author stay as stored.
func (t *tx) UpdateRelease(ctx context.Context, r *repos.Release) error {
	old, err := writeRow(ctx, t, t.st.releases, r.ID, "release")
	if err != nil {
		return err
	}
	if t.st.tagTaken(r.ID, old.RepoID, r.TagName) {
		return conflict("release")
	}
	v := storedRelease(r)
	v.RepoID, v.AuthorID = old.RepoID, old.AuthorID
	t.st.releases[r.ID] = v
	return nil
}

func (t *tx) DeleteRelease(ctx context.Context, id forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.releases, id, "release"); err != nil {
		return err
	}
	delete(t.st.releases, id)
	t.st.deleteReleaseAssetsWhere(func(_ forge.ID, a repos.Attachment) bool { return a.ReleaseID == id }) // quota.go
	return nil
}

func attachmentNotFound() error { return notFound("attachment") }

func (t *tx) CreateAttachment(ctx context.Context, a *repos.Attachment) error {
	if err := writeRef(ctx, t, t.st.repos, a.RepoID, "attachment"); err != nil {
		return err
	}
	if _, ok := t.st.releases[a.ReleaseID]; !ok {
		return missingRef("attachment")
	}
	if err := conflictIf(t.st.attachments, func(o repos.Attachment) bool { return o.UUID == a.UUID }, "attachment"); err != nil {
		return err
	}
	v := *a
	v.ID = t.st.nextID("attachment")
	v.Created = ts(a.Created)
	t.st.attachments[v.ID] = v
	t.st.countAsset(v.RepoID, quota.BucketAttachmentsReleases, v.Size) // quota.go
	a.ID = v.ID
	return nil
}

func (t *tx) Attachment(ctx context.Context, id forge.ID) (*repos.Attachment, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	a, ok := t.st.attachments[id]
	if !ok {
		return nil, attachmentNotFound()
	}
	return &a, nil
}

func (t *tx) AttachmentByUUID(ctx context.Context, uuid string) (*repos.Attachment, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, a := range t.st.attachments {
		if a.UUID == uuid {
			return &a, nil
		}
	}
	return nil, attachmentNotFound()
}

func (t *tx) ListAttachments(ctx context.Context, releaseID forge.ID) ([]*repos.Attachment, error) {
	return listRows(ctx, t, t.st.attachments, func(a repos.Attachment) bool { return a.ReleaseID == releaseID }, func(a, b *repos.Attachment) int { return cmp.Compare(a.ID, b.ID) })
}

// UpdateAttachment writes a's name, download count and external URL.
func (t *tx) UpdateAttachment(ctx context.Context, a *repos.Attachment) error {
	return updateRow(ctx, t, t.st.attachments, a.ID, "attachment", func(v repos.Attachment) repos.Attachment {
		v.Name, v.Downloads, v.ExternalURL = a.Name, a.Downloads, a.ExternalURL
		return v
	})
}

func (t *tx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.attachments, id, "attachment"); err != nil {
		return err
	}
	t.st.deleteReleaseAssetsWhere(func(k forge.ID, _ repos.Attachment) bool { return k == id }) // quota.go
	return nil
}

func (t *tx) CreateStatus(ctx context.Context, st *repos.CommitStatus) error {
	if err := writeRef(ctx, t, t.st.repos, st.RepoID, "commit status"); err != nil {
		return err
	}
	v := *st
	v.Creator = nil
	v.ID = t.st.nextID("commit_status")
	v.Created, v.Updated = ts(st.Created), ts(st.Updated)
	t.st.statuses[v.ID] = v
	st.ID = v.ID
	return nil
}

func (t *tx) ListStatuses(ctx context.Context, repoID forge.ID, sha string, f repos.StatusFilter, o forge.ListOptions) ([]*repos.CommitStatus, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []*repos.CommitStatus{}
	for _, st := range t.st.statuses {
		if st.RepoID == repoID && st.SHA == sha && (f.State == "" || st.State == f.State) {
			all = append(all, &st)
		}
	}
	order := func(a, b *repos.CommitStatus) int { return cmp.Compare(b.ID, a.ID) }
	if f.Sort == "oldest" {
		order = reverse(order)
	}
	page, n := sortPage(all, order, o)
	return page, n, nil
}
