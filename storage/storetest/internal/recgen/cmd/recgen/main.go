// Command recgen writes storage/storetest/record_gen.go (run from
// storage/storetest by `go generate`).
package main

import (
	"fmt"
	"os"

	"github.com/hearthforge/hearth/storage/storetest/internal/recgen"
)

func main() {
	src, err := recgen.Generate(".")
	if err == nil {
		err = os.WriteFile(recgen.File, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
