package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Tag is a tag reference: its target object (the tag object for annotated
// tags) and the commit it names.
type Tag struct {
	Name    string
	ID      string
	Commit  string
	Message string
}

// GetTag returns the tag called name.
func (s *Service) GetTag(ctx context.Context, actor forge.Actor, owner, name, tag string) (*View, *Tag, error) {
	v, refs, err := s.Refs(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range refs {
		if r.Name == "refs/tags/"+tag {
			t := &Tag{Name: tag, ID: r.Target, Commit: r.Commit}
			if r.Type == "tag" {
				if at, err := s.git.Tag(ctx, v.Repo.ID, r.Target); err == nil {
					t.Message = at.Message
				}
			}
			return v, t, nil
		}
	}
	return nil, nil, forge.Errorf(forge.ErrNotFound, "tag does not exist [name: %s]", tag)
}

// CreateTag creates a tag at target ("" is the default branch); annotated
// when message is set. Writers only, not archived. forge.ErrConflict
// `tag <name> already exists`; forge.ErrNotFound for an unknown target.
func (s *Service) CreateTag(ctx context.Context, actor forge.Actor, owner, name, tag, target, message string) (*View, *Tag, error) {
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if tag == "" {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "[TagName]: Required")
	}
	if err := s.checkTag(ctx, actor, v, tag); err != nil {
		return nil, nil, err
	}
	if target == "" {
		target = v.Repo.DefaultBranch
	}
	tagger := Signature{Name: actor.User.Name, Email: actor.User.Email, When: s.clock.Now()}
	if err := s.git.CreateTag(ctx, v.Repo.ID, tag, target, message, tagger); err != nil {
		if errors.Is(err, forge.ErrConflict) {
			return nil, nil, forge.Errorf(forge.ErrConflict, "tag %s already exists", tag)
		}
		return nil, nil, err
	}
	if err := s.refresh(ctx, v.Repo.ID); err != nil {
		return nil, nil, err
	}
	return s.GetTag(ctx, actor, owner, name, tag)
}

// DeleteTag deletes a tag. Writers only, not archived.
func (s *Service) DeleteTag(ctx context.Context, actor forge.Actor, owner, name, tag string) error {
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	if _, err := s.git.Resolve(ctx, v.Repo.ID, "refs/tags/"+tag); err != nil {
		return forge.Errorf(forge.ErrNotFound, "tag does not exist [name: %s]", tag)
	}
	if err := s.checkTag(ctx, actor, v, tag); err != nil {
		return err
	}
	if err := s.git.SetRef(ctx, v.Repo.ID, "refs/tags/"+tag, "", "*"); err != nil {
		return err
	}
	return s.refresh(ctx, v.Repo.ID)
}

// AnnotatedTag reads a tag object by id.
func (s *Service) AnnotatedTag(ctx context.Context, actor forge.Actor, owner, name, oid string) (*View, *AnnotatedTag, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.git.Tag(ctx, v.Repo.ID, oid)
	return v, t, err
}
