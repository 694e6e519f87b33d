package storetest

import (
	"bytes"
	"os"
	"testing"

	"github.com/hearthforge/hearth/storage/storetest/internal/recgen"
)

// TestRecordGenFresh regenerates the recording wrappers in memory and
// compares them with record_gen.go: a method added to a store interface
// (or one removed) fails here until `go generate ./storage/storetest` is
// run, and then Coverage until the suite calls it.
func TestRecordGenFresh(t *testing.T) {
	t.Parallel()
	want, err := recgen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(recgen.File)
	if err != nil {
		t.Fatalf("%v (run go generate ./storage/storetest)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("storage/storetest/%s is stale: run go generate ./storage/storetest", recgen.File)
	}
}
