package gitstore_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/gitstore"
)

// gitIn runs git in dir with stdin and returns its trimmed output.
func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// oddHistory fills repository 1 of s with commits the Go parser must read
// as git log does: time zones east and west, a merge, a message without a
// final newline, an empty message, a signature header, an explicit UTF-8
// encoding, a name with spaces; an executable file, a symlink, nested
// directories; a lightweight and an annotated tag, nested tags; some refs
// packed, some loose.
func oddHistory(t *testing.T, s *gitstore.Store) {
	dir := s.Path(1)
	blob := gitIn(t, dir, "hello\n", "hash-object", "-w", "--stdin")
	script := gitIn(t, dir, "#!/bin/sh\necho hi\n", "hash-object", "-w", "--stdin")
	link := gitIn(t, dir, "README", "hash-object", "-w", "--stdin")
	sub := gitIn(t, dir, fmt.Sprintf("100644 blob %s\tdeep.txt\n", blob), "mktree")
	mid := gitIn(t, dir, fmt.Sprintf("040000 tree %s\tsub\n100644 blob %s\tf.txt\n", sub, blob), "mktree")
	root := gitIn(t, dir, fmt.Sprintf("100644 blob %s\tREADME\n100755 blob %s\trun.sh\n120000 blob %s\tlink\n040000 tree %s\tdir\n",
		blob, script, link, mid), "mktree")
	commit := func(body string) string {
		return gitIn(t, dir, body, "hash-object", "-t", "commit", "-w", "--stdin")
	}
	c1 := commit(fmt.Sprintf("tree %s\nauthor Ann Lee <ann@example.com> 1700000000 +0530\ncommitter Bob <bob@example.com> 1700000100 -0700\n\nfirst\n\nbody line\n", root))
	c2 := commit(fmt.Sprintf("tree %s\nparent %s\nauthor  <> 1700000200 +0000\ncommitter Bob <bob@example.com> 1700000300 +0000\nencoding UTF-8\n\nno final newline", root, c1))
	c3 := commit(fmt.Sprintf("tree %s\nparent %s\nauthor Ann <ann@example.com> 1700000400 -1230\ncommitter Bob <bob@example.com> 1700000500 +1400\ngpgsig -----BEGIN PGP SIGNATURE-----\n iQEz\n -----END PGP SIGNATURE-----\n\n", root, c1))
	merge := commit(fmt.Sprintf("tree %s\nparent %s\nparent %s\nauthor Ann <ann@example.com> 1700000600 +0100\ncommitter Bob <bob@example.com> 1700000700 +0100\n\nMerge\n", root, c2, c3))
	gitIn(t, dir, "", "update-ref", "refs/heads/main", merge)
	gitIn(t, dir, "", "update-ref", "refs/heads/side", c3)
	gitIn(t, dir, "", "update-ref", "refs/heads/nested/deep", c2)
	gitIn(t, dir, "", "update-ref", "refs/tags/light", c1)
	tag := gitIn(t, dir, fmt.Sprintf("object %s\ntype commit\ntag v1\ntagger Ann <ann@example.com> 1700000800 +0000\n\nrelease\n", c3), "mktag")
	gitIn(t, dir, "", "update-ref", "refs/tags/v1", tag)
	tag2 := gitIn(t, dir, fmt.Sprintf("object %s\ntype tag\ntag v1b\ntagger Ann <ann@example.com> 1700000900 +0000\n\nof a tag\n", tag), "mktag")
	gitIn(t, dir, "", "update-ref", "refs/tags/v1b", tag2)
	gitIn(t, dir, "", "pack-refs", "--all")
	gitIn(t, dir, "", "update-ref", "refs/heads/loose", c1) // loose, next to packed ones
	gitIn(t, dir, "", "update-ref", "refs/heads/side", c2)  // loose, shadowing its packed value
}

// TestReadPathMatchesCLI reads the same repository through the in-process
// path (refs from files, objects through cat-file, parsed in Go) and
// through a git process per read, and requires the same answers, SHA-1 and
// SHA-256.
func TestReadPathMatchesCLI(t *testing.T) {
	t.Parallel()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			fast, err := gitstore.Open(dir)
			require.NoError(t, err)
			t.Cleanup(func() { fast.Close() })
			cli, err := gitstore.OpenWith(dir, gitstore.Options{CLIOnly: true})
			require.NoError(t, err)
			require.NoError(t, fast.Create(ctx, 1, format, "main"))
			oddHistory(t, fast)

			refs, err := cli.Refs(ctx, 1)
			require.NoError(t, err)
			got, err := fast.Refs(ctx, 1)
			require.NoError(t, err)
			assert.Equal(t, refs, got)
			require.Len(t, refs, 7)

			for _, rev := range []string{"refs/heads/main", "refs/heads/side", "refs/heads/loose", "refs/heads/nested/deep",
				"refs/tags/light", "refs/tags/v1", "refs/tags/v1b", "refs/heads/none", "refs/heads/../config", refs[0].Commit,
				strings.Repeat("0", len(refs[0].Commit)), refs[5].Target} {
				want, werr := cli.Resolve(ctx, 1, rev)
				got, gerr := fast.Resolve(ctx, 1, rev)
				assert.Equal(t, want, got, rev)
				assert.Equal(t, werr == nil, gerr == nil, "%s: %v %v", rev, werr, gerr)
				if werr == nil {
					for _, o := range []repos.LogOptions{{Rev: rev, Limit: 1}, {Rev: rev, Limit: 10, Files: true},
						{Rev: rev, Limit: 2, Skip: 1}, {Rev: rev, Limit: 1, Path: "dir/f.txt"}} {
						want, _ := cli.Log(ctx, 1, o)
						for range 2 { // cold, then warm
							got, err := fast.Log(ctx, 1, o)
							require.NoError(t, err)
							assert.Equal(t, want, got, "%+v", o)
						}
					}
					wn, _ := cli.CountCommits(ctx, 1, rev, "")
					gn, _ := fast.CountCommits(ctx, 1, rev, "")
					assert.Equal(t, wn, gn)
				}
			}
			for _, p := range []string{"", "README", "run.sh", "link", "dir", "dir/f.txt", "dir/sub", "dir/sub/deep.txt",
				"missing", "dir/missing", "README/x", "dir/sub/deep.txt/x"} {
				want, werr := cli.Entry(ctx, 1, "refs/heads/main", p)
				got, gerr := fast.Entry(ctx, 1, "refs/heads/main", p)
				assert.Equal(t, want, got, p)
				assert.Equal(t, werr == nil, gerr == nil, "%s: %v %v", p, werr, gerr)
				if werr == nil && want.Type == "blob" {
					wb, _ := cli.Blob(ctx, 1, want.ID)
					gb, err := fast.Blob(ctx, 1, want.ID)
					require.NoError(t, err)
					assert.Equal(t, wb, gb)
					r, size, err := fast.OpenBlob(ctx, 1, want.ID)
					require.NoError(t, err)
					data, _ := io.ReadAll(r)
					r.Close()
					assert.Equal(t, wb, data)
					assert.Equal(t, int64(len(wb)), size)
					typ, n, err := fast.Object(ctx, 1, want.ID)
					require.NoError(t, err)
					assert.Equal(t, "blob", typ)
					assert.Equal(t, size, n)
				}
			}
			root, err := cli.Entry(ctx, 1, "refs/heads/main", "")
			require.NoError(t, err)
			for _, q := range [][2]string{{"refs/heads/main", ""}, {"refs/heads/main", "dir"}, {"refs/heads/main", "/dir/sub/"},
				{"refs/heads/main", "README"}, {"refs/heads/main", "missing"}, {"refs/heads/none", ""}, {root.ID, ""},
				{root.ID, "dir"}, {refs[0].Commit, "dir"}} {
				want, werr := cli.Tree(ctx, 1, q[0], q[1], false)
				for range 2 { // cold, then warm
					got, gerr := fast.Tree(ctx, 1, q[0], q[1], false)
					assert.Equal(t, want, got, "%q", q)
					assert.Equal(t, werr == nil, gerr == nil, "%q: %v %v", q, werr, gerr)
				}
			}
			_, err = fast.Blob(ctx, 1, refs[0].Commit)
			assert.ErrorIs(t, err, forge.ErrNotFound, "a commit is no blob")
			_, _, err = fast.Object(ctx, 1, strings.Repeat("0", len(refs[0].Commit)))
			assert.ErrorIs(t, err, forge.ErrNotFound)
		})
	}
}

// TestReadPathSeesRewrites: a force push, a deleted branch, packed refs
// rewritten, and a repository removed and created again under the same id
// are all seen by the next read (ids are cached, never what refs point
// at).
func TestReadPathSeesRewrites(t *testing.T) {
	t.Parallel()
	for _, format := range []forge.ObjectFormat{forge.SHA1, forge.SHA256} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, err := gitstore.Open(t.TempDir())
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			write := func(content, msg string) *repos.Commit {
				c, err := s.Apply(ctx, 1, repos.ChangeSet{Branch: "main", Message: msg, Author: sig, Committer: sig,
					Files: []repos.FileOp{{Op: "create", Path: "f" + msg, Content: []byte(content)}}})
				require.NoError(t, err)
				return c
			}
			require.NoError(t, s.Create(ctx, 1, format, "main"))
			first, err := s.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "one", Author: sig, Committer: sig,
				Files: []repos.FileOp{{Op: "create", Path: "README", Content: []byte("one\n")}}})
			require.NoError(t, err)
			second := write("two\n", "two")
			log, err := s.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 10})
			require.NoError(t, err)
			require.Len(t, log, 2)

			// Force push main back to first.
			require.NoError(t, s.SetRef(ctx, 1, "refs/heads/main", first.ID, second.ID))
			id, err := s.Resolve(ctx, 1, "refs/heads/main")
			require.NoError(t, err)
			assert.Equal(t, first.ID, id)
			log, err = s.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 10})
			require.NoError(t, err)
			assert.Len(t, log, 1)

			// Packed, then moved by a loose ref, then deleted.
			gitIn(t, s.Path(1), "", "pack-refs", "--all")
			id, err = s.Resolve(ctx, 1, "refs/heads/main")
			require.NoError(t, err)
			assert.Equal(t, first.ID, id)
			require.NoError(t, s.SetRef(ctx, 1, "refs/heads/main", second.ID, first.ID))
			id, err = s.Resolve(ctx, 1, "refs/heads/main")
			require.NoError(t, err)
			assert.Equal(t, second.ID, id)
			require.NoError(t, s.SetRef(ctx, 1, "refs/heads/main", "", second.ID))
			_, err = s.Resolve(ctx, 1, "refs/heads/main")
			assert.ErrorIs(t, err, forge.ErrNotFound)
			refs, err := s.Refs(ctx, 1)
			require.NoError(t, err)
			assert.Empty(t, refs)

			// Removed and created again under the same id.
			require.NoError(t, s.Remove(ctx, 1))
			_, err = s.Resolve(ctx, 1, "refs/heads/main")
			assert.ErrorIs(t, err, forge.ErrNotFound)
			_, err = s.Entry(ctx, 1, first.ID, "README")
			assert.ErrorIs(t, err, forge.ErrNotFound)
			require.NoError(t, s.Create(ctx, 1, format, "main"))
			again, err := s.Apply(ctx, 1, repos.ChangeSet{NewBranch: "main", Message: "again", Author: sig, Committer: sig,
				Files: []repos.FileOp{{Op: "create", Path: "README", Content: []byte("again\n")}}})
			require.NoError(t, err)
			e, err := s.Entry(ctx, 1, "refs/heads/main", "README")
			require.NoError(t, err)
			b, err := s.Blob(ctx, 1, e.ID)
			require.NoError(t, err)
			assert.Equal(t, "again\n", string(b))
			log, err = s.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 10})
			require.NoError(t, err)
			require.Len(t, log, 1)
			assert.Equal(t, again.ID, log[0].ID)
		})
	}
}

// TestCatFilePoolBounds: reads of many repositories at once never keep
// more cat-file processes than MaxCatFiles; idle ones end after
// CatFileIdle; Close ends them all and later reads fail.
func TestCatFilePoolBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := gitstore.OpenWith(t.TempDir(), gitstore.Options{MaxCatFiles: 2, CatFileIdle: 200 * time.Millisecond})
	require.NoError(t, err)
	const n = 6
	for i := range forge.ID(n) {
		require.NoError(t, s.Create(ctx, i+1, forge.SHA256, "main"))
		_, err := s.Apply(ctx, i+1, repos.ChangeSet{NewBranch: "main", Message: "m", Author: sig, Committer: sig,
			Files: []repos.FileOp{{Op: "create", Path: "README", Content: []byte(fmt.Sprint(i))}}})
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	most := 0
	for w := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				repo := forge.ID((w+k)%n + 1)
				e, err := s.Entry(ctx, repo, "refs/heads/main", "README")
				if !assert.NoError(t, err) {
					return
				}
				b, err := s.Blob(ctx, repo, e.ID)
				assert.NoError(t, err)
				assert.Equal(t, fmt.Sprint(repo-1), string(b))
				mu.Lock()
				most = max(most, s.CatFiles())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, most, 2)
	assert.Positive(t, s.CatFiles())

	// Idle processes end by themselves.
	deadline := time.Now().Add(10 * time.Second)
	for s.CatFiles() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // polling a condition with a deadline
	}
	assert.Zero(t, s.CatFiles(), "idle cat-file processes were not reaped")

	_, err = s.Entry(ctx, 1, "refs/heads/main", "README")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Zero(t, s.CatFiles())
	_, err = s.Blob(ctx, 1, strings.Repeat("a", 64))
	assert.Error(t, err, "reads after Close")
}

// TestReadPathLargeObjects: a ref naming a large blob, and a commit larger
// than the parser reads into memory, are answered as git answers them (the
// blob is never read to learn its type; the commit is left to git log).
func TestReadPathLargeObjects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	fast, err := gitstore.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { fast.Close() })
	cli, err := gitstore.OpenWith(dir, gitstore.Options{CLIOnly: true})
	require.NoError(t, err)
	require.NoError(t, fast.Create(ctx, 1, forge.SHA1, "main"))
	repo := fast.Path(1)
	big := gitIn(t, repo, strings.Repeat("0123456789abcdef", 2<<20), "hash-object", "-w", "--stdin") // 32 MiB
	tree := gitIn(t, repo, "", "mktree")
	huge := gitIn(t, repo, fmt.Sprintf("tree %s\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\n%s\n",
		tree, strings.Repeat("long message ", 1<<21)), "hash-object", "-t", "commit", "-w", "--stdin") // 26 MiB
	gitIn(t, repo, "", "update-ref", "refs/tags/blob", big)
	gitIn(t, repo, "", "update-ref", "refs/heads/main", huge)

	want, err := cli.Refs(ctx, 1)
	require.NoError(t, err)
	got, err := fast.Refs(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	_, err = fast.Resolve(ctx, 1, "refs/tags/blob")
	assert.ErrorIs(t, err, forge.ErrNotFound)
	wl, err := cli.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 1})
	require.NoError(t, err)
	gl, err := fast.Log(ctx, 1, repos.LogOptions{Rev: "refs/heads/main", Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, wl, gl)
	r, size, err := fast.OpenBlob(ctx, 1, big)
	require.NoError(t, err)
	n, _ := io.Copy(io.Discard, r)
	r.Close()
	assert.Equal(t, int64(32<<20), size)
	assert.Equal(t, size, n)
}
