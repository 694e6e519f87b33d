// Command wiregen writes httpapi's generated files (run from httpapi/ by
// `go generate`): wire/wire_gen.go and operations_gen.go.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hearthforge/hearth/httpapi/internal/wiregen"
)

func main() {
	files, err := wiregen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for path, body := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
