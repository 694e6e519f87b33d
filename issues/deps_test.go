package issues_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/forgetest"
)

func TestDeps(t *testing.T) {
	t.Parallel()
	bad := maps.Clone(forgetest.DomainBadDeps)
	bad["github.com/hearthforge/hearth/forge/orgs"] = "issues reaches organisations through OrgRoles"
	bad["github.com/hearthforge/hearth/storage"] = "storage implements issues.Store"
	forgetest.CheckDeps(t, "github.com/hearthforge/hearth/issues", bad)
}

// TestReposValuesOnly: issues may use forge/repos' values and pure rules
// (git commits and signatures, branch protection, CountApprovals) but
// reaches repositories only through RepoAccess and PullGit, never through
// the repository service or its store.
func TestReposValuesOnly(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	banned := map[string]bool{"Service": true, "New": true, "Store": true, "Tx": true, "Config": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "repos" && banned[sel.Sel.Name] {
				t.Errorf("%s: issues uses repos.%s; reach repositories through RepoAccess", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
