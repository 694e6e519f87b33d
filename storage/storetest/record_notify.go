package storetest

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
)

// The recording wrappers of notify.Store and notify.Tx.

type recNotifyStore struct {
	s   notify.Store
	rec *recorder
}

func (r recNotifyStore) Update(ctx context.Context, fn func(notify.Tx) error) error {
	return r.s.Update(ctx, func(tx notify.Tx) error { return fn(recNotifyTx{tx, r.rec}) })
}

func (r recNotifyStore) View(ctx context.Context, fn func(notify.Tx) error) error {
	return r.s.View(ctx, func(tx notify.Tx) error { return fn(recNotifyTx{tx, r.rec}) })
}

type recNotifyTx struct {
	notify.Tx
	rec *recorder
}

func (x recNotifyTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.rec.hit("notify.Tx.UsersByID")
	return x.Tx.UsersByID(ctx, ids)
}

func (x recNotifyTx) Subjects(ctx context.Context, ids []forge.ID) (map[forge.ID]notify.Subject, error) {
	x.rec.hit("notify.Tx.Subjects")
	return x.Tx.Subjects(ctx, ids)
}

func (x recNotifyTx) CreateThread(ctx context.Context, t *notify.Thread) error {
	x.rec.hit("notify.Tx.CreateThread")
	return x.Tx.CreateThread(ctx, t)
}

func (x recNotifyTx) UpdateThread(ctx context.Context, t *notify.Thread) error {
	x.rec.hit("notify.Tx.UpdateThread")
	return x.Tx.UpdateThread(ctx, t)
}

func (x recNotifyTx) ThreadByID(ctx context.Context, id forge.ID) (*notify.Thread, error) {
	x.rec.hit("notify.Tx.ThreadByID")
	return x.Tx.ThreadByID(ctx, id)
}

func (x recNotifyTx) ThreadsOfIssue(ctx context.Context, issueID forge.ID, userIDs []forge.ID) (map[forge.ID]*notify.Thread, error) {
	x.rec.hit("notify.Tx.ThreadsOfIssue")
	return x.Tx.ThreadsOfIssue(ctx, issueID, userIDs)
}

func (x recNotifyTx) ThreadRepos(ctx context.Context, userID forge.ID) ([]forge.ID, error) {
	x.rec.hit("notify.Tx.ThreadRepos")
	return x.Tx.ThreadRepos(ctx, userID)
}

func (x recNotifyTx) ListThreads(ctx context.Context, f notify.Filter, o forge.ListOptions) ([]*notify.Thread, int64, error) {
	x.rec.hit("notify.Tx.ListThreads")
	return x.Tx.ListThreads(ctx, f, o)
}
