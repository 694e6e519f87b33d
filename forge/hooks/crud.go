package hooks

import (
	"context"
	"errors"
	"maps"

	"github.com/hearthforge/hearth/forge"
)

// CreateOptions is a new hook (Forgejo's CreateHookOption).
type CreateOptions struct {
	Type                Type
	Config              Settings
	Events              []string
	BranchFilter        string
	AuthorizationHeader string
	Active              bool
}

// EditOptions changes a hook (Forgejo's EditHookOption). Events,
// BranchFilter and AuthorizationHeader are replaced always (nil Events or
// empty: ["push"]; empty strings clear); Config keys url, content_type,
// secret, http_method and the type's own replace only when present; Active
// only when not nil.
type EditOptions struct {
	Config              Settings
	Events              []string
	BranchFilter        string
	AuthorizationHeader string
	Active              *bool
}

// errBranchFilter is Forgejo's binding refusal of a branch filter that is
// no glob (binding:"GlobPattern").
var errBranchFilter = forge.Errorf(forge.ErrInvalid, "[BranchFilter]: GlobPattern")

// List returns one page of o's hooks ordered by id, and their number. For
// AdminHooks it lists system hooks only; with all, a negative Limit, every
// hook (Forgejo's /admin/hooks without page). Errors: resolve's.
func (s *Service) List(ctx context.Context, actor forge.Actor, o Owner, opts forge.ListOptions) ([]*Hook, int64, error) {
	sc, err := s.resolve(ctx, actor, o, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	f := sc.f
	f.System = sc.admin
	if opts.Limit >= 0 {
		opts = opts.Normalize()
	}
	var list []*Hook
	var n int64
	err = s.store.View(ctx, func(tx Tx) error {
		list, n, err = tx.ListHooks(ctx, f, opts)
		return err
	})
	return list, n, err
}

// Get returns hook id of o (system or default for AdminHooks);
// ErrHookNotFound if o has no such hook, and resolve's errors.
func (s *Service) Get(ctx context.Context, actor forge.Actor, o Owner, id forge.ID) (*Hook, error) {
	sc, err := s.resolve(ctx, actor, o, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var h *Hook
	err = s.store.View(ctx, func(tx Tx) error {
		h, err = ownHook(ctx, tx, sc, id)
		return err
	})
	return h, err
}

func ownHook(ctx context.Context, tx Tx, sc scope, id forge.ID) (*Hook, error) {
	h, err := tx.Hook(ctx, id)
	if errors.Is(err, forge.ErrNotFound) || (err == nil && !sc.owns(h)) {
		return nil, ErrHookNotFound
	}
	return h, err
}

// Create adds a hook to o. For AdminHooks config.is_system_webhook
// chooses a system hook (true) or a default hook. Errors: resolve's;
// forge.ErrInvalid with Forgejo's 422 messages (`Invalid hook type: x`,
// `Missing config option: url`, `Invalid content type`, `Invalid url`,
// `Invalid is_system_webhook value`, and the binding error
// `[BranchFilter]: GlobPattern` for a filter that is no glob) and *BadRequestError for a bad slack channel.
func (s *Service) Create(ctx context.Context, actor forge.Actor, o Owner, opts CreateOptions) (*Hook, error) {
	sc, err := s.resolve(ctx, actor, o, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	h, err := newHook(opts)
	if err != nil {
		return nil, err
	}
	if sc.admin {
		if h.IsSystem, err = ParseSystemFlag(opts.Config); err != nil {
			return nil, err
		}
	}
	h.RepoID, h.OwnerID = sc.f.RepoID, sc.f.OwnerID
	now := s.clock.Now()
	h.Created, h.Updated = now, now
	err = s.store.Update(ctx, func(tx Tx) error { return tx.CreateHook(ctx, h) })
	if err != nil {
		return nil, err
	}
	return h, nil
}

// newHook validates a create option into a hook (no owner, no times).
func newHook(opts CreateOptions) (*Hook, error) {
	if !opts.Type.Valid() {
		return nil, forge.Errorf(forge.ErrInvalid, "Invalid hook type: %s", opts.Type)
	}
	if err := CheckConfig(opts.Type, opts.Config); err != nil {
		return nil, err
	}
	if !ValidBranchFilter(opts.BranchFilter) {
		return nil, errBranchFilter
	}
	events := NormalizeEvents(opts.Events)
	method := opts.Config["http_method"]
	if method == "" {
		method = "POST"
	}
	ct, _ := ParseContentType(opts.Config["content_type"])
	return &Hook{
		Type: opts.Type, URL: opts.Config["url"], ContentType: ct, HTTPMethod: method,
		Secret: opts.Config["secret"], Meta: MetaOf(opts.Type, opts.Config), Events: events,
		BranchFilter: opts.BranchFilter, AuthorizationHeader: opts.AuthorizationHeader, Active: opts.Active,
	}, nil
}

// Edit changes hook id of o and returns it. Errors: Get's, and Create's
// forge.ErrInvalid messages for what is given.
func (s *Service) Edit(ctx context.Context, actor forge.Actor, o Owner, id forge.ID, opts EditOptions) (*Hook, error) {
	sc, err := s.resolve(ctx, actor, o, forge.AccessWrite)
	if err != nil {
		return nil, err
	}
	if !ValidBranchFilter(opts.BranchFilter) {
		return nil, errBranchFilter
	}
	events := NormalizeEvents(opts.Events)
	var h *Hook
	err = s.store.Update(ctx, func(tx Tx) error {
		if h, err = ownHook(ctx, tx, sc, id); err != nil {
			return err
		}
		if err := applyConfig(h, opts.Config); err != nil {
			return err
		}
		h.Events, h.BranchFilter, h.AuthorizationHeader = events, opts.BranchFilter, opts.AuthorizationHeader
		if opts.Active != nil {
			h.Active = *opts.Active
		}
		h.Updated = s.clock.Now()
		return tx.UpdateHook(ctx, h)
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// applyConfig applies the keys of an edit's config to h.
func applyConfig(h *Hook, c Settings) error {
	if c == nil {
		return nil
	}
	if v, ok := c["content_type"]; ok {
		ct, ok := ParseContentType(v)
		if !ok {
			return forge.Errorf(forge.ErrInvalid, "Invalid content type")
		}
		h.ContentType = ct
	}
	if v, ok := c["url"]; ok {
		if !ValidURL(v) {
			return forge.Errorf(forge.ErrInvalid, "Invalid url")
		}
		h.URL = v
	}
	if v, ok := c["secret"]; ok {
		h.Secret = v
	}
	if v, ok := c["http_method"]; ok && v != "" {
		h.HTTPMethod = v
	}
	meta := maps.Clone(h.Meta)
	if meta == nil {
		meta = map[string]string{}
	}
	maps.Copy(meta, MetaOf(h.Type, c))
	if h.Type == TypeSlack {
		if err := checkMeta(h.Type, meta); err != nil {
			return err
		}
	}
	h.Meta = meta
	return nil
}

// Delete removes hook id of o with its tasks. Errors: Get's.
func (s *Service) Delete(ctx context.Context, actor forge.Actor, o Owner, id forge.ID) error {
	sc, err := s.resolve(ctx, actor, o, forge.AccessWrite)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := ownHook(ctx, tx, sc, id); err != nil {
			return err
		}
		return tx.DeleteHook(ctx, id)
	})
}

// Tasks returns one page of the delivery log of hook id of o, newest
// first, and its length. Errors: Get's.
func (s *Service) Tasks(ctx context.Context, actor forge.Actor, o Owner, id forge.ID, opts forge.ListOptions) ([]*Task, int64, error) {
	sc, err := s.resolve(ctx, actor, o, forge.AccessRead)
	if err != nil {
		return nil, 0, err
	}
	var list []*Task
	var n int64
	err = s.store.View(ctx, func(tx Tx) error {
		if _, err := ownHook(ctx, tx, sc, id); err != nil {
			return err
		}
		list, n, err = tx.ListTasks(ctx, id, opts.Normalize())
		return err
	})
	return list, n, err
}
