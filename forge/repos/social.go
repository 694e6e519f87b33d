package repos

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ParseAccessMode reads Forgejo's collaborator permission words.
func ParseAccessMode(s string) (forge.AccessMode, error) {
	switch s {
	case "read":
		return forge.AccessModeRead, nil
	case "", "write":
		return forge.AccessModeWrite, nil
	case "admin":
		return forge.AccessModeAdmin, nil
	}
	return 0, forge.Errorf(forge.ErrInvalid, "[Permission]: In")
}

// AccessModeString is the word for a mode: none, read, write, admin, owner.
// Modes outside that range are "none".
func AccessModeString(m forge.AccessMode) string {
	names := [...]string{"none", "read", "write", "admin", "owner"}
	if m < 0 || int(m) >= len(names) {
		return "none"
	}
	return names[m]
}

// ListCollaborators returns one page of collaborators, redacted for the
// actor (forge.User.VisibleTo). Readers may list.
func (s *Service) ListCollaborators(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]Collaborator, int64, error) {
	var (
		list  []Collaborator
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		list, total, err = tx.ListCollaborators(ctx, v.Repo.ID, o.Normalize())
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	for i := range list {
		list[i].User = list[i].User.VisibleTo(actor)
	}
	return list, total, nil
}

// collaboratorUser resolves a collaborator name (422 `user does not exist`
// for unknown names, as Forgejo's collaborator routes).
func collaboratorUser(ctx context.Context, tx Tx, name string) (*forge.User, error) {
	u, err := tx.UserByName(ctx, name)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, forge.Errorf(forge.ErrInvalid, "user does not exist [uid: 0, name: %s]", name)
	}
	return u, err
}

// IsCollaborator reports whether the user called collaborator is one.
func (s *Service) IsCollaborator(ctx context.Context, actor forge.Actor, owner, name, collaborator string) (bool, error) {
	var ok bool
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		u, err := collaboratorUser(ctx, tx, collaborator)
		if err != nil {
			return err
		}
		m, err := tx.CollaboratorMode(ctx, v.Repo.ID, u.ID)
		ok = m > forge.AccessNone
		return err
	})
	return ok, err
}

// AddCollaborator adds or updates a collaborator. reqAdmin, not archived.
// A user the repository's owner blocks, or who blocks the owner, is
// refused with forge.ErrForbidden `user is blocked by the poster or
// repository owner` (Forgejo's repo_module.AddCollaborator).
// The owner cannot be a collaborator (forge.ErrInvalid); mode must be
// read, write or admin (forge.ErrInvalid `[Permission]: In`, the answer to
// a permission outside the enum of Forgejo's AddCollaboratorOption).
func (s *Service) AddCollaborator(ctx context.Context, actor forge.Actor, owner, name, collaborator string, mode forge.AccessMode) error {
	if mode < forge.AccessModeRead || mode > forge.AccessModeAdmin {
		return forge.Errorf(forge.ErrInvalid, "[Permission]: In")
	}
	return s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		u, err := collaboratorUser(ctx, tx, collaborator)
		if err != nil {
			return err
		}
		if u.ID == v.Repo.OwnerID {
			return forge.Errorf(forge.ErrInvalid, "the owner cannot be added as a collaborator")
		}
		if err := checkNotBlocked(ctx, tx, v.Repo.OwnerID, u.ID); err != nil {
			return err
		}
		if err := tx.SetCollaborator(ctx, v.Repo.ID, u.ID, mode); err != nil {
			return err
		}
		// Collaborators start watching, as in Forgejo, unless they chose not to.
		if m, _, err := tx.Watch(ctx, v.Repo.ID, u.ID); err == nil && m == WatchNone {
			return tx.SetWatch(ctx, v.Repo.ID, u.ID, WatchAuto, s.clock.Now())
		}
		return nil
	})
}

// RemoveCollaborator removes one. reqAdmin; forge.ErrNotFound if not one.
func (s *Service) RemoveCollaborator(ctx context.Context, actor forge.Actor, owner, name, collaborator string) error {
	return s.adminWrite(ctx, actor, owner, name, func(tx Tx, v *View) error {
		u, err := collaboratorUser(ctx, tx, collaborator)
		if err != nil {
			return err
		}
		return tx.DeleteCollaborator(ctx, v.Repo.ID, u.ID)
	})
}

// UserPermission is the access the user called collaborator has. Only
// site administrators, the repository's administrators and that user
// themself may ask (Forgejo's GetRepoPermissions): forge.ErrForbidden
// `Only admins can query all permissions, repo admins can query all repo
// permissions, collaborators can query only their own` for anyone else;
// forge.ErrNotFound `user does not exist [uid: 0, name: x]` for an unknown
// user. The refusal comes before the user is looked up (the order of
// Gitea's and older Forgejo's handler), so that a reader cannot learn
// which users exist: the actor's own name is compared case-insensitively.
// The user is redacted for the actor (forge.User.VisibleTo).
func (s *Service) UserPermission(ctx context.Context, actor forge.Actor, owner, name, collaborator string) (*forge.User, forge.AccessMode, error) {
	var (
		u    *forge.User
		mode forge.AccessMode
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		self := actor.IsSignedIn() && strings.EqualFold(actor.User.Name, collaborator)
		if !actor.IsSiteAdmin() && !self && !v.IsAdmin() {
			return forge.Errorf(forge.ErrForbidden, "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
		}
		if u, err = tx.UserByName(ctx, collaborator); errors.Is(err, forge.ErrNotFound) {
			return forge.Errorf(forge.ErrNotFound, "user does not exist [uid: 0, name: %s]", collaborator)
		} else if err != nil {
			return err
		}
		if !actor.IsSiteAdmin() && !v.IsAdmin() && u.ID != actor.UserID() {
			// The name led elsewhere (a redirect): asking of another user.
			return forge.Errorf(forge.ErrForbidden, "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
		}
		// The permission of u, from the stored owner (v.Owner is
		// redacted for the actor), memberships and teams.
		stored, err := tx.UserByID(ctx, v.Repo.OwnerID)
		if err != nil {
			return err
		}
		perm, err := accessOf(ctx, tx, forge.Actor{User: u, Method: forge.AuthPassword}, v.Repo, stored)
		mode = perm.Mode
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return u.VisibleTo(actor), mode, nil
}

// Subscription returns the actor's watch of owner/name: forge.ErrNotFound
// when not watching (as Forgejo), with the repository for the answer.
func (s *Service) Subscription(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	var v *View
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if v, err = loadSignedIn(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		m, _, err := tx.Watch(ctx, v.Repo.ID, actor.User.ID)
		if err != nil {
			return err
		}
		if !m.Watching() {
			return forge.Errorf(forge.ErrNotFound, "The target couldn't be found.")
		}
		return nil
	})
	return v, err
}

// Watch makes the actor watch owner/name (mode normal) and returns the
// repository as stored after it (its watcher count included).
// forge.ErrForbidden `user is blocked by the poster or repository owner`
// when the owner blocks the actor.
func (s *Service) Watch(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	var v *View
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		if v, err = loadSignedIn(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		if err := checkNotBlockedBy(ctx, tx, v.Repo.OwnerID, actor.User.ID); err != nil {
			return err
		}
		if err := tx.SetWatch(ctx, v.Repo.ID, actor.User.ID, WatchNormal, s.clock.Now()); err != nil {
			return err
		}
		return reread(ctx, tx, actor, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// Unwatch stops the actor watching: mode dont if the watch was automatic
// (so it does not come back), none otherwise. No error when not watching.
func (s *Service) Unwatch(ctx context.Context, actor forge.Actor, owner, name string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadSignedIn(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		m, _, err := tx.Watch(ctx, v.Repo.ID, actor.User.ID)
		if err != nil {
			return err
		}
		next := WatchNone
		if m == WatchAuto {
			next = WatchDont
		}
		return tx.SetWatch(ctx, v.Repo.ID, actor.User.ID, next, s.clock.Now())
	})
}

// Watchers returns one page of the users watching owner/name. Users the
// service returns are redacted for the actor (forge.User.VisibleTo).
func (s *Service) Watchers(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return s.users(ctx, actor, owner, name, o, Tx.ListWatchers)
}

// Stargazers returns one page of the users who starred owner/name.
func (s *Service) Stargazers(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) ([]*forge.User, int64, error) {
	return s.users(ctx, actor, owner, name, o, Tx.ListStargazers)
}

func (s *Service) users(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions,
	list func(Tx, context.Context, forge.ID, forge.ListOptions) ([]*forge.User, int64, error)) ([]*forge.User, int64, error) {
	var (
		users []*forge.User
		total int64
	)
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		users, total, err = list(tx, ctx, v.Repo.ID, o.Normalize())
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return redactUsers(actor, users), total, nil
}

// Star stars (or unstars) owner/name for the actor. forge.ErrForbidden
// `user is blocked by the poster or repository owner` when the owner
// blocks the actor (starring; unstarring is always allowed).
func (s *Service) Star(ctx context.Context, actor forge.Actor, owner, name string, on bool) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryUser, forge.CategoryRepository); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		v, err := loadSignedIn(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if on {
			if err := checkNotBlockedBy(ctx, tx, v.Repo.OwnerID, actor.User.ID); err != nil {
				return err
			}
		}
		return tx.SetStar(ctx, v.Repo.ID, actor.User.ID, on, s.clock.Now())
	})
}

// IsStarred reports whether the actor starred owner/name.
func (s *Service) IsStarred(ctx context.Context, actor forge.Actor, owner, name string) (bool, error) {
	var ok bool
	err := s.store.View(ctx, func(tx Tx) error {
		v, err := load(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		ok, err = tx.IsStarred(ctx, v.Repo.ID, actor.UserID())
		return err
	})
	return ok, err
}

var topicPattern = regexp.MustCompile(`^[a-z0-9][-.a-z0-9]*$`)

// ValidTopic is Forgejo's topic rule: lower-case letters, digits, '-' and
// '.', starting with a letter or digit, at most 35 characters.
func ValidTopic(t string) bool { return len(t) <= 35 && topicPattern.MatchString(t) }

// MaxTopics is Forgejo's MaxTopicsPerRepo.
const MaxTopics = 25

// InvalidTopicsError is Forgejo's 422 answer to topics it refuses:
// `{"invalidTopics":…,"message":…}`. Topics lists the invalid names of a
// list (nil when the list is refused for its length), and Name is the one
// invalid name of a path (Forgejo writes it as a string there).
type InvalidTopicsError struct {
	Topics  []string
	Name    string
	Single  bool
	Message string
}

func (e *InvalidTopicsError) Error() string { return e.Message }

// Is makes it a forge.ErrInvalid.
func (e *InvalidTopicsError) Is(target error) bool { return target == forge.ErrInvalid }

// ErrTopicNotFound is RemoveTopic's error for a topic the repository does
// not have (Forgejo's 404 with the default not-found body).
var ErrTopicNotFound = forge.Errorf(forge.ErrNotFound, "topic does not exist")

// CleanTopics is Forgejo's SanitizeAndValidateTopics: each name trimmed
// and lower-cased, empty names and repeats dropped, the rest split into
// valid and invalid names in their order.
func CleanTopics(topics []string) (valid, invalid []string) {
	valid, invalid = []string{}, []string{}
	seen := map[string]bool{}
	for _, t := range topics {
		t = strings.TrimSpace(strings.ToLower(t))
		switch {
		case t == "" || seen[t]:
		case ValidTopic(t):
			seen[t] = true
			valid = append(valid, t)
		default:
			invalid = append(invalid, t)
		}
	}
	return valid, invalid
}

// SetTopics replaces the topics (CleanTopics; stored sorted) and returns
// the repository as stored. reqAdmin, not archived. Errors, in Forgejo's
// order (UpdateTopics): more than MaxTopics valid names is an
// *InvalidTopicsError `Exceeding maximum number of topics per repo` with
// no Topics; any invalid name one `Topic names are invalid` listing them.
func (s *Service) SetTopics(ctx context.Context, actor forge.Actor, owner, name string, topics []string) (*View, error) {
	clean, bad := CleanTopics(topics)
	if len(clean) > MaxTopics {
		return nil, &InvalidTopicsError{Message: "Exceeding maximum number of topics per repo"}
	}
	if len(bad) > 0 {
		return nil, &InvalidTopicsError{Topics: bad, Message: "Topic names are invalid"}
	}
	sort.Strings(clean)
	return s.updateRepo(ctx, actor, owner, name, func(r *forge.Repository, _ time.Time) error {
		r.Topics = clean
		return nil
	})
}

// oneTopic is the topic of AddTopic and RemoveTopic, trimmed and
// lower-cased, or Forgejo's *InvalidTopicsError `Topic name is invalid`.
func oneTopic(topic string) (string, error) {
	topic = strings.TrimSpace(strings.ToLower(topic))
	if !ValidTopic(topic) {
		return "", &InvalidTopicsError{Name: topic, Single: true, Message: "Topic name is invalid"}
	}
	return topic, nil
}

// AddTopic and RemoveTopic change one topic and return the repository as
// stored. Both refuse an invalid name (oneTopic). AddTopic refuses a
// repository that has MaxTopics topics already (forge.ErrInvalid
// `Exceeding maximum allowed topics per repo.`, even for one it has, as
// Forgejo counts first); RemoveTopic answers ErrTopicNotFound for a
// topic the repository does not have.
func (s *Service) AddTopic(ctx context.Context, actor forge.Actor, owner, name, topic string) (*View, error) {
	topic, err := oneTopic(topic)
	if err != nil {
		return nil, err
	}
	return s.updateRepo(ctx, actor, owner, name, func(r *forge.Repository, _ time.Time) error {
		if len(r.Topics) >= MaxTopics {
			return forge.Errorf(forge.ErrInvalid, "Exceeding maximum allowed topics per repo.")
		}
		if slices.Contains(r.Topics, topic) {
			return nil
		}
		r.Topics = append(r.Topics, topic)
		sort.Strings(r.Topics)
		return nil
	})
}

// RemoveTopic removes a topic (see AddTopic).
func (s *Service) RemoveTopic(ctx context.Context, actor forge.Actor, owner, name, topic string) (*View, error) {
	topic, err := oneTopic(topic)
	if err != nil {
		return nil, err
	}
	return s.updateRepo(ctx, actor, owner, name, func(r *forge.Repository, _ time.Time) error {
		if !slices.Contains(r.Topics, topic) {
			return ErrTopicNotFound
		}
		r.Topics = slices.DeleteFunc(r.Topics, func(t string) bool { return t == topic })
		return nil
	})
}

// updateRepo changes a repository as its administrator, not archived, and
// returns it as stored.
func (s *Service) updateRepo(ctx context.Context, actor forge.Actor, owner, name string, change func(*forge.Repository, time.Time) error) (*View, error) {
	var out *View
	err := s.adminTx(ctx, actor, owner, name, true, func(tx Tx, v *View) error {
		now := s.clock.Now()
		if err := change(v.Repo, now); err != nil {
			return err
		}
		v.Repo.Updated = now
		if err := tx.UpdateRepo(ctx, v.Repo); err != nil {
			return err
		}
		out = &View{Repo: v.Repo, Owner: v.Owner, Perm: v.Perm}
		return reread(ctx, tx, actor, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// loadSignedIn is load for operations that need a signed-in actor (watches,
// stars): forge.ErrUnauthenticated `token is required` for anonymous ones,
// after the repository is found.
func loadSignedIn(ctx context.Context, tx Tx, actor forge.Actor, owner, name string) (*View, error) {
	v, err := load(ctx, tx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	return v, nil
}
