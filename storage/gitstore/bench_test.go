package gitstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// fastImport fills repository 1 of s with n commits on main, each changing
// two of 50 files, through `git fast-import`.
func fastImport(b *testing.B, s *gitstore.Store, n int) {
	var in bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\ndata <<EOM\ncommit %d\nEOM\n", i, 1700000000+i, i)
		if i > 1 {
			fmt.Fprintf(&in, "from :%d\n", i-1)
		}
		for f := 0; f < 2; f++ {
			content := fmt.Sprintf("line a %d\nline b %d\nline c\n", i, f)
			fmt.Fprintf(&in, "M 100644 inline dir%d/file%d.txt\ndata %d\n%s\n", (i+f)%5, (i*7+f)%50, len(content), content)
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = s.Path(1)
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v: %s", err, out)
	}
}

// BenchmarkLogWithStats lists 100 commits with their files and line stats
// from a 10,000-commit repository: Hearth's Log against the bare
// `git log --numstat` it is built on, in the same run.
func BenchmarkLogWithStats(b *testing.B) {
	ctx := context.Background()
	s, err := gitstore.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Create(ctx, 1, forge.SHA1, "main"); err != nil {
		b.Fatal(err)
	}
	fastImport(b, s, 10000)
	b.Run("gitstore.Log", func(b *testing.B) {
		for b.Loop() {
			list, err := s.Log(ctx, 1, repos.LogOptions{Rev: "main", Skip: 5000, Limit: 100, Files: true})
			if err != nil || len(list) != 100 || len(list[0].Files) == 0 {
				b.Fatalf("%v %d", err, len(list))
			}
		}
	})
	b.Run("git-log-numstat", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "log", "--skip=5000", "-n", "100", "--numstat", "main")
			cmd.Dir = s.Path(1)
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReads compares the in-process path (refs from files, the
// cat-file pool, the caches; go-git before) and the git command line on the
// reads the API makes most (refs, a directory listing, a file's entry, a
// blob) of a SHA-1 repository with 200 files, by full ref names as
// repos.ResolveRef gives them (a short name like "main" is left to git).
func BenchmarkReads(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	gg, err := gitstore.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	cli, _ := gitstore.OpenWith(dir, gitstore.Options{CLIOnly: true})
	if err := gg.Create(ctx, 1, forge.SHA1, "main"); err != nil {
		b.Fatal(err)
	}
	var files []repos.FileOp
	for i := range 200 {
		files = append(files, repos.FileOp{Op: "create", Path: fmt.Sprintf("dir%d/file%d.txt", i%10, i), Content: bytes.Repeat([]byte("x"), 1000+i)})
	}
	c, err := gg.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "m", Author: sig, Committer: sig, Files: files})
	if err != nil {
		b.Fatal(err)
	}
	e, _ := gg.Entry(ctx, 1, c.ID, "dir3/file13.txt")
	for _, impl := range []struct {
		name string
		s    *gitstore.Store
	}{{"inproc", gg}, {"cli", cli}} {
		s := impl.s
		b.Run("Refs/"+impl.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Refs(ctx, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Tree/"+impl.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Tree(ctx, 1, "refs/heads/main", "dir3", false); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Entry/"+impl.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Entry(ctx, 1, "refs/heads/main", "dir3/file13.txt"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Blob/"+impl.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Blob(ctx, 1, e.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDirectoryLastCommits lists the last commit of each of the 1,500
// entries of a directory (300 commits of 5 files each): one `git log` per
// entry (before) against one LastCommits walk (after).
func BenchmarkDirectoryLastCommits(b *testing.B) {
	ctx := context.Background()
	s, err := gitstore.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Create(ctx, 1, forge.SHA1, "main"); err != nil {
		b.Fatal(err)
	}
	var in bytes.Buffer
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\ndata 2\nc\n", i, 1700000000+i)
		if i > 1 {
			fmt.Fprintf(&in, "from :%d\n", i-1)
		}
		for f := range 5 {
			fmt.Fprintf(&in, "M 100644 inline big/file%04d.txt\ndata 2\n%d\n", (i-1)*5+f, f)
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = s.Path(1)
	cmd.Stdin = &in
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v: %s", err, out)
	}
	entries, err := s.Tree(ctx, 1, "main", "big", false)
	if err != nil || len(entries) != 1500 {
		b.Fatalf("%v %d", err, len(entries))
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	b.Run("per-entry-log", func(b *testing.B) {
		for b.Loop() {
			for _, e := range entries {
				if log, err := s.Log(ctx, 1, repos.LogOptions{Rev: "main", Path: e.Path, Limit: 1}); err != nil || len(log) != 1 {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("LastCommits", func(b *testing.B) {
		for b.Loop() {
			if m, err := s.LastCommits(ctx, 1, "main", "big", names); err != nil || len(m) != 1500 {
				b.Fatalf("%v %d", err, len(m))
			}
		}
	})
}
