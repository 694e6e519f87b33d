// Command embed shows a host program that mounts Hearth's /api/v1 on its own
// http.ServeMux, next to routes of its own, with an in-memory database.
//
//	go run ./examples/embed    # then: curl localhost:8080/api/v1/version
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/storage/sqlite"
)

func main() {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	users, err := auth.New(auth.Config{Store: db.Auth()})
	if err != nil {
		log.Fatal(err)
	}
	mustChange := false
	if _, err := users.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name: "host", Email: "host@example.com", Password: "change-me-please", MustChangePassword: &mustChange,
	}); err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	api := httpapi.New(httpapi.Config{Auth: users})
	mux.Handle("/api/v1/", api)
	mux.Handle("GET /swagger.v1.json", api)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })

	log.Println("listening on http://127.0.0.1:8080 (API under /api/v1/, host route /healthz)")
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", mux))
}
