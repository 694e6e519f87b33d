// Package pgtest gives tests a fresh PostgreSQL database each.
//
// The first call to NewDatabase in a test process starts a throwaway
// cluster: initdb into a temporary directory, then pg_ctl start with the
// server listening only on a unix socket in that directory (no TCP port, so
// parallel test processes never collide), fsync off. When the process runs
// as root the cluster runs as the unprivileged user "postgres" (or "nobody"
// where there is none), because PostgreSQL refuses to run as root. Main
// stops the cluster and removes the directory when the tests end (a test
// process killed before that leaves its cluster running: the next test
// process to start one stops and removes it); a package that uses pgtest
// declares
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// Each test gets its own database, created with CREATE DATABASE … TEMPLATE
// from a template database that Template.Prepare migrated once per process,
// so a test pays a file copy, not the migrations. The database is dropped
// when the test ends.
//
// HEARTH_TEST_POSTGRES=postgres://user@host:port/db?sslmode=disable uses an
// existing server instead (the user must be allowed to create databases);
// the databases and templates pgtest creates there carry the test process's
// id in their names and are dropped at the end.
//
// The binaries are looked up in $HEARTH_PG_BIN, then next to pg_ctl on
// $PATH, then in the newest /usr/lib/postgresql/*/bin. When there are none,
// NewDatabase skips the test with a message saying so, unless CI is set to
// true, where it fails it: CI must not pass by skipping.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// EnvDSN names the variable that points tests at an existing server.
const EnvDSN = "HEARTH_TEST_POSTGRES"

// EnvBin names the variable that points at a directory holding initdb and
// pg_ctl.
const EnvBin = "HEARTH_PG_BIN"

// Template is a database prepared once per test process and copied for
// every test that asks for it.
type Template struct {
	// Name identifies the template within the process: letters, digits and
	// underscores.
	Name string
	// Prepare fills the empty database at dsn (typically: open it, which
	// applies the migrations, and close it). It must close every
	// connection it opened: PostgreSQL copies no database that is in use.
	Prepare func(ctx context.Context, dsn string) error
}

// server is the one cluster (or external server) of this process.
type server struct {
	once     sync.Once
	err      error  // why there is no server
	missing  bool   // err is "no binaries": skip rather than fail outside CI
	base     string // DSN of the maintenance database, as a URL
	admin    *sql.DB
	dir      string // the cluster's directory; "" for an external server
	pgctl    string
	runAs    *syscall.Credential
	external bool

	mu        sync.Mutex
	templates map[string]*templateState
	created   []string // templates to drop at the end (external servers)
	count     atomic.Int64
}

type templateState struct {
	once sync.Once
	name string
	err  error
}

var srv = &server{templates: map[string]*templateState{}}

var validName = regexp.MustCompile(`^[a-z0-9_]+$`)

// Main runs the tests and then stops the cluster (or drops what pgtest
// created on an external server). It returns m.Run's code.
func Main(m *testing.M) int {
	code := m.Run()
	if err := srv.stop(); err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// NewDatabase creates an empty database, or a copy of tmpl when tmpl is not
// nil, for t alone, drops it when t ends, and returns its DSN (a
// postgres:// URL for pgx). See the package comment for when it skips.
func NewDatabase(t testing.TB, tmpl *Template) string {
	t.Helper()
	s := srv
	s.once.Do(s.start)
	if s.err != nil {
		if s.missing && os.Getenv("CI") != "true" {
			t.Skipf("pgtest: %v (install PostgreSQL, set %s to its bin directory, or %s to a server's URL; with CI=true this fails)", s.err, EnvBin, EnvDSN)
		}
		t.Fatalf("pgtest: %v", s.err)
	}
	source := "template0"
	if tmpl != nil {
		name, err := s.template(tmpl)
		if err != nil {
			t.Fatalf("pgtest: template %s: %v", tmpl.Name, err)
		}
		source = name
	}
	name := fmt.Sprintf("hearth_%d_%d", os.Getpid(), s.count.Add(1))
	ctx := context.Background()
	if err := s.createDatabase(ctx, name, source); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		// WITH (FORCE) ends connections the test left open (PostgreSQL 13+).
		if _, err := s.admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
		}
	})
	return s.dsn(name)
}

// dsn is the URL of database name on the server.
func (s *server) dsn(name string) string {
	u, _ := url.Parse(s.base) // parsed in start
	u.Path = "/" + name
	return u.String()
}

// createDatabase copies source into a new database name. PostgreSQL refuses
// a copy while another session is connected to the source; pgtest's own
// sessions never are, but a just-closed Prepare connection may still be
// ending, so that one error is retried for a few seconds.
func (s *server) createDatabase(ctx context.Context, name, source string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := s.admin.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+source)
		if err == nil {
			return nil
		}
		if !strings.Contains(err.Error(), "is being accessed by other users") || time.Now().After(deadline) {
			return fmt.Errorf("create database %s from %s: %w", name, source, err)
		}
		// Wait for the other session's backend to exit: ask the server,
		// which answers once it has.
		s.admin.ExecContext(ctx, `SELECT pg_sleep(0.05)`)
	}
}

// template returns the database name of tmpl, preparing it on first use.
func (s *server) template(tmpl *Template) (string, error) {
	if !validName.MatchString(tmpl.Name) {
		return "", fmt.Errorf("template name %q: use lower-case letters, digits and underscores", tmpl.Name)
	}
	s.mu.Lock()
	st := s.templates[tmpl.Name]
	if st == nil {
		st = &templateState{name: fmt.Sprintf("hearth_tmpl_%d_%s", os.Getpid(), tmpl.Name)}
		s.templates[tmpl.Name] = st
	}
	s.mu.Unlock()
	st.once.Do(func() {
		ctx := context.Background()
		if _, err := s.admin.ExecContext(ctx, `CREATE DATABASE `+st.name+` TEMPLATE template0`); err != nil {
			st.err = err
			return
		}
		s.mu.Lock()
		s.created = append(s.created, st.name)
		s.mu.Unlock()
		if err := tmpl.Prepare(ctx, s.dsn(st.name)); err != nil {
			st.err = fmt.Errorf("prepare: %w", err)
			return
		}
		// A template must not be connected to while it is copied.
		_, st.err = s.admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, st.name)
	})
	return st.name, st.err
}

func (s *server) start() {
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		s.external = true
		s.base = dsn
		s.err = s.connect()
		return
	}
	bin, err := findBin()
	if err != nil {
		s.err, s.missing = err, true
		return
	}
	s.pgctl = filepath.Join(bin, "pg_ctl")
	s.err = s.startCluster(bin)
	if s.err == nil {
		s.err = s.connect()
	}
}

// connect opens the maintenance connection to s.base.
func (s *server) connect() error {
	if _, err := url.Parse(s.base); err != nil {
		return fmt.Errorf("%s: %w", EnvDSN, err)
	}
	db, err := sql.Open("pgx", s.base)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(4)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fmt.Errorf("connect %s: %w", redact(s.base), err)
	}
	s.admin = db
	return nil
}

// redact hides a password in a URL for messages.
func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil {
		return u.Redacted()
	}
	return "(unparsable DSN)"
}

// findBin returns the directory holding initdb and pg_ctl.
func findBin() (string, error) {
	has := func(dir string) bool {
		for _, b := range []string{"initdb", "pg_ctl", "postgres"} {
			if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || fi.IsDir() {
				return false
			}
		}
		return true
	}
	if dir := os.Getenv(EnvBin); dir != "" {
		if has(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("%s=%s holds no initdb, pg_ctl and postgres", EnvBin, dir)
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if dir := filepath.Dir(p); has(dir) {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, dir := range dirs {
		if has(dir) {
			return dir, nil
		}
	}
	return "", errors.New("no PostgreSQL binaries found (pg_ctl on PATH, /usr/lib/postgresql/*/bin)")
}

func version(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

// startCluster runs initdb and pg_ctl start in a new temporary directory.
func (s *server) startCluster(bin string) error {
	s.sweep(bin)
	dir, err := os.MkdirTemp("", "hearth-pg-")
	if err != nil {
		return err
	}
	s.dir = dir
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return err
		}
		s.runAs = cred
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run(filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres",
		"-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"); err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := strings.Join([]string{
		"-k", dir, // the unix socket lives here
		"-c", "listen_addresses=", // and nowhere else
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=32MB",
	}, " ")
	if out, err := s.run(s.pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	s.base = (&url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/postgres",
		RawQuery: url.Values{"host": {dir}, "sslmode": {"disable"}}.Encode()}).String()
	return nil
}

// sweep stops and removes the clusters of test processes that died without
// running Main's cleanup (killed, or a -timeout panic): each directory
// names its owner's pid in the file owner.
func (s *server) sweep(bin string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "hearth-pg-*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner"))
		if err != nil {
			continue // being created, or not ours
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue // its owner runs (or we may not tell)
		}
		data := filepath.Join(dir, "data")
		if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); err == nil {
			cmd := exec.Command(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
			if fi, err := os.Stat(data); err == nil && os.Geteuid() == 0 {
				st := fi.Sys().(*syscall.Stat_t)
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: st.Uid, Gid: st.Gid, Groups: []uint32{}}}
			}
			cmd.Run() // a cluster that no longer runs is removed all the same
		}
		os.RemoveAll(dir)
	}
}

// unprivileged returns the credentials of user postgres, or nobody.
func unprivileged() (*syscall.Credential, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
	}
	return nil, errors.New("running as root and there is no user postgres or nobody to run PostgreSQL as")
}

// run runs a PostgreSQL binary, as the unprivileged user when root.
func (s *server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.runAs != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.runAs}
	}
	return cmd.CombinedOutput()
}

// stop drops what pgtest made on an external server, or stops the cluster
// and removes its directory.
func (s *server) stop() error {
	var errs []error
	if s.admin != nil {
		if s.external {
			s.mu.Lock()
			for _, name := range s.created {
				if _, err := s.admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
					errs = append(errs, err)
				}
			}
			s.mu.Unlock()
		}
		s.admin.Close()
	}
	if s.dir != "" {
		if s.base != "" {
			if out, err := s.run(s.pgctl, "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
				errs = append(errs, fmt.Errorf("pg_ctl stop: %v\n%s", err, out))
			}
		}
		errs = append(errs, os.RemoveAll(s.dir))
	}
	return errors.Join(errs...)
}
