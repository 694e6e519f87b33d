package repos_test

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// TestContentMethodsCheckTheActor: every public method of the contents API
// refuses an actor whose account may not act or whose token lacks the
// repository scope, before it looks at anything (a Go program calling the
// service gets what an HTTP client gets).
func TestContentMethodsCheckTheActor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, ":memory:")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	git := memgit.New()
	s, err := repos.New(repos.Config{Store: db.Repos(), Git: git})
	require.NoError(t, err)

	readUser, _ := forge.ParseScope("read:user")
	readRepo, _ := forge.ParseScope("read:repository")
	active := &forge.User{ID: 1, Name: "a", IsActive: true}
	for _, tt := range []struct {
		name  string
		actor forge.Actor
		write bool // only writes are refused
	}{
		{"inactive", forge.Actor{User: &forge.User{ID: 2, Name: "b"}}, false},
		{"must change password", forge.Actor{User: &forge.User{ID: 3, Name: "c", IsActive: true, MustChangePassword: true}}, false},
		{"read:user token", forge.Actor{User: active, Scoped: true, Scope: readUser}, false},
		{"read:repository token", forge.Actor{User: active, Scoped: true, Scope: readRepo}, true},
	} {
		a := tt.actor
		calls := map[string]func() error{
			"ChangeFiles": func() error {
				_, _, _, err := s.ChangeFiles(ctx, a, "o", "r", repos.ChangeFilesOptions{Files: []repos.FileChange{{Op: "create", Path: "x"}}})
				return err
			},
		}
		if !tt.write {
			calls["GetContents"] = func() error { _, _, err := s.GetContents(ctx, a, "o", "r", "x", ""); return err }
			calls["OpenRaw"] = func() error { _, _, _, err := s.OpenRaw(ctx, a, "o", "r", "x", ""); return err }
			calls["LastCommit"] = func() error { _, err := s.LastCommit(ctx, a, "o", "r", "", "x"); return err }
			calls["Commits"] = func() error { _, _, _, err := s.Commits(ctx, a, "o", "r", repos.LogOptions{}); return err }
			calls["Commit"] = func() error { _, _, err := s.Commit(ctx, a, "o", "r", "main", false); return err }
			calls["Refs"] = func() error { _, _, err := s.Refs(ctx, a, "o", "r"); return err }
			calls["Tree"] = func() error { _, _, _, err := s.Tree(ctx, a, "o", "r", "main", false); return err }
			calls["Blob"] = func() error { _, _, _, err := s.Blob(ctx, a, "o", "r", "00000000"); return err }
			calls["Archive"] = func() error { return s.Archive(ctx, a, "o", "r", "main", "zip", io.Discard) }
			calls["Patch"] = func() error { return s.Patch(ctx, a, "o", "r", "main", "diff", io.Discard) }
		}
		for name, call := range calls {
			err := call()
			assert.ErrorIs(t, err, forge.ErrForbidden, "%s: %s", tt.name, name)
			assert.False(t, errors.Is(err, forge.ErrNotFound), "%s: %s looked the repository up first", tt.name, name)
		}
	}
}
