package forge_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// An Actor survives JSON with its scope (the outbox stores events so);
// an unknown scope word does not decode.
func TestActorJSONRoundTrip(t *testing.T) {
	t.Parallel()
	scope, err := forge.ParseScope("public-only", "write:repository", "read:user")
	require.NoError(t, err)
	a := forge.Actor{User: &forge.User{ID: 7, Name: "ann", Visibility: forge.VisibilityPublic}, Method: forge.AuthToken, Scope: scope, Scoped: true, TokenID: 3}
	data, err := json.Marshal(a)
	require.NoError(t, err)
	var b forge.Actor
	require.NoError(t, json.Unmarshal(data, &b))
	assert.Equal(t, a, b)
	assert.True(t, b.Scope.Has(forge.CategoryRepository, forge.AccessWrite))
	assert.False(t, b.Scope.Has(forge.CategoryUser, forge.AccessWrite))

	var bad forge.Actor
	assert.ErrorIs(t, json.Unmarshal([]byte(`{"Scope":"write:nothing"}`), &bad), forge.ErrInvalid)
}
