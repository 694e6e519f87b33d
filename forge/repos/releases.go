package repos

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Blobs stores attachment bytes (storage/blob.Dir does).
type Blobs interface {
	// Put stores r under key, reading at most max bytes (0: no limit);
	// forge.ErrInvalid when r is longer.
	Put(ctx context.Context, key string, r io.Reader, max int64) (int64, error)
	// Open returns the blob; forge.ErrNotFound if there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the blob.
	Delete(ctx context.Context, key string) error
}

// Release is a release of a repository at a tag.
type Release struct {
	ID               forge.ID
	RepoID           forge.ID
	AuthorID         forge.ID
	Author           *forge.User
	TagName          string
	Target           string // target_commitish
	Name             string
	Body             string
	Draft            bool
	Prerelease       bool
	HideArchiveLinks bool
	Created          time.Time
	Assets           []*Attachment
}

// Attachment is a file attached to a release: stored bytes, or an external
// link.
type Attachment struct {
	ID          forge.ID
	UUID        string
	RepoID      forge.ID
	ReleaseID   forge.ID
	UploaderID  forge.ID
	Name        string
	Size        int64
	Downloads   int64
	ExternalURL string
	Created     time.Time
}

// ReleaseFilter narrows ListReleases.
type ReleaseFilter struct {
	// IncludeDrafts shows drafts (writers only).
	IncludeDrafts bool
	Draft         *bool
	Prerelease    *bool
	Keyword       string
}

// ReleaseOptions are Forgejo's Create/EditReleaseOption; nil fields are
// left alone on edit.
type ReleaseOptions struct {
	TagName          *string
	Target           *string
	Name             *string
	Body             *string
	Draft            *bool
	Prerelease       *bool
	HideArchiveLinks *bool
}

// ListReleases returns one page of releases, newest first; drafts only for
// writers.
func (s *Service) ListReleases(ctx context.Context, actor forge.Actor, owner, name string, f ReleaseFilter, o forge.ListOptions) (*View, []*Release, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, 0, err
	}
	var (
		v     *View
		list  []*Release
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if v, err = load(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		if err := requireUnitRead(v, forge.UnitReleases); err != nil {
			return err
		}
		f.IncludeDrafts = v.Perm.CanWrite(forge.UnitReleases)
		if list, total, err = tx.ListReleases(ctx, v.Repo.ID, f, o.Normalize()); err != nil {
			return err
		}
		return fillReleases(ctx, tx, actor, list)
	})
	return v, list, total, err
}

// fillReleases sets the author (as actor may see it; nil when deleted)
// and the attachments of each release of list, in two queries whatever
// its length.
func fillReleases(ctx context.Context, tx Tx, actor forge.Actor, list []*Release) error {
	if len(list) == 0 {
		return nil
	}
	authors := make([]forge.ID, 0, len(list))
	ids := make([]forge.ID, 0, len(list))
	for _, r := range list {
		authors, ids = append(authors, r.AuthorID), append(ids, r.ID)
	}
	users, err := tx.UsersByID(ctx, authors)
	if err != nil {
		return err
	}
	assets, err := tx.AttachmentsOf(ctx, ids)
	if err != nil {
		return err
	}
	for _, r := range list {
		r.Author = users[r.AuthorID].VisibleTo(actor)
		r.Assets = assets[r.ID]
		if r.Assets == nil {
			r.Assets = []*Attachment{}
		}
	}
	return nil
}

// GetRelease finds a release by id, by tag (tag != ""), or the latest
// published one (latest). Drafts only for writers. forge.ErrNotFound.
func (s *Service) GetRelease(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID, tag string, latest bool) (*View, *Release, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	var (
		v   *View
		rel *Release
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if v, err = load(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		if err := requireUnitRead(v, forge.UnitReleases); err != nil {
			return err
		}
		switch {
		case latest:
			no := false
			list, _, err := tx.ListReleases(ctx, v.Repo.ID, ReleaseFilter{Draft: &no, Prerelease: &no}, forge.ListOptions{Page: 1, Limit: 1})
			if err != nil {
				return err
			}
			if len(list) == 0 {
				return releaseMissing(0, "")()
			}
			rel = list[0]
		case tag != "":
			rel, err = tx.ReleaseByTag(ctx, v.Repo.ID, tag)
		default:
			rel, err = tx.ReleaseByID(ctx, v.Repo.ID, id)
		}
		if err != nil {
			return storeMissing(err, releaseMissing(id, tag))
		}
		if rel.Draft && !v.Perm.CanWrite(forge.UnitReleases) {
			return releaseMissing(id, tag)()
		}
		return fillReleases(ctx, tx, actor, []*Release{rel})
	})
	return v, rel, err
}

// CreateRelease publishes (or drafts) a release. Writers only, not
// archived. The tag is created at Target (default branch) when missing,
// except for drafts (publishing one creates it). Errors: forge.ErrInvalid
// for an empty repository, an invalid tag name or target (CheckRefName,
// CheckRevision), or a protected tag the actor may not create (Forgejo's
// 422 ProtectedTagName: the same rule as pushes, CheckRefUpdate);
// forge.ErrConflict when the tag has a release already; forge.ErrNotFound
// for an unknown target. Nothing is stored when it fails.
func (s *Service) CreateRelease(ctx context.Context, actor forge.Actor, owner, name string, o ReleaseOptions) (*View, *Release, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return nil, nil, err
	}
	if v.Repo.Empty {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "repo is empty")
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectReposAll); err != nil {
		return nil, nil, err
	}
	rel := &Release{RepoID: v.Repo.ID, AuthorID: actor.User.ID, Author: actor.User, Target: v.Repo.DefaultBranch, Created: s.clock.Now()}
	applyRelease(rel, o)
	if err := checkTagName("TagName", rel.TagName); err != nil {
		return nil, nil, err
	}
	if o.Target != nil && *o.Target != "" {
		if err := CheckRevision(*o.Target); err != nil {
			return nil, nil, forge.Errorf(forge.ErrInvalid, "[Target]: %v", err)
		}
	}
	if rel.Name == "" {
		rel.Name = rel.TagName // Forgejo: the title defaults to the tag name
	}
	if err := s.store.View(ctx, func(tx Tx) error { return releaseTagFree(ctx, tx, v.Repo.ID, rel.TagName, 0) }); err != nil {
		return nil, nil, err
	}
	created, err := s.ensureReleaseTag(ctx, actor, v, rel)
	if err != nil {
		return nil, nil, err
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := releaseTagFree(ctx, tx, v.Repo.ID, rel.TagName, 0); err != nil {
			return err
		}
		if err := tx.CreateRelease(ctx, rel); err != nil {
			return err
		}
		stored, err := tx.ReleaseByID(ctx, v.Repo.ID, rel.ID)
		if err != nil {
			return err
		}
		if err := fillReleases(ctx, tx, actor, []*Release{stored}); err != nil {
			return err
		}
		if err := s.appendRefMoves(ctx, tx, tagMoves(actor, v, created)); err != nil {
			return err
		}
		return s.appendOutbox(ctx, tx, OutboxRelease, OutboxEvent{Actor: actor, Repo: v.Repo,
			Release: &ReleaseEvent{Op: ReleaseCreated, Release: stored}})
	})
	if err != nil {
		s.dropTag(ctx, v, created)
		return nil, nil, err
	}
	s.signalOutbox()
	s.tellAppended(ctx, tagMoves(actor, v, created))
	// The release is stored: a failed refresh of the cached state (size)
	// is logged, never reported as a failed write (as ChangeFiles).
	if v, err = s.refreshed(ctx, v); err != nil {
		s.log.ErrorContext(ctx, "refresh after release", "repo", v.Repo.ID, "release", rel.ID, "err", err)
	}
	// The release as stored (the store sets what it keeps, Updated among
	// them), not the value written.
	err = s.store.View(ctx, func(tx Tx) error {
		stored, err := tx.ReleaseByID(ctx, v.Repo.ID, rel.ID)
		if err != nil {
			return err
		}
		rel = stored
		return fillReleases(ctx, tx, actor, []*Release{rel})
	})
	if err == nil {
		s.notifyRelease(ctx, actor, v.Repo, ReleaseEvent{Op: ReleaseCreated, Release: rel})
	}
	return v, rel, err
}

// releaseTagFree is forge.ErrConflict when a release other than id uses
// tag.
func releaseTagFree(ctx context.Context, tx Tx, repo forge.ID, tag string, id forge.ID) error {
	other, err := tx.ReleaseByTag(ctx, repo, tag)
	switch {
	case errors.Is(err, forge.ErrNotFound):
		return nil
	case err != nil:
		return err
	case other.ID != id:
		return forge.Errorf(forge.ErrConflict, "release with tag %s already exists", tag)
	}
	return nil
}

// ensureReleaseTag creates the tag of a published release when it does not
// exist yet, after the protection check (a refusal is Forgejo's 422
// ProtectedTagName). It returns the ref move it made (nil if none), for the
// caller to record in the transaction storing the release (appendRefMoves)
// or to undo (dropTag).
func (s *Service) ensureReleaseTag(ctx context.Context, actor forge.Actor, v *View, rel *Release) (*RefUpdate, error) {
	if rel.Draft {
		return nil, nil
	}
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/tags/"+rel.TagName); err == nil {
		return nil, nil
	}
	_, err := s.checkRefChange(ctx, actor, v, false, RefUpdate{Ref: "refs/tags/" + rel.TagName, NewID: "1"})
	var rc *RefChangeError
	if errors.As(err, &rc) {
		return nil, forge.Errorf(forge.ErrInvalid, "user without permission tried to create protected tag [name: %s]", rel.TagName)
	}
	if err != nil {
		return nil, err
	}
	target, err := ResolveRef(ctx, s.git, v.Repo.ID, rel.Target, true)
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, "target \"%s\" not found", rel.Target)
	}
	if err := s.git.CreateTag(ctx, v.Repo.ID, rel.TagName, target.Commit, "", Signature{}); err != nil {
		return nil, err
	}
	// A lightweight tag: the ref holds the commit.
	return &RefUpdate{Ref: "refs/tags/" + rel.TagName, NewID: target.Commit}, nil
}

// tagMoves is the record of the tag ensureReleaseTag created, if any.
func tagMoves(actor forge.Actor, v *View, created *RefUpdate) refMoves {
	m := refMoves{actor: actor, repo: v.Repo.ID}
	if created != nil {
		m.updates = []RefUpdate{*created}
	}
	return m
}

// dropTag removes a tag ensureReleaseTag created when the release it was
// for could not be stored: the tag never was (its creation was not
// recorded, and neither is its removal), so it is removed only while it
// still points where it was created.
func (s *Service) dropTag(ctx context.Context, v *View, created *RefUpdate) {
	if created == nil {
		return
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, created.Ref, "", created.NewID); err != nil {
		s.log.WarnContext(ctx, "tag of a failed release not removed", "tag", created.Ref, "err", err)
	}
}

// applyRelease sets o on r. As in Forgejo, empty strings for the tag name,
// target, title and body leave them unchanged (EditRelease's
// `len(form.X) > 0`).
func applyRelease(r *Release, o ReleaseOptions) {
	for _, f := range []struct {
		dst *string
		v   *string
	}{{&r.TagName, o.TagName}, {&r.Target, o.Target}, {&r.Name, o.Name}, {&r.Body, o.Body}} {
		if f.v != nil && *f.v != "" {
			*f.dst = *f.v
		}
	}
	set(&r.Draft, o.Draft)
	set(&r.Prerelease, o.Prerelease)
	set(&r.HideArchiveLinks, o.HideArchiveLinks)
}

// EditRelease changes a release and returns it as stored. Writers only,
// not archived. Empty strings leave tag_name, target_commitish, name and
// body unchanged (Forgejo). Publishing a draft, or changing the tag of a
// published release, creates the tag when missing, under the same
// protection check as pushes. Errors: forge.ErrNotFound for an unknown
// release or target; forge.ErrInvalid for an invalid tag name or target or
// a protected tag, or a tag another release has (all 422). Everything is validated before anything is written; a failed edit
// stores nothing.
func (s *Service) EditRelease(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID, o ReleaseOptions) (*View, *Release, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return nil, nil, err
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectReposAll); err != nil {
		return nil, nil, err
	}
	if o.TagName != nil && *o.TagName != "" {
		if err := checkTagName("TagName", *o.TagName); err != nil {
			return nil, nil, err
		}
	}
	if o.Target != nil && *o.Target != "" {
		if err := CheckRevision(*o.Target); err != nil {
			return nil, nil, forge.Errorf(forge.ErrInvalid, "[Target]: %v", err)
		}
	}
	var rel *Release
	var wasDraft bool
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		if rel, err = tx.ReleaseByID(ctx, v.Repo.ID, id); err != nil {
			return storeMissing(err, releaseMissing(id, ""))
		}
		wasDraft = rel.Draft
		applyRelease(rel, o)
		if wasDraft && !rel.Draft {
			rel.Created = s.clock.Now() // published now
		}
		return releaseTagFree(ctx, tx, v.Repo.ID, rel.TagName, rel.ID)
	})
	if errors.Is(err, forge.ErrConflict) {
		// Forgejo's EditRelease declares no 409: the tag of another
		// release is invalid input here.
		err = forge.Errorf(forge.ErrInvalid, "%s", err.Error())
	}
	if err != nil {
		return nil, nil, err
	}
	created, err := s.ensureReleaseTag(ctx, actor, v, rel)
	if err != nil {
		return nil, nil, err
	}
	var out *Release
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := releaseTagFree(ctx, tx, v.Repo.ID, rel.TagName, rel.ID); err != nil {
			return err
		}
		if err := tx.UpdateRelease(ctx, rel); err != nil {
			return err
		}
		var err error
		if out, err = tx.ReleaseByID(ctx, v.Repo.ID, id); err != nil {
			return err
		}
		if err := fillReleases(ctx, tx, actor, []*Release{out}); err != nil {
			return err
		}
		if err := s.appendRefMoves(ctx, tx, tagMoves(actor, v, created)); err != nil {
			return err
		}
		return s.appendOutbox(ctx, tx, OutboxRelease, OutboxEvent{Actor: actor, Repo: v.Repo,
			Release: &ReleaseEvent{Op: ReleaseEdited, Release: out, WasDraft: wasDraft, TagCreated: created != nil}})
	})
	if err != nil {
		s.dropTag(ctx, v, created)
		return nil, nil, err
	}
	s.signalOutbox()
	s.tellAppended(ctx, tagMoves(actor, v, created))
	s.notifyRelease(ctx, actor, v.Repo, ReleaseEvent{Op: ReleaseEdited, Release: out, WasDraft: wasDraft, TagCreated: created != nil})
	if created != nil {
		v, err = s.refreshed(ctx, v)
	}
	return v, out, err
}

// DeleteRelease deletes a release (by id, or by tag when tag != "") and its
// assets. The tag stays: no release call deletes a tag, so none can get
// round tag protection. Writers only, not archived.
func (s *Service) DeleteRelease(ctx context.Context, actor forge.Actor, owner, name string, id forge.ID, tag string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return err
	}
	var assets []*Attachment
	var rel *Release
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		if tag != "" {
			rel, err = tx.ReleaseByTag(ctx, v.Repo.ID, tag)
		} else {
			rel, err = tx.ReleaseByID(ctx, v.Repo.ID, id)
		}
		if err != nil {
			return storeMissing(err, releaseMissing(id, tag))
		}
		if assets, err = tx.ListAttachments(ctx, rel.ID); err != nil {
			return err
		}
		if err := tx.DeleteRelease(ctx, rel.ID); err != nil {
			return err
		}
		gone := *rel
		gone.Assets = assets
		return s.appendOutbox(ctx, tx, OutboxRelease, OutboxEvent{Actor: actor, Repo: v.Repo,
			Release: &ReleaseEvent{Op: ReleaseRemoved, Release: &gone}})
	})
	if err != nil {
		return err
	}
	s.signalOutbox()
	s.removeBlobs(ctx, assets)
	rel.Assets = assets
	s.notifyRelease(ctx, actor, v.Repo, ReleaseEvent{Op: ReleaseRemoved, Release: rel})
	return nil
}

func (s *Service) removeBlobs(ctx context.Context, assets []*Attachment) {
	for _, a := range assets {
		if a.ExternalURL == "" && s.cfg.Blobs != nil {
			if err := s.cfg.Blobs.Delete(ctx, a.UUID); err != nil {
				s.log.WarnContext(ctx, "attachment bytes not removed", "uuid", a.UUID, "err", err)
			}
		}
	}
}

// ErrAttachmentTooLarge is the reason of the forge.ErrInvalid error for an
// upload over its limit (the HTTP layer answers 413).
var ErrAttachmentTooLarge = forge.Errorf(forge.ErrInvalid, "attachment is too large")

// AttachmentUpload is a new release asset: bytes from Content, or an
// external link.
type AttachmentUpload struct {
	Name        string
	Content     io.Reader
	ExternalURL string
	// Max limits the size of Content (0: no limit).
	Max int64
}

// AddAttachment attaches a file to a release. Writers only, not archived.
// forge.ErrPrecondition when the host configured no blob store;
// forge.ErrInvalid for a missing name or a file over the limit.
func (s *Service) AddAttachment(ctx context.Context, actor forge.Actor, owner, name string, releaseID forge.ID, up AttachmentUpload) (*View, *Attachment, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return nil, nil, err
	}
	if up.Name == "" {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "attachment name is empty")
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectAttachmentsReleases); err != nil {
		return nil, nil, err
	}
	if err := s.store.View(ctx, func(tx Tx) error {
		_, err := tx.ReleaseByID(ctx, v.Repo.ID, releaseID)
		return storeMissing(err, releaseMissing(releaseID, ""))
	}); err != nil {
		return nil, nil, err
	}
	a := &Attachment{UUID: newUUID(), RepoID: v.Repo.ID, ReleaseID: releaseID, UploaderID: actor.User.ID,
		Name: up.Name, ExternalURL: up.ExternalURL, Created: s.clock.Now()}
	if up.ExternalURL == "" {
		if s.cfg.Blobs == nil {
			return nil, nil, forge.Errorf(forge.ErrPrecondition, "attachments are disabled")
		}
		if a.Size, err = s.cfg.Blobs.Put(ctx, a.UUID, up.Content, up.Max); errors.Is(err, forge.ErrInvalid) {
			return nil, nil, forge.Reasonf(forge.ErrInvalid, ErrAttachmentTooLarge, "attachment is larger than %d bytes", up.Max)
		} else if err != nil {
			return nil, nil, err
		}
	} else if !ValidDownloadURL(up.ExternalURL) {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "invalid external URL")
	}
	if err := s.store.Update(ctx, func(tx Tx) error {
		// The asset may not carry the owner past a limit; its row is the
		// usage (quota.BucketAttachmentsReleases).
		err := quota.Charge(ctx, tx, s.cfg.Quota, quota.RepoOwner(v.Repo), quota.SubjectAttachmentsReleases,
			quota.BucketAttachmentsReleases, a.Size)
		if err != nil {
			return err
		}
		return tx.CreateAttachment(ctx, a)
	}); err != nil {
		s.removeBlobs(ctx, []*Attachment{a})
		return nil, nil, err
	}
	return v, a, nil
}

// GetAttachment returns a release asset (readers; drafts for writers).
func (s *Service) GetAttachment(ctx context.Context, actor forge.Actor, owner, name string, releaseID, id forge.ID) (*View, *Attachment, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, rel, err := s.GetRelease(ctx, actor, owner, name, releaseID, "", false)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range rel.Assets {
		if a.ID == id {
			return v, a, nil
		}
	}
	return nil, nil, attachmentMissing(id, "")()
}

// EditAttachment renames a release asset (or changes its external link).
func (s *Service) EditAttachment(ctx context.Context, actor forge.Actor, owner, name string, releaseID, id forge.ID, newName, externalURL string) (*View, *Attachment, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return nil, nil, err
	}
	var a *Attachment
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		if a, err = tx.Attachment(ctx, id); err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		if err != nil || a.ReleaseID != releaseID || a.RepoID != v.Repo.ID {
			return attachmentMissing(id, "")()
		}
		if newName != "" {
			a.Name = newName
		}
		if externalURL != "" {
			if a.ExternalURL == "" {
				return forge.Errorf(forge.ErrInvalid, "existing attachment is not external")
			}
			if !ValidDownloadURL(externalURL) {
				return forge.Errorf(forge.ErrInvalid, "invalid external URL")
			}
			a.ExternalURL = externalURL
		}
		return tx.UpdateAttachment(ctx, a)
	})
	return v, a, err
}

// DeleteAttachment removes a release asset and its bytes.
func (s *Service) DeleteAttachment(ctx context.Context, actor forge.Actor, owner, name string, releaseID, id forge.ID) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.unitWriter(ctx, actor, owner, name, forge.UnitReleases)
	if err != nil {
		return err
	}
	var a *Attachment
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		if a, err = tx.Attachment(ctx, id); err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		if err != nil || a.ReleaseID != releaseID || a.RepoID != v.Repo.ID {
			return attachmentMissing(id, "")()
		}
		return tx.DeleteAttachment(ctx, id)
	})
	if err != nil {
		return err
	}
	s.removeBlobs(ctx, []*Attachment{a})
	return nil
}

// OpenAttachment returns the bytes of the attachment with that uuid if the
// actor may read its repository (and its release, for drafts), counting the
// download. An external link is returned only when it is http(s)
// (ValidDownloadURL): rows stored before that rule with another scheme are
// forge.ErrNotFound, so no caller redirects to them.
func (s *Service) OpenAttachment(ctx context.Context, actor forge.Actor, uuid string) (*Attachment, io.ReadCloser, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	var a *Attachment
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		if a, err = tx.AttachmentByUUID(ctx, uuid); err != nil {
			return storeMissing(err, attachmentMissing(0, uuid))
		}
		r, err := tx.RepoByID(ctx, a.RepoID)
		if err != nil {
			return err
		}
		owner, err := tx.UserByID(ctx, r.OwnerID)
		if err != nil {
			return err
		}
		v, err := load(ctx, tx, actor, owner.Name, r.Name)
		if err != nil {
			return err
		}
		rel, err := tx.ReleaseByID(ctx, a.RepoID, a.ReleaseID)
		if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return err
		}
		if err != nil || (rel.Draft && !v.Perm.CanWrite(forge.UnitReleases)) || !v.Perm.CanRead(forge.UnitReleases) || (a.ExternalURL != "" && !ValidDownloadURL(a.ExternalURL)) {
			return attachmentMissing(0, uuid)()
		}
		a.Downloads++
		return tx.UpdateAttachment(ctx, a)
	})
	if err != nil {
		return nil, nil, err
	}
	if a.ExternalURL != "" || s.cfg.Blobs == nil {
		return a, nil, nil
	}
	rc, err := s.cfg.Blobs.Open(ctx, a.UUID)
	return a, rc, err
}

// ValidDownloadURL reports whether u may be a release asset's external
// browser_download_url: an absolute http or https URL with a host (never
// javascript:, data:, file: and the like).
func ValidDownloadURL(u string) bool { return validURL(u) }

func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	var sb strings.Builder
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			sb.WriteByte('-')
		}
		sb.WriteByte(hex[c>>4])
		sb.WriteByte(hex[c&15])
	}
	return sb.String()
}
