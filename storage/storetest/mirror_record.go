package storetest

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// The recording wrapper of mirror.Tx (see record.go).

type recMirrorStore struct {
	s   mirror.Store
	rec *recorder
}

func (r recMirrorStore) Update(ctx context.Context, fn func(mirror.Tx) error) error {
	return r.s.Update(ctx, func(tx mirror.Tx) error { return fn(recMirrorTx{tx, r.rec}) })
}

func (r recMirrorStore) View(ctx context.Context, fn func(mirror.Tx) error) error {
	return r.s.View(ctx, func(tx mirror.Tx) error { return fn(recMirrorTx{tx, r.rec}) })
}

type recMirrorTx struct {
	mirror.Tx
	rec *recorder
}

func (x recMirrorTx) PullMirrorByRepo(ctx context.Context, repoID forge.ID) (*mirror.PullMirror, error) {
	x.rec.hit("mirror.Tx.PullMirrorByRepo")
	return x.Tx.PullMirrorByRepo(ctx, repoID)
}

func (x recMirrorTx) PullMirrorByID(ctx context.Context, id forge.ID) (*mirror.PullMirror, error) {
	x.rec.hit("mirror.Tx.PullMirrorByID")
	return x.Tx.PullMirrorByID(ctx, id)
}

func (x recMirrorTx) PullMirrorsByRepo(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*mirror.PullMirror, error) {
	x.rec.hit("mirror.Tx.PullMirrorsByRepo")
	return x.Tx.PullMirrorsByRepo(ctx, repoIDs)
}

func (x recMirrorTx) CreatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	x.rec.hit("mirror.Tx.CreatePullMirror")
	return x.Tx.CreatePullMirror(ctx, m)
}

func (x recMirrorTx) UpdatePullMirror(ctx context.Context, m *mirror.PullMirror) error {
	x.rec.hit("mirror.Tx.UpdatePullMirror")
	return x.Tx.UpdatePullMirror(ctx, m)
}

func (x recMirrorTx) DeletePullMirror(ctx context.Context, repoID forge.ID) error {
	x.rec.hit("mirror.Tx.DeletePullMirror")
	return x.Tx.DeletePullMirror(ctx, repoID)
}

func (x recMirrorTx) PushMirrors(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*mirror.PushMirror, int64, error) {
	x.rec.hit("mirror.Tx.PushMirrors")
	return x.Tx.PushMirrors(ctx, repoID, o)
}

func (x recMirrorTx) PushMirrorByName(ctx context.Context, repoID forge.ID, remoteName string) (*mirror.PushMirror, error) {
	x.rec.hit("mirror.Tx.PushMirrorByName")
	return x.Tx.PushMirrorByName(ctx, repoID, remoteName)
}

func (x recMirrorTx) PushMirrorByID(ctx context.Context, id forge.ID) (*mirror.PushMirror, error) {
	x.rec.hit("mirror.Tx.PushMirrorByID")
	return x.Tx.PushMirrorByID(ctx, id)
}

func (x recMirrorTx) CreatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	x.rec.hit("mirror.Tx.CreatePushMirror")
	return x.Tx.CreatePushMirror(ctx, m)
}

func (x recMirrorTx) UpdatePushMirror(ctx context.Context, m *mirror.PushMirror) error {
	x.rec.hit("mirror.Tx.UpdatePushMirror")
	return x.Tx.UpdatePushMirror(ctx, m)
}

func (x recMirrorTx) DeletePushMirror(ctx context.Context, repoID forge.ID, remoteName string) error {
	x.rec.hit("mirror.Tx.DeletePushMirror")
	return x.Tx.DeletePushMirror(ctx, repoID, remoteName)
}

func (x recMirrorTx) DueMirrors(ctx context.Context, before, now time.Time, limit int) ([]mirror.Due, error) {
	x.rec.hit("mirror.Tx.DueMirrors")
	return x.Tx.DueMirrors(ctx, before, now, limit)
}

func (x recMirrorTx) ClaimLease(ctx context.Context, l mirror.Lease, now time.Time) (bool, error) {
	x.rec.hit("mirror.Tx.ClaimLease")
	return x.Tx.ClaimLease(ctx, l, now)
}

func (x recMirrorTx) ReleaseLease(ctx context.Context, k mirror.Key, holder string) error {
	x.rec.hit("mirror.Tx.ReleaseLease")
	return x.Tx.ReleaseLease(ctx, k, holder)
}

func (x recMirrorTx) ReleaseLeases(ctx context.Context, holder string) (int, error) {
	x.rec.hit("mirror.Tx.ReleaseLeases")
	return x.Tx.ReleaseLeases(ctx, holder)
}
