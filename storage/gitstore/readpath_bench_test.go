package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// BenchmarkReadPath measures the options for the reads behind the API's
// hot git endpoints on a 1,000-commit repository of each format, in one
// run:
//
//   - cli: a git process per read (the path before; Options.CLIOnly),
//   - gogit: go-git in process (SHA-1 only; PlainOpen per read, as the
//     Store used it),
//   - catfile: refs from their files, objects through the cat-file pool,
//     no caches (Options.ReadCacheEntries < 0),
//   - cached: the default Store (catfile plus the caches by immutable id).
//
// The reads: contents (resolve main, the entry README, its blob), branch
// (resolve main, its head commit), commits (count and a page of 10 with
// stats).
//
//	go test ./storage/gitstore -run '^$' -bench BenchmarkReadPath
func BenchmarkReadPath(b *testing.B) {
	ctx := context.Background()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		dir := b.TempDir()
		cached, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cached.Close() })
		catfile, _ := OpenWith(dir, Options{ReadCacheEntries: -1})
		b.Cleanup(func() { catfile.Close() })
		cli, _ := OpenWith(dir, Options{CLIOnly: true})
		if err := cached.Create(ctx, 1, format, "main"); err != nil {
			b.Fatal(err)
		}
		benchHistory(b, cached.Path(1), 1000)
		stores := []struct {
			name string
			s    *Store
		}{{"cli", cli}, {"catfile", catfile}, {"cached", cached}}
		for _, st := range stores {
			s := st.s
			b.Run(fmt.Sprintf("%s/contents/%s", format, st.name), func(b *testing.B) {
				for b.Loop() {
					id, err := s.Resolve(ctx, 1, "refs/heads/main")
					if err != nil {
						b.Fatal(err)
					}
					e, err := s.Entry(ctx, 1, id, "README")
					if err != nil {
						b.Fatal(err)
					}
					if data, err := s.Blob(ctx, 1, e.ID); err != nil || len(data) == 0 {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/raw/%s", format, st.name), func(b *testing.B) {
				for b.Loop() {
					e, err := s.Entry(ctx, 1, "refs/heads/main", "README")
					if err != nil {
						b.Fatal(err)
					}
					r, _, err := s.OpenBlob(ctx, 1, e.ID)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, r)
					r.Close()
				}
			})
			b.Run(fmt.Sprintf("%s/branch/%s", format, st.name), func(b *testing.B) {
				for b.Loop() {
					if l, err := s.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 1}); err != nil || len(l) != 1 {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/commits/%s", format, st.name), func(b *testing.B) {
				for b.Loop() {
					id, err := s.Resolve(ctx, 1, "refs/heads/main")
					if err != nil {
						b.Fatal(err)
					}
					if n, err := s.CountCommits(ctx, 1, id, ""); err != nil || n != 1000 {
						b.Fatal(n, err)
					}
					if l, err := s.Log(ctx, 1, repos.LogOptions{Rev: id, Limit: 10, Files: true}); err != nil || len(l) != 10 {
						b.Fatal(err)
					}
				}
			})
		}
		if format != forge.SHA1 {
			continue
		}
		b.Run("sha1/contents/gogit", func(b *testing.B) {
			for b.Loop() {
				r := cached.open(1)
				ref, err := r.Reference("refs/heads/main", true)
				if err != nil {
					b.Fatal(err)
				}
				c, err := r.CommitObject(ref.Hash())
				if err != nil {
					b.Fatal(err)
				}
				root, err := c.Tree()
				if err != nil {
					b.Fatal(err)
				}
				e, err := root.FindEntry("README")
				if err != nil {
					b.Fatal(err)
				}
				if data, err := goBlob(r, e.Hash.String()); err != nil || len(data) == 0 {
					b.Fatal(err)
				}
			}
		})
		b.Run("sha1/branch/gogit", func(b *testing.B) {
			for b.Loop() {
				r := cached.open(1)
				ref, err := r.Reference("refs/heads/main", true)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.CommitObject(plumbing.NewHash(ref.Hash().String())); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchHistory writes n commits on main of the bare repository dir, each
// changing two of 50 files and README, with `git fast-import`.
func benchHistory(b *testing.B, dir string, n int) {
	var in bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\ndata <<EOM\ncommit %d\nEOM\n", i, 1700000000+i, i)
		if i > 1 {
			fmt.Fprintf(&in, "from :%d\n", i-1)
		}
		for f := range 2 {
			content := fmt.Sprintf("line a %d\nline b %d\nline c\n", i, f)
			fmt.Fprintf(&in, "M 100644 inline dir%d/file%d.txt\ndata %d\n%s\n", (i+f)%5, (i*7+f)%50, len(content), content)
		}
		readme := strings.Repeat(fmt.Sprintf("readme of commit %d\n", i), 40)
		fmt.Fprintf(&in, "M 100644 inline README\ndata %d\n%s\n", len(readme), readme)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v: %s", err, out)
	}
}

// BenchmarkCommitGraph: the reads that still run git on a cold cache (a
// count, the last commit of a path) on a 5,000-commit repository, without
// and with the commit-graph a push writes.
//
//	go test ./storage/gitstore -run '^$' -bench BenchmarkCommitGraph
func BenchmarkCommitGraph(b *testing.B) {
	ctx := context.Background()
	s, err := OpenWith(b.TempDir(), Options{CLIOnly: true}) // no caches: every read runs git
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Create(ctx, 1, forge.SHA1, "main"); err != nil {
		b.Fatal(err)
	}
	benchHistory(b, s.Path(1), 5000)
	for _, graph := range []bool{false, true} {
		if graph {
			s.writeCommitGraph(ctx, 1)
		}
		name := fmt.Sprintf("graph=%v", graph)
		b.Run(name+"/count", func(b *testing.B) {
			for b.Loop() {
				if n, err := s.CountCommits(ctx, 1, "refs/heads/main", ""); err != nil || n != 5000 {
					b.Fatal(n, err)
				}
			}
		})
		b.Run(name+"/last-commit-of-path", func(b *testing.B) {
			for b.Loop() {
				if l, err := s.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Path: "dir1/file7.txt", Limit: 1}); err != nil || len(l) != 1 {
					b.Fatal(err)
				}
			}
		})
	}
}
