// Command embed shows a host program that mounts Hearth next to routes of
// its own: users and tokens, repositories (git repositories in a directory,
// release assets and avatars in another), /api/v1 and git's smart HTTP, on
// the host's http.ServeMux. README.md shows this program; a test keeps the
// two the same.
//
//	go run ./examples/embed    # then: curl localhost:8080/api/v1/version
package main

import (
	"context"
	"log"
	"os"
)

func main() {
	dir, err := os.MkdirTemp("", "hearth-embed-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	log.Println("listening on http://127.0.0.1:8080 (API under /api/v1/, git at /{owner}/{repo}.git, host route /healthz)")
	log.Fatal(serve(context.Background(), "127.0.0.1:8080", dir))
}
