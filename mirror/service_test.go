package mirror_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/mirror"
)

// lockedBuf is a log sink for slog.
type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (e *env) user(name string, mode forge.AccessMode) forge.Actor {
	e.t.Helper()
	u := forgetest.User(name)
	if err := e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }); err != nil {
		e.t.Fatal(err)
	}
	e.repos.mu.Lock()
	if e.repos.perms == nil {
		e.repos.perms = map[forge.ID]forge.AccessMode{}
	}
	e.repos.perms[u.ID] = mode
	e.repos.mu.Unlock()
	return forgetest.ActorFor(u)
}

// TestPushMirrorCredentialsNeverShown adds a push mirror with a password,
// fails a push whose git error carries it, and greps every answer, error,
// stored row and log line for it.
func TestPushMirrorCredentialsNeverShown(t *testing.T) {
	t.Parallel()
	var logs lockedBuf
	e := newEnv(t, mirror.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	r := e.repo(false)
	admin := e.user("boss", forge.AccessModeAdmin)
	const secret = "pa55-w0rd!"
	pm, err := e.svc.AddPushMirror(e.ctx, admin, "mira", r.Name, mirror.PushMirrorOptions{
		RemoteAddress: "https://push.example/x.git", RemoteUsername: "bob", RemotePassword: secret, Interval: "8h"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pm.RemoteName, "remote_mirror_") || len(pm.RemoteName) != len("remote_mirror_")+11 {
		t.Errorf("remote name %q", pm.RemoteName)
	}
	e.git.fail[r.ID] = fmt.Errorf("exit status 128 - fatal: Authentication failed for 'https://bob:%s@push.example/x.git/' (%s)", secret, secret)
	syncErr := e.svc.SyncPushMirrors(e.ctx, admin, "mira", r.Name)
	if syncErr == nil {
		t.Fatal("a failed push returned no error")
	}
	list, n, err := e.svc.PushMirrors(e.ctx, admin, "mira", r.Name, forge.ListOptions{})
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	js, _ := json.Marshal(list)
	cs := e.git.snapshot()
	if len(cs) != 1 || cs[0].user != "bob" || cs[0].addr != "https://push.example/x.git" {
		t.Errorf("git got %+v", cs)
	}
	for what, s := range map[string]string{"error": syncErr.Error(), "list": string(js), "last_error": list[0].LastError,
		"sealed": list[0].SealedCreds, "logs": logs.String(), "row": fmt.Sprintf("%+v", *list[0])} {
		if strings.Contains(s, secret) {
			t.Errorf("%s carries the password: %s", what, s)
		}
	}
	if !strings.Contains(list[0].LastError, "Authentication failed for 'https://push.example/x.git/'") {
		t.Errorf("last_error %q", list[0].LastError)
	}
	if !strings.Contains(logs.String(), "push sync failed") {
		t.Errorf("no log line for the failed sync: %s", logs.String())
	}
}

func TestPushMirrorRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{})
	r, arch := e.repo(false), e.repo(true)
	admin := e.user("boss", forge.AccessModeAdmin)
	writer := e.user("wri", forge.AccessModeWrite)
	stranger := e.user("str", forge.AccessNone)
	readTok := forgetest.TokenActor(admin.User, "read:repository")
	ok := mirror.PushMirrorOptions{RemoteAddress: "https://push.example/x.git", Interval: "1h"}
	for _, c := range []struct {
		name  string
		actor forge.Actor
		repo  string
		o     mirror.PushMirrorOptions
		kind  error
		msg   string
	}{
		{"writer is not admin", writer, r.Name, ok, forge.ErrForbidden, ""},
		{"read token", readTok, r.Name, ok, forge.ErrForbidden, ""},
		{"archived", admin, arch.Name, ok, forge.ErrArchived, ""},
		{"missing repo", stranger, "nope", ok, forge.ErrNotFound, ""},
		{"short interval", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: ok.RemoteAddress, Interval: "1m"}, forge.ErrInvalid,
			"invalid mirror interval: 1m0s is below minimum interval: 10m0s"},
		{"credentials in url", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: "https://a:b@push.example/x", Interval: "1h"},
			forge.ErrInvalid, "The URL contains credentials"},
		{"loopback", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: "http://127.0.0.1:3000/x", Interval: "1h"},
			forge.ErrInvalid, "You can not import from disallowed hosts."},
		{"mixed dns", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: "http://internal.example/x", Interval: "1h"},
			forge.ErrInvalid, "You can not import from disallowed hosts."},
		{"ssh with password", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: ok.RemoteAddress, Interval: "1h", UseSSH: true,
			RemotePassword: "x"}, forge.ErrInvalid, "'use_ssh' is mutually exclusive with 'remote_username' and 'remote_password'"},
		{"local path", admin, r.Name, mirror.PushMirrorOptions{RemoteAddress: "/srv/x", Interval: "1h"}, forge.ErrInvalid, ""},
	} {
		_, err := e.svc.AddPushMirror(e.ctx, c.actor, "mira", c.repo, c.o)
		if !errors.Is(err, c.kind) || (c.msg != "" && err.Error() != c.msg) {
			t.Errorf("%s: %v, want %v %q", c.name, err, c.kind, c.msg)
		}
	}
	// Created with interval 0: never on schedule; deleted twice without error.
	pm, err := e.svc.AddPushMirror(e.ctx, admin, "mira", r.Name, mirror.PushMirrorOptions{RemoteAddress: ok.RemoteAddress, Interval: "0", SyncOnCommit: true})
	if err != nil || !pm.NextUpdate.IsZero() || !pm.SyncOnCommit {
		t.Fatalf("%+v %v", pm, err)
	}
	// sync_on_commit: a push makes it due now.
	if err := e.ports.AfterPush(e.ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := e.svc.PushMirror(e.ctx, admin, "mira", r.Name, pm.RemoteName)
	if err != nil || !got.NextUpdate.Equal(e.clock.Now()) {
		t.Errorf("after push: %+v %v", got, err)
	}
	for i := 0; i < 2; i++ {
		if err := e.svc.DeletePushMirror(e.ctx, admin, "mira", r.Name, pm.RemoteName); err != nil {
			t.Errorf("delete %d: %v", i, err)
		}
	}
	if _, err := e.svc.PushMirror(e.ctx, admin, "mira", r.Name, pm.RemoteName); !errors.Is(err, forge.ErrNotFound) {
		t.Errorf("deleted mirror: %v", err)
	}
}

func TestPullMirrorService(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{})
	admin := e.user("boss", forge.AccessModeAdmin)
	writer := e.user("wri", forge.AccessModeWrite)
	reader := e.user("rea", forge.AccessModeRead)
	m, err := mirror.CheckMigration(e.svc, e.ctx, admin, mirror.MigrateOptions{CloneAddr: "https://src.example/a.git",
		AuthUsername: "bob", AuthToken: "tok-123", Mirror: true})
	if err != nil || m.Interval != mirror.DefaultInterval || m.Remote.Address.Creds.Password != "tok-123" {
		t.Fatalf("%+v %v", m, err)
	}
	for _, c := range []struct {
		o   mirror.MigrateOptions
		msg string
	}{
		{mirror.MigrateOptions{CloneAddr: "https://u:p@src.example/a.git"}, "The URL contains credentials"},
		{mirror.MigrateOptions{CloneAddr: "http://169.254.169.254/latest"}, "You can not import from disallowed hosts."},
		{mirror.MigrateOptions{CloneAddr: "/etc"}, "You are not allowed to import local repositories."},
		{mirror.MigrateOptions{CloneAddr: "https://src.example/a.git", Mirror: true, MirrorInterval: "5m"},
			"interval 5m0s is set below Minimum Interval of 10m0s"},
	} {
		if _, err := mirror.CheckMigration(e.svc, e.ctx, admin, c.o); err == nil || err.Error() != c.msg {
			t.Errorf("%+v: %v, want %q", c.o, err, c.msg)
		}
	}
	r := e.repo(false)
	pm, err := e.ports.RecordPullMirror(e.ctx, r.ID, m)
	if err != nil || !pm.EnablePrune || strings.Contains(pm.SealedCreds, "tok-123") || pm.SealedCreds == "" {
		t.Fatalf("%+v %v", pm, err)
	}
	// Edits: admin only; each field alone; unparsable interval refused.
	if err := e.svc.EditPullMirror(e.ctx, writer, "mira", r.Name, mirror.PullEdit{EnablePrune: new(bool)}); !errors.Is(err, forge.ErrForbidden) {
		t.Errorf("writer edit: %v", err)
	}
	if err := e.svc.EditPullMirror(e.ctx, admin, "mira", r.Name, mirror.PullEdit{EnablePrune: new(bool)}); err != nil {
		t.Fatal(err)
	}
	bad := "x"
	if err := e.svc.EditPullMirror(e.ctx, admin, "mira", r.Name, mirror.PullEdit{Interval: &bad}); err == nil || err.Error() != `time: invalid duration "x"` {
		t.Errorf("bad interval: %v", err)
	}
	plain := e.repo(false)
	if err := e.svc.EditPullMirror(e.ctx, admin, "mira", plain.Name, mirror.PullEdit{Interval: &bad}); err != nil {
		t.Errorf("non-mirror edits are ignored: %v", err)
	}
	iv := "1h"
	e.clock.Step(time.Minute)
	if err := e.svc.EditPullMirror(e.ctx, admin, "mira", r.Name, mirror.PullEdit{Interval: &iv}); err != nil {
		t.Fatal(err)
	}
	got := e.pullByID(pm.ID)
	if got.EnablePrune || got.Interval != time.Hour || !got.NextUpdate.Equal(e.clock.Now().Add(time.Hour)) {
		t.Errorf("after edits: %+v", got)
	}
	// mirror-sync: writers may; readers may not; not a mirror answers its error.
	if err := e.svc.SyncNow(e.ctx, reader, "mira", r.Name); !errors.Is(err, forge.ErrForbidden) {
		t.Errorf("reader sync: %v", err)
	}
	if err := e.svc.SyncNow(e.ctx, writer, "mira", plain.Name); !errors.Is(err, mirror.ErrNotMirror) {
		t.Errorf("plain sync: %v", err)
	}
	if err := e.svc.SyncNow(e.ctx, writer, "mira", r.Name); err != nil {
		t.Fatal(err)
	}
	cs := e.git.snapshot()
	if len(cs) != 1 || cs[0].op != "fetch" || cs[0].user != "bob" || e.repos.refreshed[r.ID] != 1 {
		t.Errorf("sync: %+v refreshed %v", cs, e.repos.refreshed)
	}
	if got := e.pullByID(pm.ID); !got.Updated.Equal(e.clock.Now()) {
		t.Errorf("updated %v", got.Updated)
	}
	// Convert: the repository stops being a mirror.
	if err := e.svc.Convert(e.ctx, writer, "mira", r.Name); !errors.Is(err, forge.ErrForbidden) {
		t.Errorf("writer convert: %v", err)
	}
	if err := e.svc.Convert(e.ctx, admin, "mira", r.Name); !errors.Is(err, forge.ErrForbidden) {
		t.Errorf("admin collaborator convert (Forgejo's reqOwner): %v", err)
	}
	owner := e.user("ophelia", forge.AccessModeOwner)
	if err := e.svc.Convert(e.ctx, owner, "mira", r.Name); err != nil {
		t.Fatal(err)
	}
	if ms, _ := mirror.NewPullMirrorReader(e.store.Mirrors()).PullMirrors(e.ctx, []forge.ID{r.ID}); len(ms) != 0 {
		t.Errorf("still a mirror: %v", ms)
	}
	if err := e.svc.Convert(e.ctx, owner, "mira", r.Name); !errors.Is(err, mirror.ErrNotMirror) {
		t.Errorf("convert twice: %v", err)
	}
}

func TestDisabled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Disabled: true})
	r := e.repo(false)
	admin := e.user("boss", forge.AccessModeAdmin)
	if _, _, err := e.svc.PushMirrors(e.ctx, admin, "mira", r.Name, forge.ListOptions{}); err == nil || err.Error() != "Mirror feature is disabled" {
		t.Errorf("list: %v", err)
	}
	if _, err := mirror.CheckMigration(e.svc, e.ctx, admin, mirror.MigrateOptions{CloneAddr: "https://src.example/a", Mirror: true}); !errors.Is(err, mirror.ErrDisabled) {
		t.Errorf("migrate: %v", err)
	}
}

// TestSyncTimeout: a remote that hangs is cut at Config.Timeout and the
// time-out is the mirror's last error; the API call itself succeeds.
func TestSyncTimeout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{Timeout: 20 * time.Millisecond})
	writer := e.user("wri", forge.AccessModeWrite)
	m := e.pull(time.Hour, e.clock.Now().Add(time.Hour))
	e.git.block = true
	r, err := e.repos.RepoByID(e.ctx, m.RepoID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SyncNow(e.ctx, writer, "mira", r.Name); err != nil {
		t.Fatal(err)
	}
	got := e.pullByID(m.ID)
	if got.Failures != 1 || got.LastError != "context deadline exceeded" || !got.NextUpdate.Equal(e.clock.Now().Add(time.Minute)) {
		t.Errorf("after a hung fetch: %+v", got)
	}
}
