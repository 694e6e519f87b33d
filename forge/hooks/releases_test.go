package hooks_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge/hooks"
)

func TestReleaseAction(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		op                          string
		draft, wasDraft, tagCreated bool
		want                        string
	}{
		{"create", false, false, false, hooks.ReleasePublished},
		{"create", true, false, false, ""},
		{"edit", false, false, false, hooks.ReleaseUpdated},
		{"edit", false, true, false, hooks.ReleasePublished},
		{"edit", false, false, true, hooks.ReleasePublished},
		{"edit", true, true, false, ""},
		{"edit", true, false, false, ""},
		{"delete", false, false, false, hooks.ReleaseDeleted},
		{"delete", true, false, false, ""},
		{"other", false, false, false, ""},
	} {
		assert.Equal(t, c.want, hooks.ReleaseAction(c.op, c.draft, c.wasDraft, c.tagCreated), "%+v", c)
	}
}
