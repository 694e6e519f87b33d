package repos

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// Tag is a tag reference: its target object (the tag object for annotated
// tags) and the commit it names.
type Tag struct {
	Name   string
	ID     string
	Commit string
	// Message is git's %(contents) of the target, untrimmed: an annotated
	// tag's message without its signature, a lightweight tag's commit
	// message.
	Message string
}

// ListTags returns one page of the tags of owner/name (as git lists
// them) and their total. Each tag's Message is git's %(contents) of its
// target: an annotated tag's message (without signature), a lightweight
// tag's commit message, untrimmed (Forgejo's /tags trims it when
// converting). The page's messages are read in one pass.
func (s *Service) ListTags(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) (*View, []*Tag, int64, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, 0, err
	}
	v, refs, err := s.Refs(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	var all []Ref
	for _, r := range refs {
		if strings.HasPrefix(r.Name, "refs/tags/") {
			all = append(all, r)
		}
	}
	page := forge.Page(all, o.Normalize())
	msgs, err := s.messages(ctx, v.Repo.ID, page)
	if err != nil {
		return nil, nil, 0, err
	}
	out := make([]*Tag, 0, len(page))
	for _, r := range page {
		out = append(out, tagOf(r, msgs))
	}
	return v, out, int64(len(all)), nil
}

// tagOf converts a tag reference with its message (msgs, by target id).
func tagOf(r Ref, msgs map[string]string) *Tag {
	return &Tag{Name: strings.TrimPrefix(r.Name, "refs/tags/"), ID: r.Target, Commit: r.Commit, Message: msgs[r.Target]}
}

// GetTag returns the tag called name, with its Message as in ListTags.
// forge.ErrNotFound if no tag has that name.
func (s *Service) GetTag(ctx context.Context, actor forge.Actor, owner, name, tag string) (*View, *Tag, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.getTag(ctx, v, tag)
	if err != nil {
		return nil, nil, err
	}
	return v, t, nil
}

// getTag is GetTag in v, a view resolved for a reader of its code.
func (s *Service) getTag(ctx context.Context, v *View, tag string) (*Tag, error) {
	refs, err := s.git.Refs(ctx, v.Repo.ID)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if r.Name == "refs/tags/"+tag {
			msgs, err := s.messages(ctx, v.Repo.ID, []Ref{r})
			if err != nil {
				return nil, err
			}
			return tagOf(r, msgs), nil
		}
	}
	return nil, forge.Errorf(forge.ErrNotFound, "tag does not exist [name: %s]", tag)
}

// CreateTag creates a tag at target (resolved by ResolveRef: a branch,
// then a tag, then a commit id, short ones included; "" is the default
// branch); annotated
// when message is set, made as Forgejo makes it (git tag -a -m: git's
// default cleanup strips comment lines, trailing spaces and blank lines at
// either end, and ends the message with a newline). Writers only, not
// archived. Errors: forge.ErrInvalid for an invalid tag name or target
// (CheckRefName, CheckRevision) and, as Forgejo's 422, `user not allowed
// to create protected tag` for a protected tag the actor is not
// whitelisted for; forge.ErrConflict `tag <name> already
// exists`, or `The branch with the same name already exists.` when a
// branch holds the name (a tag must never shadow a branch);
// forge.ErrNotFound for an unknown target.
func (s *Service) CreateTag(ctx context.Context, actor forge.Actor, owner, name, tag, target, message string) (*View, *Tag, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTagName("TagName", tag); err != nil {
		return nil, nil, err
	}
	if err := s.checkQuota(ctx, v.Repo, quota.SubjectReposAll); err != nil {
		return nil, nil, err
	}
	if target != "" {
		if err := CheckRevision(target); err != nil {
			return nil, nil, forge.Errorf(forge.ErrInvalid, "[Target]: %v", err)
		}
	}
	if err := s.checkTag(ctx, actor, v, tag, false); err != nil {
		return nil, nil, err
	}
	rr, err := s.resolveRef(ctx, v, target, true)
	if err != nil {
		return nil, nil, err
	}
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+tag); err == nil {
		return nil, nil, forge.Errorf(forge.ErrConflict, "The branch with the same name already exists.")
	}
	target = rr.Commit
	tagger := Signature{Name: actor.User.Name, Email: actor.User.Email, When: s.clock.Now()}
	if err := s.git.CreateTag(ctx, v.Repo.ID, tag, target, message, tagger); err != nil {
		if errors.Is(err, forge.ErrConflict) {
			return nil, nil, forge.Errorf(forge.ErrConflict, "tag %s already exists", tag)
		}
		return nil, nil, err
	}
	newID, err := s.refValue(ctx, v.Repo.ID, "refs/tags/"+tag)
	if err != nil {
		return nil, nil, err
	}
	if err := s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID,
		updates: []RefUpdate{{Ref: "refs/tags/" + tag, NewID: newID}}}); err != nil {
		return nil, nil, err
	}
	t, err := s.getTag(ctx, v, tag)
	if err != nil {
		return nil, nil, err
	}
	return v, t, nil
}

// DeleteTag deletes a tag. Writers only, not archived. Errors:
// forge.ErrNotFound for a missing (or invalid) name; forge.ErrConflict `a
// tag attached to a release cannot be deleted directly`; forge.ErrInvalid
// `user not allowed to delete protected tag` (Forgejo's 422).
func (s *Service) DeleteTag(ctx context.Context, actor forge.Actor, owner, name, tag string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/tags/"+tag); err != nil || CheckRefName(tag) != nil {
		return forge.Errorf(forge.ErrNotFound, "tag does not exist [name: %s]", tag)
	}
	err = s.store.View(ctx, func(tx Tx) error {
		_, err := tx.ReleaseByTag(ctx, v.Repo.ID, tag)
		return err
	})
	switch {
	case err == nil:
		return forge.Errorf(forge.ErrConflict, "a tag attached to a release cannot be deleted directly")
	case !errors.Is(err, forge.ErrNotFound):
		return err
	}
	if err := s.checkTag(ctx, actor, v, tag, true); err != nil {
		return err
	}
	oldID, err := s.refValue(ctx, v.Repo.ID, "refs/tags/"+tag)
	if err != nil {
		return err
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/tags/"+tag, "", cmp.Or(oldID, "*")); err != nil {
		return err
	}
	return s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID,
		updates: []RefUpdate{{Ref: "refs/tags/" + tag, OldID: oldID}}})
}

// AnnotatedTag reads a tag object by id. Readers only; an id that is no
// full object id of the repository's format, or no tag object, is
// forge.ErrInvalid `object does not exist [id: oid, rel_path: ]` with reason
// ErrUnknownSHA (Forgejo's 400).
func (s *Service) AnnotatedTag(ctx context.Context, actor forge.Actor, owner, name, oid string) (*View, *AnnotatedTag, error) {
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, nil, err
	}
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	// Forgejo's GetAnnotatedTag: an id that is no tag object is 400.
	unknown := forge.Reasonf(forge.ErrInvalid, ErrUnknownSHA, "object does not exist [id: %s, rel_path: ]", oid)
	if !isObjectID(oid) || len(oid) != v.Repo.ObjectFormat.HexLen() {
		return nil, nil, unknown
	}
	t, err := s.git.Tag(ctx, v.Repo.ID, oid)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, unknown
	}
	return v, t, err
}
