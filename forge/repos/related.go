package repos

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Related is what the API form of a repository shows beyond the repository
// and its owner: the repository a fork was made from, as the actor sees it
// (nil when it is not a fork, or the parent is gone, being created or
// deleted, or invisible to the actor), and its pending transfer (nil if
// none, or if the actor may not read the repository).
type Related struct {
	Parent   *View
	Transfer *Transfer
}

// RelatedOf loads Related for the repositories of ids as the actor sees
// them, in one read transaction of a fixed number of store queries
// whatever the number of ids (the repositories, their parents, the
// pending transfers, the users they name, the actor's collaborator modes).
// Only the ids are trusted: each repository is loaded and the actor's
// Permission computed from what is stored, so a repository the actor may
// not read (or that is missing, being created or deleted) gets no entry,
// and a parent the actor may not read is not shown. Users are redacted for
// the actor (forge.User.VisibleTo). An account that may not act gets
// forge.Actor.CheckState's error; a credential that does not grant
// read:repository gets no entries (and no error: it may list starred
// repositories under read:user). Other errors are the store's.
func (s *Service) RelatedOf(ctx context.Context, actor forge.Actor, ids []forge.ID) (map[forge.ID]Related, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	if actor.Check(forge.AccessRead, forge.CategoryRepository) != nil {
		// A credential for users only (listing starred repositories
		// with read:user) sees the repositories but nothing they
		// relate to.
		return map[forge.ID]Related{}, nil
	}
	return s.relatedOf(ctx, actor, ids, true)
}

// relatedOf is RelatedOf without the checks of the account and the
// credential: an entry for each repository of ids the actor may read, with
// what it relates to when withRelated (else empty, and the parents and
// transfers are not read).
func (s *Service) relatedOf(ctx context.Context, actor forge.Actor, ids []forge.ID, withRelated bool) (map[forge.ID]Related, error) {
	out := make(map[forge.ID]Related, len(ids))
	err := s.store.View(ctx, func(tx Tx) error {
		// The queries are made even for an empty list, so that the cost
		// does not depend on the list.
		found, err := tx.ReposByID(ctx, ids)
		if err != nil {
			return err
		}
		repos, parentIDs := make([]*forge.Repository, 0, len(found)), []forge.ID{}
		for _, id := range ids {
			if r := found[id]; r != nil && r.Status == forge.RepoReady {
				repos = append(repos, r)
				if r.ForkID != 0 && withRelated {
					parentIDs = append(parentIDs, r.ForkID)
				}
			}
		}
		foundParents, err := tx.ReposByID(ctx, parentIDs)
		if err != nil {
			return err
		}
		var parents []*forge.Repository
		for _, p := range foundParents {
			if p.Status == forge.RepoReady {
				parents = append(parents, p)
			}
		}
		transfers := map[forge.ID]*Transfer{}
		if withRelated {
			if transfers, err = tx.Transfers(ctx, ids); err != nil {
				return err
			}
		}
		all := append(append([]*forge.Repository{}, repos...), parents...)
		userIDs := ownerIDs(all)
		for _, t := range transfers {
			userIDs = append(userIDs, t.Doer.ID, t.Recipient.ID)
		}
		users, err := tx.UsersByID(ctx, userIDs)
		if err != nil {
			return err
		}
		grants, err := grantsOf(ctx, tx, actor, all)
		if err != nil {
			return err
		}
		views, err := viewsWith(actor, all, users, grants)
		if err != nil {
			return err
		}
		redactOwners(actor, views)
		readable := map[forge.ID]*View{}
		for _, v := range views {
			if v.Perm.HasAccess() {
				readable[v.Repo.ID] = v
			}
		}
		for _, r := range repos {
			if readable[r.ID] == nil {
				continue
			}
			rel := Related{}
			if p := readable[r.ForkID]; r.ForkID != 0 && p != nil && withRelated {
				rel.Parent = p
			}
			if t := transfers[r.ID]; t != nil {
				doer, recipient := users[t.Doer.ID], users[t.Recipient.ID]
				if doer == nil || recipient == nil {
					return forge.Errorf(forge.ErrNotFound, "repos: transfer of repository %d names a missing user", r.ID)
				}
				t.Recipient = recipient
				var err error
				if t.Teams, err = transferTeams(ctx, tx, t); err != nil {
					return err
				}
				t.Doer, t.Recipient = doer.VisibleTo(actor), recipient.VisibleTo(actor)
				rel.Transfer = t
			}
			out[r.ID] = rel
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetRelated is Get and RelatedOf of the repository together, in one read
// transaction: the repository, its owner and the actor's permission as Get
// loads them (same errors), then what it relates to as RelatedOf shows it
// (the parent as the actor sees it, the pending transfer). It asks the
// store only for what exists: a repository that is not a fork costs no
// parent queries. A failure to load the related data is returned.
//
// When the store has Generations, answers are cached per actor (the whole
// user row and credential) and names, and used while the store's
// generation is the one they were read at (and for at most maxViewAge):
// any write ends their use. The values returned are the caller's own.
func (s *Service) GetRelated(ctx context.Context, actor forge.Actor, owner, name string) (*View, Related, error) {
	g, cached := s.store.(Generations)
	var (
		key viewKey
		gen uint64
		now time.Time
	)
	if cached {
		key, gen, now = keyOf(actor, owner, name), g.Generation(), s.clock.Now()
		if v, rel, ok := s.views.get(key, gen, now); ok {
			return v, rel, nil
		}
	}
	v, rel, err := s.getRelated(ctx, actor, owner, name)
	if err == nil && cached {
		s.views.put(key, gen, g.Generation(), now, v, rel)
	}
	return v, rel, err
}

// getRelated is GetRelated without the cache.
func (s *Service) getRelated(ctx context.Context, actor forge.Actor, owner, name string) (*View, Related, error) {
	var (
		v   *View
		rel Related
	)
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		if v, err = load(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		rel, err = relatedOfView(ctx, tx, actor, v)
		return err
	})
	if err != nil {
		return nil, Related{}, err
	}
	return v, rel, nil
}

// relatedOfView is RelatedOf for one repository the actor may read (v, as
// load returned it), inside tx.
func relatedOfView(ctx context.Context, tx Tx, actor forge.Actor, v *View) (Related, error) {
	var rel Related
	r := v.Repo
	if r.ForkID != 0 {
		p, err := parentView(ctx, tx, actor, r.ForkID)
		if err != nil {
			return Related{}, err
		}
		rel.Parent = p
	}
	transfers, err := tx.Transfers(ctx, []forge.ID{r.ID})
	if err != nil {
		return Related{}, err
	}
	if t := transfers[r.ID]; t != nil {
		users, err := tx.UsersByID(ctx, []forge.ID{t.Doer.ID, t.Recipient.ID})
		if err != nil {
			return Related{}, err
		}
		doer, recipient := users[t.Doer.ID], users[t.Recipient.ID]
		if doer == nil || recipient == nil {
			return Related{}, forge.Errorf(forge.ErrNotFound, "repos: transfer of repository %d names a missing user", r.ID)
		}
		t.Recipient = recipient
		if t.Teams, err = transferTeams(ctx, tx, t); err != nil {
			return Related{}, err
		}
		t.Doer, t.Recipient = doer.VisibleTo(actor), recipient.VisibleTo(actor)
		rel.Transfer = t
	}
	return rel, nil
}

// parentView is the repository id as the actor sees it, for a fork's
// parent: nil when it is missing, not ready, or unreadable by the actor.
func parentView(ctx context.Context, tx Tx, actor forge.Actor, id forge.ID) (*View, error) {
	found, err := tx.ReposByID(ctx, []forge.ID{id})
	if err != nil {
		return nil, err
	}
	p := found[id]
	if p == nil || p.Status != forge.RepoReady {
		return nil, nil
	}
	list := []*forge.Repository{p}
	users, err := tx.UsersByID(ctx, ownerIDs(list))
	if err != nil {
		return nil, err
	}
	grants, err := grantsOf(ctx, tx, actor, list)
	if err != nil {
		return nil, err
	}
	views, err := viewsWith(actor, list, users, grants)
	if err != nil {
		return nil, err
	}
	redactOwners(actor, views)
	if len(views) != 1 || !views[0].Perm.HasAccess() {
		return nil, nil
	}
	return views[0], nil
}
