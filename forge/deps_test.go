package forge_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/forge", forgetest.DomainBadDeps)
}

// TestStdlibOnly keeps the kernel free of any module but the standard
// library.
func TestStdlibOnly(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}",
		"github.com/hearthforge/hearth/forge").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/hearthforge/hearth/forge" {
			t.Errorf("forge depends on %s: the kernel imports the standard library only", dep)
		}
	}
}
