package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
)

// handler wires the whole forge (forge/site) with its data under dir
// (SQLite, git repositories, blobs), and mounts it next to the host's own
// routes; the caller runs its workers (webhooks, mirrors, pull request
// checks) with Run and closes it. local lets webhooks and mirrors reach
// this machine's addresses.
func handler(ctx context.Context, dir string, local bool) (http.Handler, *site.Site, error) {
	var policy hooks.AddressPolicy // zero: external receivers only
	if local {
		policy, _ = hooks.ParseAddressPolicy([]string{"loopback"})
	}
	forge, err := site.New(ctx, site.Config{Dir: dir, WebhookPolicy: policy, AllowLocalMigrations: local})
	if err != nil {
		return nil, nil, err
	}
	mustChange := false
	if _, err := forge.Auth().EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "host", Email: "host@example.com", Password: "change-me-please", MustChangePassword: &mustChange,
	}); err != nil {
		forge.Close()
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	// The API and git's smart HTTP (/{owner}/{repo}.git/…) take what the
	// host's own, more specific routes do not.
	mux.Handle("/", forge.Handler())
	return mux, forge, nil
}

// serve runs the host on addr, and the forge's workers, until it fails.
func serve(ctx context.Context, addr, dir string) error {
	h, forge, err := handler(ctx, dir, false)
	if err != nil {
		return err
	}
	defer forge.Close()
	go forge.Run(ctx)
	return http.ListenAndServe(addr, h)
}
