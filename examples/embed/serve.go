package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// handler wires Hearth on SQLite, git repositories and blobs under dir, and
// mounts it next to the host's own routes.
func handler(ctx context.Context, dir string) (http.Handler, func() error, error) {
	db, err := sqlite.Open(ctx, filepath.Join(dir, "hearth.db")) // or ":memory:"; migrations run on open
	if err != nil {
		return nil, nil, err
	}
	users, err := auth.New(auth.Config{Store: db.Auth()})
	if err != nil {
		return nil, nil, err
	}
	git, err := gitstore.Open(filepath.Join(dir, "git"))
	if err != nil {
		return nil, nil, err
	}
	blobs, err := blob.OpenDir(filepath.Join(dir, "blobs"))
	if err != nil {
		return nil, nil, err
	}
	// Without Repos (and Git) the API serves users and tokens only, and the
	// repository routes answer 501 Not Implemented.
	repoSvc, err := repos.New(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs})
	if err != nil {
		return nil, nil, err
	}
	if _, err := repoSvc.Recover(ctx); err != nil { // finish what a crash interrupted
		return nil, nil, err
	}
	mustChange := false
	if _, err := users.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "host", Email: "host@example.com", Password: "change-me-please", MustChangePassword: &mustChange,
	}); err != nil {
		return nil, nil, err
	}

	api, err := httpapi.New(httpapi.Config{Auth: users, Repos: repoSvc, Git: git})
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", api)
	mux.Handle("GET /swagger.v1.json", api)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	// git's smart HTTP lives at /{owner}/{repo}.git/…: give the API what
	// the host's own, more specific routes do not take.
	mux.Handle("/", api)
	return mux, db.Close, nil
}

// serve runs the host on addr until it fails.
func serve(ctx context.Context, addr, dir string) error {
	h, closeDB, err := handler(ctx, dir)
	if err != nil {
		return err
	}
	defer closeDB()
	return http.ListenAndServe(addr, h)
}
