package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// TestUserWritesUsername: a user object carries "username" beside
// "login", as Forgejo's api.User.MarshalJSON writes it, in a value, a
// pointer and a nested user alike.
func TestUserWritesUsername(t *testing.T) {
	t.Parallel()
	u := wire.User{ID: 7, UserName: "alice", FullName: "Alice"}
	for _, v := range []any{u, &u, wire.Repository{Owner: u}} {
		raw, err := json.Marshal(v)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m))
		if owner, ok := m["owner"].(map[string]any); ok {
			m = owner
		}
		assert.Equal(t, "alice", m["login"], "%s", raw)
		assert.Equal(t, "alice", m["username"], "%s", raw)
		assert.Equal(t, "Alice", m["full_name"], "%s", raw)
		assert.EqualValues(t, 7, m["id"], "%s", raw)
	}
}
