package repos_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// world is a repository service on SQLite and real git, with users.
type world struct {
	svc   *repos.Service
	auth  *auth.Service
	git   repos.Git
	blobs *blob.Dir
	clock *forgetest.FakeClock
	admin forge.Actor
}

func newWorld(t *testing.T, mutate ...func(*repos.Config)) *world {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	clock := forgetest.NewClock()
	git := memgit.New()
	blobs, err := blob.OpenDir(t.TempDir())
	require.NoError(t, err)
	cfg := repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock}
	for _, m := range mutate {
		m(&cfg)
	}
	svc, err := repos.New(cfg)
	require.NoError(t, err)
	a, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: []byte("repos-test-secret")})
	require.NoError(t, err)
	w := &world{svc: svc, auth: a, git: git, blobs: blobs, clock: clock}
	w.admin = forge.Actor{User: &forge.User{ID: -1, Name: "root", IsAdmin: true, IsActive: true}, Method: forge.AuthPassword}
	return w
}

// user creates an active user and returns its password actor.
func (w *world) user(t *testing.T, name string, vis forge.Visibility) forge.Actor {
	t.Helper()
	no := false
	u, err := w.auth.CreateUser(context.Background(), w.admin, auth.CreateUserOptions{
		Name: name, Email: name + "@example.com", Password: "password-" + name, MustChangePassword: &no, Visibility: vis})
	require.NoError(t, err)
	u.IsActive = true
	return forge.Actor{User: u, Method: forge.AuthPassword}
}

// token is the actor of a token of a with the scope words.
func token(t *testing.T, a forge.Actor, words ...string) forge.Actor {
	t.Helper()
	sc, err := forge.ParseScope(words...)
	require.NoError(t, err)
	a.Method, a.Scoped, a.Scope = forge.AuthToken, true, sc
	return a
}

func TestNewRefusesIncompleteConfig(t *testing.T) {
	t.Parallel()
	_, err := repos.New(repos.Config{})
	require.ErrorIs(t, err, forge.ErrInvalid)
	db, err := sqlite.Open(context.Background(), ":memory:")
	require.NoError(t, err)
	defer db.Close()
	_, err = repos.New(repos.Config{Store: db.Repos()})
	require.ErrorIs(t, err, forge.ErrInvalid)
}

func TestScopesAreCheckedByTheService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)

	// A read:user token cannot create a repository, nor can write:repository alone.
	_, err := w.svc.Create(ctx, token(t, alice, "read:user"), "", repos.CreateOptions{Name: "p"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.Create(ctx, token(t, alice, "write:repository"), "", repos.CreateOptions{Name: "p"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.Create(ctx, token(t, alice, "write:user", "write:repository"), "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err)

	// Reads need read:repository; writes write:repository.
	_, err = w.svc.Get(ctx, token(t, alice, "read:user"), "alice", "p")
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.Get(ctx, token(t, alice, "read:repository"), "alice", "p")
	require.NoError(t, err)
	desc := "changed"
	_, err = w.svc.Edit(ctx, token(t, alice, "read:repository"), "alice", "p", repos.EditOptions{Description: &desc})
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.SetTopics(ctx, token(t, alice, "read:repository"), "alice", "p", []string{"go"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	require.ErrorIs(t, w.svc.RemoveCollaborator(ctx, token(t, alice, "read:repository"), "alice", "p", "bob"), forge.ErrForbidden)
	_, err = w.svc.Watch(ctx, token(t, alice, "read:repository"), "alice", "p")
	require.ErrorIs(t, err, forge.ErrForbidden)
	_, err = w.svc.Fork(ctx, token(t, alice, "read:repository"), "alice", "p", "q")
	require.ErrorIs(t, err, forge.ErrForbidden)
	require.ErrorIs(t, w.svc.Delete(ctx, token(t, alice, "write:repository"), "alice", "p"), forge.ErrForbidden)
	_, _, err = w.svc.List(ctx, token(t, alice, "read:issue"), repos.RepoFilter{}, forge.ListOptions{})
	require.ErrorIs(t, err, forge.ErrForbidden)

	// Creating for another user is the administrators' operation: write:admin.
	no := false
	root, err := w.auth.CreateUser(ctx, w.admin, auth.CreateUserOptions{Name: "boss", Email: "boss@example.com",
		Password: "password-boss", MustChangePassword: &no, Admin: true})
	require.NoError(t, err)
	root.IsActive = true
	boss := forge.Actor{User: root, Method: forge.AuthPassword}
	_, err = w.svc.Create(ctx, token(t, boss, "write:user", "write:repository"), "alice", repos.CreateOptions{Name: "given"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	v, err := w.svc.Create(ctx, token(t, boss, "write:admin"), "alice", repos.CreateOptions{Name: "given"})
	require.NoError(t, err)
	require.Equal(t, "alice", v.Repo.OwnerName)
	_, err = w.svc.Create(ctx, token(t, alice, "write:admin"), "boss", repos.CreateOptions{Name: "mine"})
	require.ErrorIs(t, err, forge.ErrForbidden, "not an administrator")

	// Nothing was changed by the refused calls.
	v, err = w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.Empty(t, v.Repo.Description)
	require.Empty(t, v.Repo.Topics)
}

func TestAccountStatesAreCheckedByTheService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err)
	for name, change := range map[string]func(*forge.User){
		"inactive":             func(u *forge.User) { u.IsActive = false },
		"prohibit_login":       func(u *forge.User) { u.ProhibitLogin = true },
		"must_change_password": func(u *forge.User) { u.MustChangePassword = true },
	} {
		u := *alice.User
		change(&u)
		a := forge.Actor{User: &u, Method: forge.AuthPassword}
		var stateErr *forge.AccountStateError
		_, err := w.svc.Get(ctx, a, "alice", "p")
		require.ErrorAs(t, err, &stateErr, name)
		_, _, err = w.svc.List(ctx, a, repos.RepoFilter{}, forge.ListOptions{})
		require.ErrorAs(t, err, &stateErr, name)
		_, err = w.svc.Create(ctx, a, "", repos.CreateOptions{Name: "q-" + name})
		require.ErrorAs(t, err, &stateErr, name)
		desc := "x"
		_, err = w.svc.Edit(ctx, a, "alice", "p", repos.EditOptions{Description: &desc})
		require.ErrorAs(t, err, &stateErr, name)
		require.ErrorAs(t, w.svc.Delete(ctx, a, "alice", "p"), &stateErr, name)
		_, err = w.svc.OwnerByName(ctx, a, "alice")
		require.ErrorAs(t, err, &stateErr, name)
	}
	_, err = w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err, "the repository survived")
}

func TestPublicOnlyTokensDoNotSeePrivateRepositories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "secret", Private: true})
	require.NoError(t, err)
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "open"})
	require.NoError(t, err)

	pub := token(t, alice, "public-only", "read:repository", "write:repository")
	_, err = w.svc.Get(ctx, pub, "alice", "secret")
	require.ErrorIs(t, err, repos.ErrRepoNotFound)
	_, err = w.svc.Get(ctx, pub, "alice", "open")
	require.NoError(t, err)
	list, _, err := w.svc.List(ctx, pub, repos.RepoFilter{OwnerID: alice.User.ID}, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "open", list[0].Repo.Name)
	v, err := w.svc.Get(ctx, alice, "alice", "secret")
	require.NoError(t, err)
	_, err = w.svc.PendingTransfer(ctx, pub, v.Repo.ID)
	require.ErrorIs(t, err, repos.ErrRepoNotFound)

	// A private owner does not exist for a public-only token or an outsider.
	hidden := w.user(t, "hidden", forge.VisibilityPrivate)
	_, err = w.svc.OwnerByName(ctx, token(t, hidden, "public-only", "read:user"), "hidden")
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = w.svc.OwnerByName(ctx, alice, "hidden")
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = w.svc.OwnerByName(ctx, forge.Anonymous, "hidden")
	require.EqualError(t, err, "user redirect does not exist [name: hidden]")
	_, err = w.svc.OwnerByName(ctx, hidden, "hidden")
	require.NoError(t, err)

	// The repositories of an owner the actor may not see answer like the
	// owner's absence.
	_, err = w.svc.Create(ctx, hidden, "", repos.CreateOptions{Name: "h"})
	require.NoError(t, err)
	_, err = w.svc.Get(ctx, alice, "hidden", "h")
	require.EqualError(t, err, "user redirect does not exist [name: hidden]")
	_, err = w.svc.Get(ctx, alice, "nobody", "h")
	require.EqualError(t, err, "user redirect does not exist [name: nobody]")
	_, err = w.svc.Get(ctx, hidden, "hidden", "h")
	require.NoError(t, err)
}

func TestCreateReturnsTheStateAfterTheInitialCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	v, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true, DefaultBranch: "trunk"})
	require.NoError(t, err)
	require.False(t, v.Repo.Empty)
	require.Equal(t, "trunk", v.Repo.DefaultBranch)
	require.Positive(t, v.Repo.Size)
	require.Equal(t, forge.RepoReady, v.Repo.Status)
	require.Equal(t, 1, v.Repo.NumWatches, "the creator watches")

	got, err := w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.Equal(t, v.Repo, got.Repo)

	// Edits answer with what was stored.
	desc := "d"
	ev, err := w.svc.Edit(ctx, alice, "alice", "p", repos.EditOptions{Description: &desc})
	require.NoError(t, err)
	got, err = w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.Equal(t, got.Repo, ev.Repo)
}

func TestCreatorAndForkerWatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	bob := w.user(t, "bob", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true})
	require.NoError(t, err)
	_, err = w.svc.Subscription(ctx, alice, "alice", "p")
	require.NoError(t, err, "the creator watches from the start")
	_, err = w.svc.Subscription(ctx, bob, "alice", "p")
	require.ErrorIs(t, err, forge.ErrNotFound)

	_, err = w.svc.Fork(ctx, bob, "alice", "p", "")
	require.NoError(t, err)
	_, err = w.svc.Subscription(ctx, bob, "bob", "p")
	require.NoError(t, err, "the forker watches the fork")

	// Hosts may turn it off, as Forgejo's AUTO_WATCH_NEW_REPOS.
	off := newWorld(t, func(c *repos.Config) { c.DisableAutoWatch = true })
	carl := off.user(t, "carl", forge.VisibilityPublic)
	v, err := off.svc.Create(ctx, carl, "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err)
	require.Zero(t, v.Repo.NumWatches)
}

// png is the smallest thing IsImage accepts as a PNG.
var png = []byte("\x89PNG\r\n\x1a\n0000")

func TestForkHasItsOwnAvatar(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	bob := w.user(t, "bob", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true})
	require.NoError(t, err)
	require.NoError(t, w.svc.SetAvatar(ctx, alice, "alice", "p", png))
	parent, err := w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.NotEmpty(t, parent.Repo.Avatar)

	fork, err := w.svc.Fork(ctx, bob, "alice", "p", "")
	require.NoError(t, err)
	require.NotEmpty(t, fork.Repo.Avatar)
	require.NotEqual(t, parent.Repo.Avatar, fork.Repo.Avatar)
	rc, err := w.svc.OpenAvatar(ctx, fork.Repo.Avatar)
	require.NoError(t, err)
	b, _ := io.ReadAll(rc)
	rc.Close()
	require.True(t, bytes.Equal(png, b))

	require.NoError(t, w.svc.DeleteAvatar(ctx, bob, "bob", "p"))
	rc, err = w.svc.OpenAvatar(ctx, parent.Repo.Avatar)
	require.NoError(t, err, "the parent's avatar survives the fork's deletion")
	rc.Close()
	parent2, err := w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.Equal(t, parent.Repo.Avatar, parent2.Repo.Avatar)
}

func TestPermissionQueryOnlyForAdminsAndThemselves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	bob := w.user(t, "bob", forge.VisibilityPublic)
	w.user(t, "carl", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err)

	_, _, err = w.svc.UserPermission(ctx, bob, "alice", "p", "carl")
	require.ErrorIs(t, err, forge.ErrForbidden)
	require.EqualError(t, err, "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own")
	_, mode, err := w.svc.UserPermission(ctx, bob, "alice", "p", "bob")
	require.NoError(t, err)
	require.Equal(t, forge.AccessModeRead, mode)
	_, mode, err = w.svc.UserPermission(ctx, alice, "alice", "p", "carl")
	require.NoError(t, err)
	require.Equal(t, forge.AccessModeRead, mode)
	_, _, err = w.svc.UserPermission(ctx, alice, "alice", "p", "nobody")
	require.ErrorIs(t, err, forge.ErrNotFound)
}

func TestTransferAnswersHidePrivateRepositories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	bob := w.user(t, "bob", forge.VisibilityPublic)
	carl := w.user(t, "carl", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "secret", Private: true})
	require.NoError(t, err)
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "quiet", Private: true})
	require.NoError(t, err)
	_, err = w.svc.StartTransfer(ctx, alice, "alice", "secret", "carl", nil)
	require.NoError(t, err)

	_, missing := w.svc.AcceptTransfer(ctx, bob, "alice", "nothing-here")
	require.ErrorIs(t, missing, forge.ErrNotFound)
	for _, name := range []string{"secret", "quiet"} {
		_, err := w.svc.AcceptTransfer(ctx, bob, "alice", name)
		require.Equal(t, missing, err, name)
		_, err = w.svc.RejectTransfer(ctx, bob, "alice", name)
		require.Equal(t, missing, err, name)
	}
	// The recipient may answer.
	v, err := w.svc.AcceptTransfer(ctx, carl, "alice", "secret")
	require.NoError(t, err)
	require.Equal(t, "carl", v.Repo.OwnerName)
}

func TestDefaultBranchMustBeABranchName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err)
	for _, bad := range []string{"a\nb", "-x", "HEAD", "refs/heads/x", "a..b", "x.lock", "a b", ""} {
		b := bad
		_, err := w.svc.Edit(ctx, alice, "alice", "p", repos.EditOptions{DefaultBranch: &b})
		require.ErrorIs(t, err, forge.ErrInvalid, "%q", bad)
		require.EqualError(t, err, "[DefaultBranch]: GitRefName")
		if bad != "" {
			_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "q", DefaultBranch: bad})
			require.ErrorIs(t, err, forge.ErrInvalid, "%q", bad)
		}
	}
	v, err := w.svc.Get(ctx, alice, "alice", "p")
	require.NoError(t, err)
	require.Equal(t, "main", v.Repo.DefaultBranch)
	good := "release/1.x"
	v, err = w.svc.Edit(ctx, alice, "alice", "p", repos.EditOptions{DefaultBranch: &good})
	require.NoError(t, err)
	require.Equal(t, good, v.Repo.DefaultBranch)
}

// failingGit fails Create after making the directory, or stops its
// goroutine there (runtime.Goexit: a process killed mid-creation); with
// crashRemove, Remove stops its goroutine after removing the directory.
type failingGit struct {
	repos.Git
	crash, crashRemove bool
}

func (g failingGit) Remove(ctx context.Context, repo forge.ID) error {
	if err := g.Git.Remove(ctx, repo); err != nil {
		return err
	}
	if g.crashRemove {
		runtime.Goexit()
	}
	return nil
}

func (g failingGit) Create(ctx context.Context, repo forge.ID, f forge.ObjectFormat, branch string) error {
	if err := g.Git.Create(ctx, repo, f, branch); err != nil {
		return err
	}
	if g.crash {
		runtime.Goexit()
	}
	return errors.New("disk full")
}

func TestCreationIsRecoverable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	defer db.Close()
	clock := forgetest.NewClock()
	root := t.TempDir()
	git, err := gitstore.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	a, err := auth.New(auth.Config{Store: db.Auth(), Clock: clock, Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1},
		SecretKey: []byte("x")})
	require.NoError(t, err)
	no := false
	u, err := a.CreateUser(ctx, forge.Actor{User: &forge.User{ID: -1, IsAdmin: true, IsActive: true}}, auth.CreateUserOptions{
		Name: "alice", Email: "alice@example.com", Password: "password-alice", MustChangePassword: &no})
	require.NoError(t, err)
	alice := forge.Actor{User: u, Method: forge.AuthPassword}
	svc := func(g repos.Git) *repos.Service {
		s, err := repos.New(repos.Config{Store: db.Repos(), Git: g, Clock: clock})
		require.NoError(t, err)
		return s
	}
	good := svc(git)

	// A failed creation leaves nothing: the same name can be created.
	_, err = svc(failingGit{Git: git}).Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true})
	require.EqualError(t, err, "disk full")
	_, err = good.Get(ctx, alice, "alice", "p")
	require.ErrorIs(t, err, forge.ErrNotFound)
	dirs, err := filepath.Glob(filepath.Join(root, "*.git"))
	require.NoError(t, err)
	require.Empty(t, dirs, "no directory without a row")

	// A crash between the git directory and the ready row leaves a
	// creating row and a directory, which Recover removes.
	crash := func(name string) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			svc(failingGit{Git: git, crash: true}).Create(ctx, alice, "", repos.CreateOptions{Name: name})
		}()
		<-done
	}
	crash("p")
	_, err = good.Create(ctx, alice, "", repos.CreateOptions{Name: "p"})
	require.ErrorIs(t, err, forge.ErrConflict, "a creation in progress blocks the name")
	list, _, err := good.List(ctx, alice, repos.RepoFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	require.Empty(t, list, "a repository being created is not listed")
	_, err = good.Get(ctx, alice, "alice", "p")
	require.ErrorIs(t, err, forge.ErrNotFound, "nor found")
	dirs, err = filepath.Glob(filepath.Join(root, "*.git"))
	require.NoError(t, err)
	require.Len(t, dirs, 1, "the crashed creation left its directory")
	dir := dirs[0]
	n, err := good.Recover(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.NoDirExists(t, dir)
	_, err = good.Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true})
	require.NoError(t, err)

	// Without Recover, a retry after StaleCreation takes the name back.
	crash("q")
	clock.Step(repos.StaleCreation + 1)
	v, err := good.Create(ctx, alice, "", repos.CreateOptions{Name: "q"})
	require.NoError(t, err)
	require.Equal(t, "q", v.Repo.Name)
	n, err = good.Recover(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n, "the stale row renamed aside is removed with its directory")
	list, _, err = good.List(ctx, alice, repos.RepoFilter{}, forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 2)

	// Deletion removes the directory and the row.
	require.NoError(t, good.Delete(ctx, alice, "alice", "q"))
	require.NoDirExists(t, git.Path(v.Repo.ID))
	_, err = good.Get(ctx, alice, "alice", "q")
	require.ErrorIs(t, err, forge.ErrNotFound)

	// A crash between removing the directory and the row leaves a row
	// marked as being deleted: gone for readers, removed by Recover, and
	// the name free again.
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc(failingGit{Git: git, crashRemove: true}).Delete(ctx, alice, "alice", "p")
	}()
	<-done
	_, err = good.Get(ctx, alice, "alice", "p")
	require.ErrorIs(t, err, forge.ErrNotFound)
	_, err = good.Create(ctx, alice, "", repos.CreateOptions{Name: "p"})
	require.NoError(t, err, "a half-deleted repository does not block its name")
	n, err = good.Recover(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	_, err = good.Get(ctx, alice, "alice", "p")
	require.NoError(t, err, "Recover removed the old row, not the new repository")
}
