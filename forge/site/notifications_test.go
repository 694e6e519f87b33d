package site_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite" // the "sqlite" driver, to read the outbox table

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// crashEnv names the directory of the child process of
// TestNotificationSurvivesACrash: set, the test is that child.
const crashEnv = "HEARTH_CRASH_NOTIFY_DIR"

// crashKey is the server key of the crashed and the restarted forge.
var crashKey = []byte("notifications-crash-test-key-0123456789")

// TestNotificationSurvivesACrash: a comment commits and the process dies
// (SIGKILL, no dispatcher ever ran) before the comment's notification is
// made; the forge started again on the same SQLite database makes it,
// exactly once: the issue's poster has one unread thread pointing at the
// comment, and every issue event was handed to the notifications consumer
// once.
func TestNotificationSurvivesACrash(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashAfterComment(dir) // never returns
	}
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestNotificationSurvivesACrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the child must die: %s", stderr.String())
	require.Equal(t, -1, exit.ExitCode(), "killed by a signal, not exited: %s\n%s", exit, stderr.String())
	commentID, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	require.NoError(t, err, "the child printed the comment's id before dying: %q", out)

	s, db := openSite(t, dir)
	alice, bob := actorNamed(t, db, "alice"), actorNamed(t, db, "bob")
	threads := func(a forge.Actor) []*notify.View {
		t.Helper()
		vs, _, err := s.Notify().List(t.Context(), a, notify.Query{All: true})
		require.NoError(t, err)
		return vs
	}
	require.Empty(t, threads(alice), "the crash came before the notification")
	require.Positive(t, pendingOutbox(t, dir), "the events wait in the outbox")

	stop := runSite(t, s)
	waitFor(t, "the notification", func() bool { return len(threads(alice)) > 0 && pendingOutbox(t, dir) == 0 })
	stop()

	got := threads(alice)
	require.Len(t, got, 1, "made exactly once")
	assert.Equal(t, notify.StatusUnread, got[0].Thread.Status)
	assert.Equal(t, forge.ID(commentID), got[0].Thread.CommentID)
	assert.Equal(t, bob.UserID(), got[0].Thread.UpdatedBy)
	// Who takes part is read when the events are handled: bob, a
	// participant by then, has the issue's opening (by alice), never his
	// own comment.
	other := threads(bob)
	require.Len(t, other, 1)
	assert.Equal(t, alice.UserID(), other[0].Thread.UpdatedBy)
	assert.Zero(t, other[0].Thread.CommentID)
	kinds := outboxKinds(t, dir)
	assert.Equal(t, 2, kinds[issues.OutboxKind], "the issue and the comment")
	assert.Equal(t, kinds[issues.OutboxKind], kinds[hooks.ConsumerKind(issues.OutboxKind, "notify")],
		"each issue event handed to the notifications once")
}

// crashAfterComment is the child of TestNotificationSurvivesACrash: on
// the forge in dir, with no worker running, alice opens an issue on
// alice/proj and bob comments on it; the child prints the comment's id
// and kills itself before anything handles the events.
func crashAfterComment(dir string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "hearth.db"))
	if err != nil {
		fail(err)
	}
	git, err := gitstore.Open(filepath.Join(dir, "git"))
	if err != nil {
		fail(err)
	}
	s, err := site.New(ctx, site.Config{Store: db, Git: git, SecretKey: crashKey})
	if err != nil {
		fail(err)
	}
	var alice, bob forge.Actor
	err = db.Auth().Update(ctx, func(tx auth.Tx) error {
		a, b := forgetest.User("alice"), forgetest.User("bob")
		alice, bob = forgetest.ActorFor(a), forgetest.ActorFor(b)
		return errors.Join(tx.CreateUser(ctx, a, ""), tx.CreateUser(ctx, b, ""))
	})
	if err != nil {
		fail(err)
	}
	if _, err := s.Repos().Create(ctx, alice, "", repos.CreateOptions{Name: "proj"}); err != nil {
		fail(err)
	}
	if _, err := s.Issues().Create(ctx, alice, "alice", "proj", issues.CreateIssueOption{Title: "crash"}); err != nil {
		fail(err)
	}
	c, err := s.Issues().CreateComment(ctx, bob, "alice", "proj", 1, issues.CreateCommentOption{Body: "before the notification"})
	if err != nil {
		fail(err)
	}
	fmt.Println(c.Comment.ID)
	_ = os.Stdout.Sync()
	self, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = self.Kill() // SIGKILL: no deferred function, no cleanup runs
	}
	fail(fmt.Errorf("still alive after the kill: %v", err))
}

// TestTwoSitesNotifyOnce: two forges (two Site values, each with its own
// connection pool) on one SQLite database, both running, share the
// outbox: every issue event makes its webhook tasks and its copy for the
// notifications consumer once between them, and no recipient gets two
// threads of one issue.
func TestTwoSitesNotifyOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, db := openSite(t, dir)
	second, _ := openSite(t, dir)
	ctx := t.Context()
	var owner forge.Actor
	var users []forge.Actor
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error {
		o := forgetest.User("owner")
		owner = forgetest.ActorFor(o)
		err := tx.CreateUser(ctx, o, "")
		for i := range 4 {
			u := forgetest.User(fmt.Sprintf("user%d", i))
			users = append(users, forgetest.ActorFor(u))
			err = errors.Join(err, tx.CreateUser(ctx, u, ""))
		}
		return err
	}))
	_, err := first.Repos().Create(ctx, owner, "", repos.CreateOptions{Name: "proj"})
	require.NoError(t, err)
	hook, err := first.Hooks().Create(ctx, owner, hooks.RepoHooks("owner", "proj"), hooks.CreateOptions{Type: "forgejo",
		Config: hooks.Settings{"url": "http://127.0.0.1:1/", "content_type": "json"}, // refused by the policy: never sent
		Events: []string{"issues", "issue_comment"}, Active: true})
	require.NoError(t, err)
	stopFirst, stopSecond := runSite(t, first), runSite(t, second)

	// Each user opens an issue and comments on every other's: the poster
	// of each issue, a participant, gets a thread of it; the owner, who
	// watches the repository, one of each; nobody two of one issue.
	const n = 4
	for i, u := range users[:n] {
		_, err := first.Issues().Create(ctx, u, "owner", "proj", issues.CreateIssueOption{Title: fmt.Sprint("issue ", i)})
		require.NoError(t, err)
	}
	for i, u := range users[:n] {
		svc := first.Issues()
		if i%2 == 1 {
			svc = second.Issues()
		}
		for index := int64(1); index <= n; index++ {
			if index != int64(i+1) {
				_, err := svc.CreateComment(ctx, u, "owner", "proj", index, issues.CreateCommentOption{Body: "me too"})
				require.NoError(t, err)
			}
		}
	}
	events := n + n*(n-1)
	waitFor(t, "every event handled", func() bool {
		// A copy for the consumers is appended as its event is processed.
		return outboxKinds(t, dir)[issues.OutboxKind] == events && pendingOutbox(t, dir) == 0
	})
	stopFirst()
	stopSecond()

	kinds := outboxKinds(t, dir)
	assert.Equal(t, events, kinds[hooks.ConsumerKind(issues.OutboxKind, "notify")], "one copy for the notifications per event")
	tasks, _, err := first.Hooks().Tasks(ctx, owner, hooks.RepoHooks("owner", "proj"), hook.ID, forge.ListOptions{Limit: 100})
	require.NoError(t, err)
	assert.Len(t, tasks, events, "one webhook task per event")
	for i, u := range append([]forge.Actor{owner}, users...) {
		vs, _, err := first.Notify().List(ctx, u, notify.Query{All: true, ListOptions: forge.ListOptions{Limit: 50}})
		require.NoError(t, err)
		seen := map[int64]int{}
		for _, v := range vs {
			seen[v.Subject.Index]++
		}
		for index, k := range seen {
			assert.Equal(t, 1, k, "%s: one thread of issue %d", u.User.Name, index)
		}
		if i == 0 {
			assert.Len(t, seen, n, "the owner watches: a thread of each issue")
		} else {
			// Who else takes part depends on when each event was handled.
			assert.Contains(t, seen, int64(i), "%s: a thread of its issue, which the others commented", u.User.Name)
		}
	}
}

// openSite opens the forge on the SQLite database and git store in dir,
// closed when the test ends.
func openSite(t *testing.T, dir string) (*site.Site, *sqlite.DB) {
	t.Helper()
	db, err := sqlite.Open(t.Context(), filepath.Join(dir, "hearth.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	git, err := gitstore.Open(filepath.Join(dir, "git"))
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	s, err := site.New(t.Context(), site.Config{Store: db, Git: git, SecretKey: crashKey})
	require.NoError(t, err)
	return s, db
}

// runSite runs s's workers; the function returned stops them and waits.
func runSite(t *testing.T, s *site.Site) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(time.Minute):
			t.Error("Run did not return after its context ended")
		}
	}
	t.Cleanup(stop)
	return stop
}

// actorNamed is a password actor of the user name in db.
func actorNamed(t *testing.T, db *sqlite.DB, name string) forge.Actor {
	t.Helper()
	var u *forge.User
	require.NoError(t, db.Auth().View(t.Context(), func(tx auth.Tx) error {
		var err error
		u, err = tx.UserByName(t.Context(), name)
		return err
	}))
	return forgetest.ActorFor(u)
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond) // a poll of another process's work: nothing to wait on
	}
}

// outboxRows runs query on the outbox of the database in dir, read-only.
func outboxRows(t *testing.T, dir, query string, row func(*sql.Rows) error) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "hearth.db")+"?mode=ro&_pragma=busy_timeout(5000)")
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.QueryContext(t.Context(), query)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		require.NoError(t, row(rows))
	}
	require.NoError(t, rows.Err())
}

// pendingOutbox is the number of outbox events not yet processed.
func pendingOutbox(t *testing.T, dir string) int {
	t.Helper()
	var n int
	outboxRows(t, dir, "SELECT count(*) FROM outbox WHERE done_unix = 0", func(r *sql.Rows) error { return r.Scan(&n) })
	return n
}

// outboxKinds counts the outbox's events (processed or not) by kind.
func outboxKinds(t *testing.T, dir string) map[string]int {
	t.Helper()
	out := map[string]int{}
	outboxRows(t, dir, "SELECT kind, count(*) FROM outbox GROUP BY kind", func(r *sql.Rows) error {
		var kind string
		var n int
		err := r.Scan(&kind, &n)
		out[kind] = n
		return err
	})
	return out
}

// TestIssueNotificationsUndecodable: the notifications consumer leaves an
// event of a newer version pending (its error: a newer server handles it)
// and is done with data that is no event (nil: it never will be).
func TestIssueNotificationsUndecodable(t *testing.T) {
	t.Parallel()
	consume := site.IssueNotifications(nil, nil) // never reaches Notify
	err := consume(t.Context(), []byte(`{"version":99,"data":{"kind":"comment"}}`))
	assert.ErrorIs(t, err, forge.ErrNewerEvent)
	for _, bad := range []string{`not json`, `{"version":1,"data":{"kind":"comment"}}`, `{"version":1,"data":{"kind":7}}`} {
		assert.NoError(t, consume(t.Context(), []byte(bad)), bad)
	}
}
