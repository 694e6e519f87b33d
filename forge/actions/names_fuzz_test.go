package actions

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

// FuzzCheckNames checks the secret and variable name rules on arbitrary
// names (they come from the URL): an accepted name is an environment
// variable name of at most MaxNameLength bytes without a reserved prefix,
// its canonical (upper-case) form is accepted too, a variable name is
// also a secret name, and a refusal is forge.ErrInvalid.
func FuzzCheckNames(f *testing.F) {
	for _, s := range []string{"DEPLOY_KEY", "_x", "1abc", "a-b", "", "gitea_token", "GITHUB_X", "Forgejo_y", "ci_x", "CI",
		"ıd", "ſecret", strings.Repeat("A", 256), "a b", "A\x00"} {
		f.Add(s)
	}
	env := regexp.MustCompile(`\A[A-Za-z_][A-Za-z0-9_]*\z`)
	f.Fuzz(func(t *testing.T, name string) {
		serr, verr := CheckSecretName(name), CheckVariableName(name)
		for _, err := range []error{serr, verr} {
			if err != nil && !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("%q: %v is not ErrInvalid", name, err)
			}
		}
		if verr == nil && serr != nil {
			t.Fatalf("%q is a variable name but not a secret name: %v", name, serr)
		}
		if serr != nil {
			return
		}
		if len(name) > MaxNameLength || !env.MatchString(name) {
			t.Fatalf("accepted %q", name)
		}
		up := CanonicalName(name)
		for _, p := range []string{"GITEA_", "GITHUB_", "FORGEJO_"} {
			if strings.HasPrefix(up, p) {
				t.Fatalf("accepted reserved %q", name)
			}
		}
		if err := CheckSecretName(up); err != nil {
			t.Fatalf("%q accepted but its canonical form %q not: %v", name, up, err)
		}
	})
}
