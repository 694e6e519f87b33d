package federation

import (
	"context"
	"errors"
	"net/url"

	"github.com/hearthforge/hearth/forge"
)

// Contexts are the JSON-LD contexts of the actor documents (Forgejo's
// jsonld.WithContext(ap.ActivityBaseURI, ap.SecurityContextURI)).
var Contexts = []string{"https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"}

// activityContext is the one context of the outboxes of the instance and
// of repositories (Forgejo marshals them with the ActivityStreams context
// alone).
const activityContext = "https://www.w3.org/ns/activitystreams"

// LangString is a natural-language value as Forgejo sets it: the "en"
// entry.
type LangString struct {
	En string `json:"en"`
}

// PublicKey is an actor's key as the security vocabulary publishes it.
type PublicKey struct {
	ID           string `json:"id"`
	Owner        string `json:"owner"`
	PublicKeyPem string `json:"publicKeyPem"`
}

// Image is a person's icon.
type Image struct {
	Type      string `json:"type"`
	MediaType string `json:"mediaType"`
	URL       string `json:"url"`
}

// Actor is an actor document: the instance's Application, a user's
// Person, a repository's Repository (ForgeFed).
type Actor struct {
	Context           any         `json:"@context"`
	ID                string      `json:"id"`
	Type              string      `json:"type"`
	Name              *LangString `json:"name,omitempty"`
	PreferredUsername *LangString `json:"preferredUsername,omitempty"`
	URL               string      `json:"url,omitempty"`
	Icon              *Image      `json:"icon,omitempty"`
	Inbox             string      `json:"inbox"`
	Outbox            string      `json:"outbox"`
	PublicKey         *PublicKey  `json:"publicKey,omitempty"`
}

// Collection is an outbox: an OrderedCollection of activities.
type Collection struct {
	Context      any    `json:"@context"`
	ID           string `json:"id"`
	Type         string `json:"type"`
	AttributedTo string `json:"attributedTo,omitempty"`
	TotalItems   int64  `json:"totalItems"`
	OrderedItems []any  `json:"orderedItems"`
}

// InstanceActor is GET /activitypub/actor: the instance's Application
// actor, its preferred name the host of the forge's URL and its key the
// instance key (Forgejo's activitypub.Actor). app is the forge's URL as
// the request named it, used when Config.AppURL is empty.
func (s *Service) InstanceActor(ctx context.Context, actor forge.Actor, app string) (*Actor, error) {
	if err := s.check(actor, "activitypubInstanceActor"); err != nil {
		return nil, err
	}
	app = s.appURL(app)
	link := s.actorURL(app)
	key, err := s.publicKey(ctx, instanceOwner, link)
	if err != nil {
		return nil, err
	}
	host := app
	if u, err := url.Parse(app); err == nil {
		host = u.Hostname()
	}
	return &Actor{Context: Contexts, ID: link, Type: "Application", PreferredUsername: &LangString{host},
		URL: app, Inbox: link + "/inbox", Outbox: link + "/outbox", PublicKey: key}, nil
}

// InstanceOutbox is POST /activitypub/actor/outbox: the instance actor's
// outbox, always empty (Forgejo's ActorOutbox). sig is the request's
// signature, checked first.
func (s *Service) InstanceOutbox(ctx context.Context, actor forge.Actor, app string, sig Signed) (*Collection, error) {
	if err := s.signed(ctx, actor, "activitypubInstanceActorOutbox", sig); err != nil {
		return nil, err
	}
	return &Collection{Context: activityContext, ID: s.actorURL(s.appURL(app)) + "/outbox", Type: "OrderedCollection", OrderedItems: []any{}}, nil
}

// Person is GET /activitypub/user-id/{user-id}: the Person actor of a
// public account (Forgejo's convert.ToActivityPubPerson), with its key.
// Unknown ids and accounts that are not public are forge.ErrNotFound.
func (s *Service) Person(ctx context.Context, actor forge.Actor, app string, sig Signed, id forge.ID) (*Actor, error) {
	if err := s.signed(ctx, actor, "activitypubPerson", sig); err != nil {
		return nil, err
	}
	u, err := s.publicUser(ctx, id)
	if err != nil {
		return nil, err
	}
	app = s.appURL(app)
	link := personURL(app, u.ID)
	key, err := s.publicKey(ctx, userOwner(u.ID), link)
	if err != nil {
		return nil, err
	}
	return &Actor{Context: Contexts, ID: link, Type: "Person", Name: &LangString{u.FullName},
		PreferredUsername: &LangString{u.Name}, URL: app + url.PathEscape(u.Name),
		Icon:  &Image{Type: "Image", MediaType: "image/png", URL: app + "avatars/" + u.AvatarHash()},
		Inbox: link + "/inbox", Outbox: link + "/outbox", PublicKey: key}, nil
}

// PersonOutbox is GET /activitypub/user-id/{user-id}/outbox: the
// activities Hearth federates for the account, which are none (Hearth
// records no federated activity), as an OrderedCollection attributed to
// the person.
func (s *Service) PersonOutbox(ctx context.Context, actor forge.Actor, app string, sig Signed, id forge.ID) (*Collection, error) {
	if err := s.signed(ctx, actor, "activitypubPersonFeed", sig); err != nil {
		return nil, err
	}
	u, err := s.publicUser(ctx, id)
	if err != nil {
		return nil, err
	}
	link := personURL(s.appURL(app), u.ID)
	return &Collection{Context: Contexts, ID: link + "/outbox", Type: "OrderedCollection", AttributedTo: link, OrderedItems: []any{}}, nil
}

// PersonActivity is GET /activitypub/user-id/{user-id}/activities/{id}
// (note, the activity's object) and …/activity (the activity): Hearth
// records no federated activity, so every id is forge.ErrNotFound, as
// Forgejo answers an activity that is not the person's own.
func (s *Service) PersonActivity(ctx context.Context, actor forge.Actor, sig Signed, op string, id, activity forge.ID) error {
	if op != "activitypubPersonActivity" && op != "activitypubPersonActivityNote" {
		return forge.Errorf(forge.ErrInvalid, "unknown operation %q", op)
	}
	if err := s.signed(ctx, actor, op, sig); err != nil {
		return err
	}
	if _, err := s.publicUser(ctx, id); err != nil {
		return err
	}
	return forge.Errorf(forge.ErrNotFound, "activity does not exist [id: %d]", activity)
}

// Repository is GET /activitypub/repository-id/{repository-id}: the
// ForgeFed Repository actor of a public repository of a public owner
// (Forgejo's activitypub.Repository). Unknown ids and hidden repositories
// are forge.ErrNotFound.
func (s *Service) Repository(ctx context.Context, actor forge.Actor, app string, sig Signed, id forge.ID) (*Actor, error) {
	if err := s.signed(ctx, actor, "activitypubRepository", sig); err != nil {
		return nil, err
	}
	r, err := s.publicRepo(ctx, id)
	if err != nil {
		return nil, err
	}
	link := repositoryURL(s.appURL(app), r.ID)
	return &Actor{Context: Contexts, ID: link, Type: "Repository", Name: &LangString{r.Name},
		Inbox: link + "/inbox", Outbox: link + "/outbox"}, nil
}

// RepositoryOutbox is POST /activitypub/repository-id/{repository-id}/outbox:
// the repository's outbox, empty (Forgejo's RepositoryOutbox).
func (s *Service) RepositoryOutbox(ctx context.Context, actor forge.Actor, app string, sig Signed, id forge.ID) (*Collection, error) {
	if err := s.signed(ctx, actor, "activitypubRepositoryOutbox", sig); err != nil {
		return nil, err
	}
	r, err := s.publicRepo(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Collection{Context: activityContext, ID: repositoryURL(s.appURL(app), r.ID) + "/outbox", Type: "OrderedCollection", OrderedItems: []any{}}, nil
}

// signed is check, then the request's signature (every route of the
// /activitypub group but the instance actor's GET sits behind Forgejo's
// ReqHTTPSignature).
func (s *Service) signed(ctx context.Context, actor forge.Actor, op string, sig Signed) error {
	if err := s.check(actor, op); err != nil {
		return err
	}
	return s.verify(ctx, sig)
}

// publicUser returns the account id names when it is public; unknown and
// hidden accounts are the same forge.ErrNotFound.
func (s *Service) publicUser(ctx context.Context, id forge.ID) (*forge.User, error) {
	var u *forge.User
	err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		u, err = tx.UserByID(ctx, id)
		return err
	})
	if errors.Is(err, forge.ErrNotFound) || (err == nil && u.Visibility != forge.VisibilityPublic) {
		return nil, forge.Errorf(forge.ErrNotFound, "user does not exist [uid: %d, name: ]", id)
	}
	return u, err
}

// publicRepo returns the repository id names when it is ready, public and
// of a public owner; every other is forge.ErrNotFound.
func (s *Service) publicRepo(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	var r *forge.Repository
	visible := false
	err := s.cfg.Store.View(ctx, func(tx Tx) error {
		var err error
		if r, err = tx.RepoByID(ctx, id); err != nil {
			return err
		}
		owner, err := tx.UserByID(ctx, r.OwnerID)
		if err != nil {
			return err
		}
		visible = !r.Private && r.Status == forge.RepoReady && owner.Visibility == forge.VisibilityPublic
		return nil
	})
	if errors.Is(err, forge.ErrNotFound) || (err == nil && !visible) {
		return nil, forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d, uid: 0, owner_name: , name: ]", id)
	}
	return r, err
}

// publicKey is the published half of owner's key pair, as actor link's
// main key.
func (s *Service) publicKey(ctx context.Context, owner, link string) (*PublicKey, error) {
	key, err := s.cfg.Keys.KeyPair(ctx, owner)
	if err != nil {
		return nil, err
	}
	pemText, err := publicKeyPEM(key)
	if err != nil {
		return nil, err
	}
	return &PublicKey{ID: link + "#main-key", Owner: link, PublicKeyPem: pemText}, nil
}
