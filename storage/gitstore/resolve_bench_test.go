package gitstore

import (
	"context"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// BenchmarkResolveRef: what a ref read pays to resolve "main" the way
// Forgejo's API does (branch, then tag, then id), in process (ref files and the cat-file pool; go-git before) and
// with the git command line.
func BenchmarkResolveRef(b *testing.B) {
	for _, cli := range []bool{false, true} {
		name := "inproc"
		if cli {
			name = "cli"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			s, err := OpenWith(b.TempDir(), Options{CLIOnly: cli})
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Create(ctx, 1, forge.SHA1, "main"); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "x",
				Author: repos.Signature{Name: "a", Email: "a@x"}, Committer: repos.Signature{Name: "a", Email: "a@x"},
				Files: []repos.FileOp{{Op: "create", Path: "a", Content: []byte("a")}}}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := repos.ResolveRef(ctx, s, 1, "main", false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
