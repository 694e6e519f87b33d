package auth_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
)

// BenchmarkAuthenticateToken measures one request's token authentication on
// a SQLite file database: one SHA-256 and one indexed lookup, no KDF. The
// target is under 20 µs per request.
func BenchmarkAuthenticateToken(b *testing.B) {
	ctx := context.Background()
	f := newFixture(b, filepath.Join(b.TempDir(), "hearth.db"))
	tok, err := f.svc.CreateToken(ctx, f.root, "root", auth.CreateTokenOptions{Name: "bench", Scopes: []string{"all"}})
	require.NoError(b, err)
	cr := auth.Credentials{Token: tok.Token}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.svc.Authenticate(ctx, cr); err != nil {
			b.Fatal(err)
		}
	}
}
