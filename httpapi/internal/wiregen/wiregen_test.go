package wiregen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hearthforge/hearth/httpapi/internal/wiregen"
)

// TestGeneratedFilesAreFresh regenerates the wire layer in memory and
// compares it with the checked-in files: run `go generate ./httpapi` after
// changing the document, the overlay or the generator.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := wiregen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("generated %d files, want 2", len(files))
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatalf("%v (run go generate ./httpapi)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("httpapi/%s is stale: run go generate ./httpapi", path)
		}
	}
}

// TestRequiredFieldsAreValues checks the overlay reaches the DTOs: a field
// Forgejo always emits is a value without omitempty, an omitempty one a
// pointer with omitempty, and a nullable one a pointer without omitempty.
func TestRequiredFieldsAreValues(t *testing.T) {
	t.Parallel()
	src, err := wiregen.DTOs()
	if err != nil {
		t.Fatal(err)
	}
	src = regexp.MustCompile(`[ \t]+`).ReplaceAll(src, []byte(" "))
	for _, line := range []string{
		"FullName string `json:\"full_name\"`",
		"Permissions *Permission `json:\"permissions,omitempty\"`",
		"Parent *Repository `json:\"parent\"`",
		"Topics []string `json:\"topics\"`",
		// *Option schemas keep pointers for partial updates.
		"AllowMerge *bool `json:\"allow_merge_commits,omitempty\"`",
	} {
		if !bytes.Contains(src, []byte(line)) {
			t.Errorf("generated DTOs lack %s", line)
		}
	}
}
