package federation

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Activity is the part of an incoming activity the inboxes read.
type Activity struct {
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	Actor  json.RawMessage `json:"actor"`
	Object json.RawMessage `json:"object"`
}

// ErrNotProcessed is the answer to a well-signed, well-formed activity
// that Forgejo v15 would act on (a Like starring a repository, a Follow of
// a person) and Hearth does not yet: it changes nothing.
var ErrNotProcessed = errors.New("not implemented: Hearth does not process federated activities yet")

// InstanceInbox is POST /activitypub/actor/inbox: a signed request is
// accepted and changes nothing (Forgejo's ActorInbox answers 204).
func (s *Service) InstanceInbox(ctx context.Context, actor forge.Actor, sig Signed) error {
	return s.signed(ctx, actor, "activitypubInstanceActorInbox", sig)
}

// PersonInbox is POST /activitypub/user-id/{user-id}/inbox with the
// activity body: signed, to a public account, a JSON activity with a type
// (forge.ErrInvalid otherwise); what it asks is not processed
// (ErrNotProcessed).
func (s *Service) PersonInbox(ctx context.Context, actor forge.Actor, sig Signed, id forge.ID, body []byte) error {
	if err := s.signed(ctx, actor, "activitypubPersonInbox", sig); err != nil {
		return err
	}
	if _, err := s.publicUser(ctx, id); err != nil {
		return err
	}
	if _, err := parseActivity(body); err != nil {
		return err
	}
	return ErrNotProcessed
}

// RepositoryInbox is POST /activitypub/repository-id/{repository-id}/inbox
// with a ForgeLike body: signed, to a public repository, a JSON activity
// with a type (forge.ErrInvalid otherwise); what it asks is not processed
// (ErrNotProcessed).
func (s *Service) RepositoryInbox(ctx context.Context, actor forge.Actor, sig Signed, id forge.ID, body []byte) error {
	if err := s.signed(ctx, actor, "activitypubRepositoryInbox", sig); err != nil {
		return err
	}
	if _, err := s.publicRepo(ctx, id); err != nil {
		return err
	}
	if _, err := parseActivity(body); err != nil {
		return err
	}
	return ErrNotProcessed
}

// parseActivity reads an activity: a JSON object with a type.
func parseActivity(body []byte) (*Activity, error) {
	var a Activity
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid activity: %v", err)
	}
	if a.Type == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "invalid activity: no type")
	}
	return &a, nil
}
