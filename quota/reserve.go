package quota

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Reservations: the writes whose bytes are measured only after they land
// (git: pushes, contents commits; their usage is the repository's size,
// walked after the write) reserve an estimate first. The reservation is a
// row written in the same transaction as the check (Reserve), so two
// writers of one owner cannot both pass a check the sum of their writes
// fails: every backend runs write transactions one at a time or
// serializably (SQLite's one writer, memstore's writer lock, PostgreSQL's
// SERIALIZABLE transactions, retried on a conflict), and Usage counts the
// reservations. Once the write landed and the size was measured, the
// reservation is released (ReleaseReservation); a write that failed
// releases it at once. A reservation left by a server that died expires
// (Reservation.Expires) and is swept by the next Reserve of its owner.

// ReservationTTL is how long a reservation lives when its holder never
// releases it (a server that died mid-push).
const ReservationTTL = time.Hour

// Reservation is bytes an owner's quota holds for a write in progress.
type Reservation struct {
	ID forge.ID
	// Owner pays; Owner.RepoID is the repository written (0: none). The
	// reservation is deleted with the repository or the account.
	Owner Owner
	// Bucket the bytes will land in; Bytes >= 0.
	Bucket Bucket
	Bytes  int64
	// Created and Expires bound its life: from Expires on it is stale and
	// the next Reserve of the owner deletes it.
	Created, Expires time.Time
}

// ReservationTx is the store side of reservations, in the transaction of
// the check (a domain Tx that writes git embeds it: repos.Tx). Usage
// (UsageTx) counts every reservation of the owner in its bucket until it
// is released or swept, and RecountUsage counts them too (so a recount
// during a write reports no drift).
type ReservationTx interface {
	// Reserve inserts r (r.ID is set) after deleting the reservations of
	// r.Owner.ID whose Expires is at or before r.Created.
	// forge.ErrInvalid for an unknown bucket or negative Bytes;
	// forge.ErrNotFound if the account (or the repository, when
	// Owner.RepoID is set) does not exist.
	Reserve(ctx context.Context, r *Reservation) error
	// ReleaseReservation deletes reservation id. forge.ErrNotFound if it
	// is gone (released, swept, or its repository deleted).
	ReleaseReservation(ctx context.Context, id forge.ID) error
}

// ReserveTx is what Reserve needs: the owner's quota and its reservations.
type ReserveTx interface {
	UsageTx
	ReservationTx
}

// Reserve is Charge for a write whose size is measured after it lands: it
// checks, in tx, that owner may write n more bytes into bucket b (checked
// against subject s, with the reservations already held counted as
// usage) and records a reservation of n bytes living ttl from now. It
// returns the reservation's id, 0 when nothing was reserved (quota
// disabled: nothing to hold). A refusal is *ExceededError and writes
// nothing. The caller releases the id once the write's size is measured,
// or at once when the write failed.
func Reserve(ctx context.Context, tx ReserveTx, cfg Config, owner Owner, s Subject, b Bucket, n int64, now time.Time, ttl time.Duration) (forge.ID, error) {
	if !cfg.Enabled {
		return 0, nil
	}
	if n < 0 {
		n = 0
	}
	if err := Check(ctx, tx, cfg, owner, s, b, n); err != nil {
		return 0, err
	}
	r := &Reservation{Owner: owner, Bucket: b, Bytes: n, Created: now, Expires: now.Add(ttl)}
	if err := tx.Reserve(ctx, r); err != nil {
		return 0, err
	}
	return r.ID, nil
}
