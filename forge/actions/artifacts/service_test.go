package artifacts_test

import (
	"context"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/memstore"
)

// access answers RepoAccess for one repository: the permission of each
// user id; others (and anonymous) see nothing.
type access struct {
	repo  *forge.Repository
	perms map[forge.ID]forge.Permission
}

func (a access) RepoAccess(_ context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error) {
	p, ok := a.perms[actor.UserID()]
	if !ok || owner != a.repo.OwnerName || name != a.repo.Name {
		return nil, forge.Permission{}, forge.Errorf(forge.ErrNotFound, "repository does not exist")
	}
	return a.repo, p, nil
}

type fixture struct {
	svc          *artifacts.Service
	store        *memstore.Store
	clock        *forgetest.FakeClock
	dir          string
	owner, other forge.Actor
	ownerID      forge.ID
}

func newFixture(t *testing.T, limit int64) *fixture {
	t.Helper()
	ctx := context.Background()
	st := memstore.New()
	var owner, reader forge.User
	repo := &forge.Repository{Name: "ci", DefaultBranch: "main", ObjectFormat: forge.SHA1, Topics: []string{}}
	require.NoError(t, st.Auth().Update(ctx, func(tx auth.Tx) error {
		owner, reader = *forgetest.User("olga"), *forgetest.User("rita")
		require.NoError(t, tx.CreateUser(ctx, &owner, "h"))
		return tx.CreateUser(ctx, &reader, "h")
	}))
	repo.OwnerID, repo.OwnerName = owner.ID, owner.Name
	require.NoError(t, st.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, repo) }))
	q := quota.Config{Enabled: limit >= 0}
	if limit >= 0 {
		require.NoError(t, st.Quota().Update(ctx, func(tx quota.Tx) error {
			require.NoError(t, tx.CreateRule(ctx, &quota.Rule{Name: "art", Limit: limit, Subjects: []quota.Subject{quota.SubjectArtifacts}}))
			require.NoError(t, tx.CreateGroup(ctx, "g"))
			require.NoError(t, tx.AddGroupRule(ctx, "g", "art"))
			return tx.AddGroupMember(ctx, "g", owner.ID)
		}))
	}
	dir := t.TempDir()
	blobs, err := blob.OpenDir(dir)
	require.NoError(t, err)
	clock := forgetest.NewClock()
	svc, err := artifacts.New(artifacts.Config{Store: st.Artifacts(), Blobs: blobs, Clock: clock, Quota: q,
		Repos: access{repo, map[forge.ID]forge.Permission{
			owner.ID:  {Mode: forge.AccessModeOwner},
			reader.ID: {Mode: forge.AccessModeRead},
		}}})
	require.NoError(t, err)
	return &fixture{svc: svc, store: st, clock: clock, dir: dir, ownerID: owner.ID,
		owner: forgetest.ActorFor(&owner), other: forgetest.ActorFor(&reader)}
}

func (f *fixture) used(t *testing.T) int64 {
	t.Helper()
	var u quota.Used
	require.NoError(t, f.store.Quota().View(context.Background(), func(tx quota.Tx) (err error) {
		u, err = tx.Usage(context.Background(), f.ownerID)
		return err
	}))
	return u.Artifacts
}

func (f *fixture) files(t *testing.T) int {
	t.Helper()
	n := 0
	require.NoError(t, fsWalk(f.dir, func() { n++ }))
	return n
}

// TestArtifacts: record, list, open, delete and expire, with the
// owner's usage following each.
func TestArtifacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, -1)
	a, err := f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 1, Name: "logs", Size: 100,
		Retention: time.Hour}, strings.NewReader("compressed"))
	require.NoError(t, err)
	assert.EqualValues(t, 10, a.CompressedSize)
	assert.EqualValues(t, 100, a.Size)
	assert.Equal(t, f.clock.Now().Add(time.Hour), a.Expires)
	b, err := f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 2, Name: "bin"}, strings.NewReader("binary"))
	require.NoError(t, err)
	assert.Equal(t, f.clock.Now().Add(artifacts.DefaultRetention), b.Expires)
	assert.EqualValues(t, 16, f.used(t))

	_, err = f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 1, Name: "logs"}, strings.NewReader("x"))
	assert.ErrorIs(t, err, forge.ErrConflict)
	_, err = f.svc.Record(ctx, f.other, "olga", "ci", artifacts.RecordOptions{RunID: 3, Name: "x"}, strings.NewReader("x"))
	assert.ErrorIs(t, err, forge.ErrForbidden, "a reader may not record")
	_, err = f.svc.Record(ctx, forge.Anonymous, "olga", "ci", artifacts.RecordOptions{RunID: 3, Name: "x"}, strings.NewReader("x"))
	assert.ErrorIs(t, err, forge.ErrNotFound)
	assert.Equal(t, 2, f.files(t), "refused records leave no blob")
	assert.EqualValues(t, 16, f.used(t))

	list, n, err := f.svc.List(ctx, f.other, "olga", "ci", 0, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	assert.Equal(t, []string{"bin", "logs"}, []string{list[0].Name, list[1].Name})
	rc, _, err := f.svc.Open(ctx, f.other, "olga", "ci", a.ID)
	require.NoError(t, err)
	body, _ := io.ReadAll(rc)
	rc.Close()
	assert.Equal(t, "compressed", string(body))

	// Expiry: the bytes go, the row stays, the usage is given back.
	f.clock.Step(2 * time.Hour)
	n2, err := f.svc.Expire(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, 1, n2)
	assert.EqualValues(t, 6, f.used(t))
	assert.Equal(t, 1, f.files(t))
	_, _, err = f.svc.Open(ctx, f.owner, "olga", "ci", a.ID)
	assert.ErrorIs(t, err, artifacts.ErrNotFound)
	n2, err = f.svc.Expire(ctx, 0)
	require.NoError(t, err)
	assert.Zero(t, n2, "nothing more is due")

	assert.ErrorIs(t, f.svc.Delete(ctx, f.other, "olga", "ci", b.ID), forge.ErrForbidden)
	require.NoError(t, f.svc.Delete(ctx, f.owner, "olga", "ci", b.ID))
	require.NoError(t, f.svc.Delete(ctx, f.owner, "olga", "ci", a.ID), "an expired artifact's row")
	assert.ErrorIs(t, f.svc.Delete(ctx, f.owner, "olga", "ci", a.ID), artifacts.ErrNotFound)
	assert.EqualValues(t, 0, f.used(t))
	assert.Equal(t, 0, f.files(t))
}

// TestArtifactsQuota: a record that would cross the owner's
// size:assets:artifacts limit is the quota error naming the owner and
// stores no blob, no row, no usage.
func TestArtifactsQuota(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 10)
	_, err := f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 1, Name: "a"}, strings.NewReader("123456"))
	require.NoError(t, err)
	_, err = f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 1, Name: "b"}, strings.NewReader("12345"))
	var qe *quota.ExceededError
	require.ErrorAs(t, err, &qe)
	assert.Equal(t, f.ownerID, qe.UserID)
	assert.Equal(t, "olga", qe.Username)
	assert.Equal(t, 1, f.files(t))
	assert.EqualValues(t, 6, f.used(t))
	_, n, err := f.svc.List(ctx, f.owner, "olga", "ci", 0, forge.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
}

func fsWalk(dir string, fn func()) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := fsWalk(dir+"/"+e.Name(), fn); err != nil {
				return err
			}
		} else {
			fn()
		}
	}
	return nil
}

// TestRunExpires: Run expires what is due when it starts and returns nil
// when its context ends.
func TestRunExpires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, -1)
	a, err := f.svc.Record(ctx, f.owner, "olga", "ci", artifacts.RecordOptions{RunID: 1, Name: "old", Retention: time.Hour},
		strings.NewReader("bytes"))
	require.NoError(t, err)
	f.clock.Step(2 * time.Hour)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- f.svc.Run(runCtx, time.Hour) }()
	deadline := time.Now().Add(10 * time.Second)
	for f.used(t) != 0 {
		require.True(t, time.Now().Before(deadline), "Run never expired the artifact")
		runtime.Gosched()
	}
	cancel()
	require.NoError(t, <-done)
	list, _, err := f.svc.List(ctx, f.owner, "olga", "ci", 0, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, artifacts.StatusExpired, list[0].Status)
	assert.Equal(t, a.ID, list[0].ID)
	assert.Zero(t, f.files(t))
}
