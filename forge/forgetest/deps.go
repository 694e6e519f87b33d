package forgetest

import (
	"os/exec"
	"strings"
	"testing"
)

// DomainBadDeps are the imports a domain package (forge, auth, quota,
// issues, mirror and forge/...) must never reach, with the reason.
var DomainBadDeps = map[string]string{
	"net/http":                                 "domain packages must not depend on HTTP: httpapi adapts them",
	"database/sql":                             "domain packages declare stores; storage/* implements them",
	"modernc.org/sqlite":                       "storage drivers belong in storage/*",
	"github.com/jackc/pgx/v5":                  "storage drivers belong in storage/*",
	"github.com/go-git/go-git/v5":              "git access belongs in storage/gitstore",
	"github.com/go-chi/chi/v5":                 "routing belongs in httpapi",
	"github.com/hearthforge/hearth/forge/site": "the composition root wires the domains: only hosts import it",
}

// CheckDeps fails t if pkg (an import path) depends, directly or not, on a
// package in bad (or a package below one). It runs `go list -deps`, in the
// manner of tailscale's deptest.
func CheckDeps(t *testing.T, pkg string, bad map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for b, why := range bad {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("%s depends on %s: %s", pkg, dep, why)
			}
		}
	}
}
