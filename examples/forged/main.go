// Command forged is Hearth's runnable forge server: SQLite storage in a data
// directory and the Forgejo-compatible API on /api/v1, with no other set-up.
// -db postgres://user@host:port/dbname?sslmode=disable puts the database on
// PostgreSQL instead (the password from PGPASSWORD or ~/.pgpass, never the
// URL), where several forged servers may share it, with a shared -data
// directory (git/, secret.key) and -blob.
//
//	go run ./examples/forged                 # 127.0.0.1:3000, data in ./forged-data
//	go run ./examples/forged -addr :8080 -data /srv/forge -admin-user alice
//
// On a start with no administrator it creates one (from -admin-user,
// -admin-email and -admin-password, or FORGED_ADMIN_USER, FORGED_ADMIN_EMAIL
// and FORGED_ADMIN_PASSWORD); without a password it generates one and prints
// it once. Once an administrator exists these are ignored (the log says so).
// A lost password is reset from the console, with the server stopped or
// running:
//
//	go run ./examples/forged -data /srv/forge -reset-admin-password [-admin-user alice] [-admin-password NEW]
//
// sets the password of -admin-user (generated and printed when
// -admin-password is empty), clears its must-change-password flag and exits.
//
// Behind a reverse proxy, name it with -trusted-proxies (networks or
// addresses, comma-separated): the failed sign-in throttle then takes each
// client's address from X-Forwarded-For instead of counting every client as
// the proxy. The throttle's counters live in the server's memory: a restart
// forgets them, and several forged processes count separately.
//
// Profiling on demand: -pprof 127.0.0.1:6060 serves net/http/pprof at
// /debug/pprof/ on that separate listener; only loopback addresses are
// accepted (forward the port to profile a remote server).
//
// Timeouts: request headers must arrive within 10 s (-read-header-timeout);
// an idle keep-alive connection closes after 2 minutes (-idle-timeout); a
// request body must keep arriving at
// -body-min-rate bytes a second on average after a grace of -body-grace, and
// no read may wait more than a minute, so a trickled body is cut off while a
// long git push at any real speed is not. No overall read or write timeout
// applies (clones and pushes may be long).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/site"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, nil); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "forged:", err)
		}
		os.Exit(1)
	}
}

// run serves until ctx is done. ready, if not nil, is called with the
// listening address once the server accepts connections.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string)) error {
	o, err := parseFlags(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if err := os.MkdirAll(o.data, 0o750); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	db, engine, err := openDatabase(ctx, o.db, o.data) // database.go
	if err != nil {
		return err
	}
	defer db.Close()
	log.Info("database", "engine", engine)
	secret, err := loadSecret(filepath.Join(o.data, "secret.key"))
	if err != nil {
		return err
	}
	if o.resetAdminPassword { // a host operation: the console, no server
		authSvc, err := auth.New(auth.Config{Store: db.Auth(), Logger: log, SecretKey: secret})
		if err != nil {
			return err
		}
		return resetAdminPassword(ctx, authSvc, o, stdout)
	}
	signing, err := loadSigningKeys(o.signingGPG, o.signingSSH)
	if err != nil {
		return err
	}
	blobs, err := openBlobs(ctx, o.blob, o.data, getenv, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	// The mirror lease holder is stable per data directory and address
	// (mirrorHolder), so that a restart after a crash releases the leases
	// the crash left, and servers sharing a data directory differ.
	holder, err := mirrorHolder(o.data, ln.Addr().String())
	if err != nil {
		return err
	}
	s, err := site.New(ctx, site.Config{Dir: o.data, Store: db, Blobs: blobs, Logger: log, SecretKey: secret,
		RootURL: "http://" + ln.Addr().String() + "/", Quota: o.quota, WebhookPolicy: o.webhookPolicy,
		AllowLocalMigrations: o.allowLocalMigrations, MirrorHolder: holder, BlobSweep: o.blobSweep,
		MaxPushBytes: o.maxPushBytes, MaxBodyBytes: o.limits.maxBodyBytes, MaxUploadBytes: o.limits.maxUpload,
		MaxFilesPerCommit: o.limits.maxFilesPerCommit, MaxConcurrentHashes: o.limits.maxConcurrentHashes,
		Throttle:  auth.Throttle{Free: o.limits.signinFailures, AddressFree: o.limits.addrFailure},
		RateLimit: o.limits.rate, TrustedProxies: o.trustedProxies, Signing: signing, SSH: sshConfig(o.sshAddr), Federation: o.federation})
	if err != nil {
		return err
	}
	defer s.Close() // the git store it opened in the data directory
	if err := bootstrapAdmin(ctx, s.Auth(), o, stdout, log); err != nil {
		return err
	}
	if o.pprof != "" {
		if err := servePprof(ctx, o.pprof, log); err != nil {
			return err
		}
	}
	// The workers run as long as the server, and stop with it.
	workCtx, stopWork := context.WithCancel(ctx)
	workDone := make(chan struct{})
	go func() { defer close(workDone); s.Run(workCtx) }()
	defer func() { stopWork(); <-workDone }()
	srv := &http.Server{
		Handler:  bodyDeadlines(s.Handler(), o.bodyGrace, o.bodyMinRate),
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	o.limits.server.Apply(srv)
	log.Info("forged listening", "addr", "http://"+ln.Addr().String(), "ssh", s.SSHAddr(), "data", o.data)
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("forged shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

// sshConfig is git over SSH on addr, nil when addr is empty (off).
func sshConfig(addr string) *site.SSH {
	if addr == "" {
		return nil
	}
	return &site.SSH{Addr: addr}
}
