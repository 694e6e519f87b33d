// Package domainstore is what each storage backend (storage/memstore,
// storage/internal/sqlstore) shows each domain: a Store whose Update and
// View run a function in one of the backend's transactions, the
// transaction seen as the domain's Tx (auth.Tx, issues.Tx, ...).
package domainstore

import "context"

// Store is a domain's Store over a backend whose transactions are X:
// Update and View run fn in a write or a read transaction of the backend,
// the transaction seen as the domain's Tx T through as. The zero value is
// not usable: use Of.
type Store[X, T any] struct {
	update, view func(context.Context, func(X) error) error
	as           func(X) T
}

// Of returns the Store that runs transactions with update and view (the
// backend's write and read transaction runners, which commit iff fn
// returns nil) and sees them through as.
func Of[X, T any](update, view func(context.Context, func(X) error) error, as func(X) T) Store[X, T] {
	return Store[X, T]{update: update, view: view, as: as}
}

// Update runs fn in a write transaction.
func (s Store[X, T]) Update(ctx context.Context, fn func(T) error) error {
	return s.update(ctx, func(x X) error { return fn(s.as(x)) })
}

// View runs fn in a read-only transaction.
func (s Store[X, T]) View(ctx context.Context, fn func(T) error) error {
	return s.view(ctx, func(x X) error { return fn(s.as(x)) })
}
