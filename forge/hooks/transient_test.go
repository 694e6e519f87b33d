package hooks_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
)

// TestTransientKeepsWhatARetryMayCure: a consumer's error is retried for
// the failures of the store and git and for conflicts, never for refusals
// that stay, also inside joined errors.
func TestTransientKeepsWhatARetryMayCure(t *testing.T) {
	t.Parallel()
	disk := errors.New("database is locked")
	assert.NoError(t, hooks.Transient(nil))
	assert.ErrorIs(t, hooks.Transient(disk), disk)
	assert.ErrorIs(t, hooks.Transient(fmt.Errorf("x: %w", forge.ErrConflict)), forge.ErrConflict)
	for _, final := range []error{forge.ErrNotFound, forge.ErrForbidden, forge.ErrInvalid, forge.ErrArchived,
		forge.ErrUnauthenticated, forge.ErrPrecondition} {
		assert.NoError(t, hooks.Transient(forge.Errorf(final, "no")), "%v", final)
	}
	joined := errors.Join(forge.Errorf(forge.ErrNotFound, "gone"), errors.Join(disk, forge.ErrForbidden))
	got := hooks.Transient(joined)
	assert.ErrorIs(t, got, disk)
	assert.NotErrorIs(t, got, forge.ErrNotFound)
	assert.NotErrorIs(t, got, forge.ErrForbidden)
	assert.NoError(t, hooks.Transient(errors.Join(forge.ErrNotFound, forge.ErrInvalid)))
}
