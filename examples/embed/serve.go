package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// handler wires the whole forge (forge/site) on SQLite, git repositories
// and blobs under dir, and mounts it next to the host's own routes; the
// caller runs its workers (webhooks, mirrors, pull request checks) with
// Run. local lets webhooks and mirrors reach this machine's addresses.
func handler(ctx context.Context, dir string, local bool) (http.Handler, *site.Site, func() error, error) {
	db, err := sqlite.Open(ctx, filepath.Join(dir, "hearth.db")) // or ":memory:"; migrations run on open
	if err != nil {
		return nil, nil, nil, err
	}
	git, err := gitstore.Open(filepath.Join(dir, "git"))
	if err != nil {
		return nil, nil, nil, err
	}
	blobs, err := blob.OpenDir(filepath.Join(dir, "blobs"))
	if err != nil {
		return nil, nil, nil, err
	}
	var policy hooks.AddressPolicy // zero: external receivers only
	if local {
		policy, _ = hooks.ParseAddressPolicy([]string{"loopback"})
	}
	forge, err := site.New(ctx, site.Config{Store: db, Git: git, Blobs: blobs, WebhookPolicy: policy, AllowLocalMigrations: local})
	if err != nil {
		return nil, nil, nil, err
	}
	mustChange := false
	if _, err := forge.Auth().EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "host", Email: "host@example.com", Password: "change-me-please", MustChangePassword: &mustChange,
	}); err != nil {
		return nil, nil, nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	// The API and git's smart HTTP (/{owner}/{repo}.git/…) take what the
	// host's own, more specific routes do not.
	mux.Handle("/", forge.Handler())
	return mux, forge, func() error { git.Close(); return db.Close() }, nil
}

// serve runs the host on addr, and the forge's workers, until it fails.
func serve(ctx context.Context, addr, dir string) error {
	h, forge, closeAll, err := handler(ctx, dir, false)
	if err != nil {
		return err
	}
	defer closeAll()
	go forge.Run(ctx)
	return http.ListenAndServe(addr, h)
}
