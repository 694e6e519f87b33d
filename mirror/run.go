package mirror

import (
	"context"
	"errors"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// kindOr is err's category, or forge.ErrInvalid (a remote's failure is bad
// input, not a server fault).
func kindOr(err error) error {
	if k := forge.KindOf(err); k != nil {
		return k
	}
	return forge.ErrInvalid
}

// run syncs the mirror of key under a lease held by holder. With
// scheduled, it runs only if the mirror is still due (another scheduler
// may have synced it since it was queued). It reports whether it ran; a
// lease held by another holder is (false, nil).
func (s *Service) run(ctx context.Context, key Key, holder string, scheduled bool) (bool, error) {
	now := s.now()
	lease := Lease{Key: key, Holder: holder, Expires: now.Add(s.lease())}
	claimed := false
	err := s.cfg.Store.Update(ctx, func(tx Tx) error {
		claimed = false // a store may run this function again (PostgreSQL retries conflicts)
		var next = now
		switch key.Kind {
		case KindPull:
			m, err := tx.PullMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			next = m.NextUpdate
		case KindPush:
			m, err := tx.PushMirrorByID(ctx, key.ID)
			if err != nil {
				return err
			}
			next = m.NextUpdate
		default:
			return forge.Errorf(forge.ErrInvalid, "mirror: unknown kind %q", key.Kind)
		}
		if scheduled && (next.IsZero() || next.After(now)) {
			return nil
		}
		var err error
		claimed, err = tx.ClaimLease(ctx, lease, now)
		return err
	})
	if err != nil || !claimed {
		if errors.Is(err, forge.ErrNotFound) && scheduled {
			err = nil // deleted since it was queued
		}
		return false, err
	}
	defer func() {
		// Release even when ctx is done (shutdown), so that another
		// server may take the mirror at once rather than at expiry.
		bg := context.WithoutCancel(ctx)
		_ = s.cfg.Store.Update(bg, func(tx Tx) error { return tx.ReleaseLease(bg, key, holder) })
	}()
	if key.Kind == KindPull {
		return true, s.syncPull(ctx, key.ID, scheduled)
	}
	return true, s.syncPush(ctx, key.ID)
}

func (s *Service) lease() time.Duration {
	if s.cfg.Lease > 0 {
		return s.cfg.Lease
	}
	return DefaultLease
}
