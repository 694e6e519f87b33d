package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// plainStore hides the store's optional methods (repos.Generations): the
// service then reads without its view cache.
type plainStore struct{ repos.Store }

// BenchmarkGetRepo measures what GET /repos/{owner}/{repo} asks of the
// repository service on a SQLite file database, for a token actor:
// two-transactions is Get then RelatedOf (before GetRelated), one-transaction
// is GetRelated without its cache, cached is GetRelated as served.
//
//	go test ./storage/sqlite -run '^$' -bench BenchmarkGetRepo
func BenchmarkGetRepo(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "hearth.db"))
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	authSvc, err := auth.New(auth.Config{Store: db.Auth(), Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}})
	require.NoError(b, err)
	no := false
	_, err = authSvc.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "rootpassword", MustChangePassword: &no})
	require.NoError(b, err)
	root, err := authSvc.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "rootpassword"})
	require.NoError(b, err)
	tok, err := authSvc.CreateToken(ctx, root, "root", auth.CreateTokenOptions{Name: "bench", Scopes: []string{"all"}})
	require.NoError(b, err)
	actor, err := authSvc.Authenticate(ctx, auth.Credentials{Token: tok.Token})
	require.NoError(b, err)
	git, err := gitstore.Open(b.TempDir())
	require.NoError(b, err)
	b.Cleanup(func() { git.Close() })
	cached, err := repos.New(repos.Config{Store: db.Repos(), Git: git})
	require.NoError(b, err)
	_, err = cached.Create(ctx, actor, "root", repos.CreateOptions{Name: "bench"})
	require.NoError(b, err)
	uncached, err := repos.New(repos.Config{Store: plainStore{db.Repos()}, Git: git})
	require.NoError(b, err)

	b.Run("two-transactions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := uncached.Get(ctx, actor, "root", "bench")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := uncached.RelatedOf(ctx, actor, []forge.ID{v.Repo.ID}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for name, svc := range map[string]*repos.Service{"one-transaction": uncached, "cached": cached} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := svc.GetRelated(ctx, actor, "root", "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
