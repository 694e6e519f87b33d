package mirror_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// migrateWorld is Migrate over the real things: SQLite (its foreign keys
// remove a pull mirror with its repository), git directories, the
// repository service, and a source repository on a local path (which a
// site administrator may migrate from with AllowLocalPaths).
type migrateWorld struct {
	t      *testing.T
	ctx    context.Context
	db     *sqlite.DB
	clock  *forgetest.FakeClock
	git    *gitstore.Store
	repos  *repos.Service
	svc    *mirror.Service
	ports  *mirror.Ports
	admin  forge.Actor
	source string
}

func newMigrateWorld(t *testing.T, wrap func(mirror.Creator, mirror.Git) (mirror.Creator, mirror.Git)) *migrateWorld {
	t.Helper()
	w := &migrateWorld{t: t, ctx: context.Background(), clock: forgetest.NewClock()}
	db, err := sqlite.Open(w.ctx, filepath.Join(t.TempDir(), "hearth.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	w.db = db
	if w.git, err = gitstore.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.git.Close() })
	root := forgetest.User("root", forgetest.Admin)
	require.NoError(t, db.Auth().Update(w.ctx, func(tx auth.Tx) error { return tx.CreateUser(w.ctx, root, "") }))
	w.admin = forgetest.ActorFor(root)
	w.repos = w.newRepos()
	var creator mirror.Creator = site.MirrorCreator{Repos: w.repos}
	var git mirror.Git = gitstore.Mirror{Store: w.git}
	if wrap != nil {
		creator, git = wrap(creator, git)
	}
	w.svc, w.ports, err = mirror.NewWithPorts(mirror.Config{Store: db.Mirrors(), Repos: &storeRepos{s: db.Repos()},
		Creator: creator, Git: git, Clock: w.clock, Secret: []byte("test secret"), AllowLocalPaths: true})
	require.NoError(t, err)

	w.source = sourceRepo(t, forge.SHA1)
	return w
}

// sourceRepo makes a repository of one commit in format on a local path.
func sourceRepo(t *testing.T, format forge.ObjectFormat) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "src")
	for _, args := range [][]string{{"init", "-q", "-b", "main", "--object-format=" + string(format), dir},
		{"-C", dir, "commit", "-q", "--allow-empty", "-m", "one"}} {
		c := exec.Command("git", args...)
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a",
			"GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := c.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return dir
}

// newRepos is a repository service over the world's store and git (a
// restarted server's, for Recover).
func (w *migrateWorld) newRepos() *repos.Service {
	s, err := repos.New(repos.Config{Store: w.db.Repos(), Git: w.git, Clock: w.clock})
	require.NoError(w.t, err)
	return s
}

// migrate migrates the source into root/name, as a mirror or not.
func (w *migrateWorld) migrate(name string, asMirror bool) (*forge.Repository, error) {
	return w.svc.Migrate(w.ctx, w.admin, mirror.MigrateOptions{CloneAddr: w.source, RepoName: name, Mirror: asMirror})
}

// requireNothing checks that name left nothing: no repository (even one
// being created), no git directory, no pull mirror row.
func (w *migrateWorld) requireNothing(name string) {
	w.t.Helper()
	var all []*forge.Repository
	require.NoError(w.t, w.db.Repos().View(w.ctx, func(tx repos.Tx) error {
		var err error
		all, _, err = tx.ListRepos(w.ctx, repos.RepoFilter{AllVisible: true, AnyStatus: true}, forge.ListOptions{Page: 1, Limit: 100})
		return err
	}))
	ids := []forge.ID{}
	for _, r := range all {
		require.NotEqual(w.t, name, r.Name, "a row of %s is left (status %v)", name, r.Status)
		ids = append(ids, r.ID)
	}
	dirs, err := filepath.Glob(filepath.Join(w.git.Root(), "*.git"))
	require.NoError(w.t, err)
	require.Len(w.t, dirs, len(all), "a git directory without its row: %v", dirs)
	ms, err := mirror.NewPullMirrorReader(w.db.Mirrors()).PullMirrors(w.ctx, ids)
	require.NoError(w.t, err)
	require.Equal(w.t, len(ms), w.pullMirrorRows(), "a pull mirror row without its repository")
}

// pullMirrorRows counts the pull mirror rows, whatever their repository.
func (w *migrateWorld) pullMirrorRows() int {
	w.t.Helper()
	var n int
	require.NoError(w.t, w.db.Mirrors().View(w.ctx, func(tx mirror.Tx) error {
		for id := forge.ID(1); id < 100; id++ {
			if _, err := tx.PullMirrorByID(w.ctx, id); err == nil {
				n++
			}
		}
		return nil
	}))
	return n
}

// creatorHook runs before FinishMigration's real step.
type creatorHook struct {
	mirror.Creator
	beforeFinish func()
}

func (c creatorHook) FinishMigration(ctx context.Context, actor forge.Actor, cr mirror.Creation, f forge.ObjectFormat) (*forge.Repository, error) {
	c.beforeFinish()
	return c.Creator.FinishMigration(ctx, actor, cr, f)
}

// gitHook runs after the real Clone.
type gitHook struct {
	mirror.Git
	afterClone func(id forge.ID)
}

func (g gitHook) Clone(ctx context.Context, id forge.ID, r mirror.Remote, o mirror.CloneOptions) (forge.ObjectFormat, error) {
	f, err := g.Git.Clone(ctx, id, r, o)
	g.afterClone(id)
	return f, err
}

// inGoroutine runs f in a goroutine and waits for it to end (f may stop
// its goroutine with runtime.Goexit: a crash, after which nothing of
// the caller runs).
func inGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// TestMigrateCrash: a server that dies during a migration — after the
// clone, or after the pull mirror is recorded — leaves a repository being
// created that no one sees and whose name is held; the restarted server's
// Recover removes its row, its directory and its pull mirror row, and the
// migration can be made again.
func TestMigrateCrash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                     string
		asMirror                 bool
		afterClone, beforeFinish bool
	}{
		{"after the clone", false, true, false},
		{"after the pull mirror row", true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			crash := true
			w := newMigrateWorld(t, func(cr mirror.Creator, g mirror.Git) (mirror.Creator, mirror.Git) {
				die := func() {
					if crash {
						runtime.Goexit()
					}
				}
				return creatorHook{cr, func() {
						if c.beforeFinish {
							die()
						}
					}}, gitHook{g, func(forge.ID) {
						if c.afterClone {
							die()
						}
					}}
			})
			inGoroutine(func() { w.migrate("m", c.asMirror) })
			_, err := w.repos.Get(w.ctx, w.admin, "root", "m")
			require.ErrorIs(t, err, forge.ErrNotFound, "a migration being made is not shown")
			_, err = w.repos.Create(w.ctx, w.admin, "", repos.CreateOptions{Name: "m"})
			require.ErrorIs(t, err, forge.ErrConflict, "its name is held")
			dirs, _ := filepath.Glob(filepath.Join(w.git.Root(), "*.git"))
			require.Len(t, dirs, 1, "the clone is there")
			if c.asMirror {
				require.Equal(t, 1, w.pullMirrorRows(), "the pull mirror is recorded before the repository is finished")
			}

			n, err := w.newRepos().Recover(w.ctx)
			require.NoError(t, err)
			require.Equal(t, 1, n)
			w.requireNothing("m")

			crash = false
			r, err := w.migrate("m", c.asMirror)
			require.NoError(t, err)
			ms, err := mirror.NewPullMirrorReader(w.db.Mirrors()).PullMirrors(w.ctx, []forge.ID{r.ID})
			require.NoError(t, err)
			require.Equal(t, c.asMirror, len(ms) == 1, "a pull mirror iff asked: %v", ms)
		})
	}
}

// TestMigrateLeavesNothing: a migration that fails after its repository
// was begun — the clone failing, the pull mirror not recorded, the
// creation taken over as stale during a long clone — answers its error
// and leaves no row, no directory, no pull mirror row; the checks that
// come first leave nothing either.
func TestMigrateLeavesNothing(t *testing.T) {
	t.Parallel()
	var takeover func(forge.ID)
	w := newMigrateWorld(t, func(cr mirror.Creator, g mirror.Git) (mirror.Creator, mirror.Git) {
		return cr, gitHook{g, func(id forge.ID) {
			if takeover != nil {
				takeover(id)
			}
		}}
	})

	// The clone fails: a typed transfer error.
	_, err := w.svc.Migrate(w.ctx, w.admin, mirror.MigrateOptions{CloneAddr: filepath.Join(t.TempDir(), "none"), RepoName: "m"})
	require.ErrorIs(t, err, mirror.ErrTransfer)
	require.ErrorIs(t, err, forge.ErrInvalid)
	w.requireNothing("m")

	// The pull mirror can't be recorded (its store fails).
	broken, err := mirror.New(mirror.Config{Store: failingMirrors{w.db.Mirrors()}, Repos: &storeRepos{s: w.db.Repos()},
		Creator: site.MirrorCreator{Repos: w.repos}, Git: gitstore.Mirror{Store: w.git}, Clock: w.clock, AllowLocalPaths: true})
	require.NoError(t, err)
	_, err = broken.Migrate(w.ctx, w.admin, mirror.MigrateOptions{CloneAddr: w.source, RepoName: "m", Mirror: true})
	require.ErrorIs(t, err, errStoreDown)
	w.requireNothing("m")

	// A creation of the same name takes the migration's row as stale
	// while the clone runs: the migration fails, the new repository stays.
	var taken *repos.View
	takeover = func(forge.ID) {
		w.clock.Step(repos.StaleCreation + time.Second)
		taken, err = w.repos.Create(w.ctx, w.admin, "", repos.CreateOptions{Name: "m"})
		require.NoError(t, err)
	}
	_, err = w.migrate("m", true)
	require.ErrorIs(t, err, forge.ErrConflict)
	takeover = nil
	got, err := w.repos.Get(w.ctx, w.admin, "root", "m")
	require.NoError(t, err)
	require.Equal(t, taken.Repo.ID, got.Repo.ID, "the new repository is untouched")
	ms, err := mirror.NewPullMirrorReader(w.db.Mirrors()).PullMirrors(w.ctx, []forge.ID{got.Repo.ID})
	require.NoError(t, err)
	require.Empty(t, ms, "the migration's pull mirror went with its row")
	n, err := w.newRepos().Recover(w.ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing was left for Recover")
	require.NoError(t, w.repos.Delete(w.ctx, w.admin, "root", "m"))
	w.requireNothing("m")

	// A source refused before anything is made.
	_, err = w.svc.Migrate(w.ctx, w.admin, mirror.MigrateOptions{CloneAddr: "ftp://example.com/x", RepoName: "m"})
	require.ErrorIs(t, err, mirror.ErrAddrProtocol)
	w.requireNothing("m")

	// A migration that succeeds records the clone's state.
	r, err := w.migrate("ok", false)
	require.NoError(t, err)
	require.Equal(t, "root", r.OwnerName)
	require.Equal(t, forge.SHA1, r.ObjectFormat)
	require.False(t, r.Empty, "the clone's state is recorded")
	r, err = w.svc.Migrate(w.ctx, w.admin, mirror.MigrateOptions{CloneAddr: sourceRepo(t, forge.SHA256), RepoName: "sha256"})
	require.NoError(t, err)
	require.Equal(t, forge.SHA256, r.ObjectFormat, "the clone's object format is the repository's")
}

var errStoreDown = errors.New("the mirror store is down")

// failingMirrors is a mirror store whose writes fail.
type failingMirrors struct{ mirror.Store }

func (failingMirrors) Update(context.Context, func(mirror.Tx) error) error { return errStoreDown }
