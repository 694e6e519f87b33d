package hooks_test

import (
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestRefEventsOnlyForBranchesAndTags: a reference update sends create,
// delete and push as Forgejo's post-receive hook does, which ignores every
// reference that is neither a branch nor a tag (refs/notes/commits moved
// by the notes API or a push, refs/pull/…): those send nothing.
func TestRefEventsOnlyForBranchesAndTags(t *testing.T) {
	t.Parallel()
	zero, a, b := strings.Repeat("0", 40), strings.Repeat("a", 40), strings.Repeat("b", 40)
	for _, c := range []struct {
		ref, old, new     string
		create, del, push bool
	}{
		{"refs/heads/main", zero, a, true, false, true},
		{"refs/heads/main", a, b, false, false, true},
		{"refs/heads/main", a, zero, false, true, false},
		{"refs/tags/v1", zero, a, true, false, true},
		{"refs/tags/v1", a, zero, false, true, false},
		{"refs/notes/commits", zero, a, false, false, false},
		{"refs/notes/commits", a, b, false, false, false},
		{"refs/notes/commits", a, zero, false, false, false},
		{"refs/pull/1/head", a, b, false, false, false},
	} {
		create, del, push := hooks.RefEvents(hooks.RefUpdate{Ref: c.ref, OldID: c.old, NewID: c.new})
		if create != c.create || del != c.del || push != c.push {
			t.Errorf("%s %s..%s: create %v delete %v push %v, want %v %v %v", c.ref, c.old[:1], c.new[:1],
				create, del, push, c.create, c.del, c.push)
		}
	}
}
