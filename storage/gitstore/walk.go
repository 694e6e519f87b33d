package gitstore

import (
	"bufio"
	"context"
	"io"
	"iter"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// WalkTree streams `git ls-tree -l -z [-r -t] <tree>`: one process, one
// pass, no object lookup per entry (go-git would read every blob's header
// to learn its size), and nothing kept but the entry being yielded.
func (s *Store) WalkTree(ctx context.Context, repo forge.ID, tree string, recursive bool) iter.Seq2[repos.TreeEntry, error] {
	return func(yield func(repos.TreeEntry, error) bool) {
		notFound := forge.Errorf(forge.ErrNotFound, "tree does not exist [id: %s]", tree)
		if !isHex(tree) || (len(tree) != 40 && len(tree) != 64) {
			yield(repos.TreeEntry{}, notFound)
			return
		}
		if _, err := os.Stat(s.Path(repo)); err != nil {
			yield(repos.TreeEntry{}, forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo))
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		args := []string{"ls-tree", "-l", "-z"}
		if recursive {
			args = append(args, "-r", "-t")
		}
		c := s.cmd(ctx, repo, nil, append(args, "--end-of-options", tree)...)
		stderr := &limitedBuffer{}
		c.Stderr = stderr
		out, err := c.StdoutPipe()
		if err != nil {
			yield(repos.TreeEntry{}, err)
			return
		}
		if err := c.Start(); err != nil {
			yield(repos.TreeEntry{}, err)
			return
		}
		r := bufio.NewReaderSize(out, 64<<10)
		stopped := false
		for {
			rec, err := r.ReadSlice(0)
			if err == bufio.ErrBufferFull {
				// A record longer than the buffer (a very long path).
				more, err2 := r.ReadString(0)
				rec, err = append(append([]byte{}, rec...), more...), err2
			}
			if len(rec) > 0 && err == nil {
				if e, ok := parseLsTreeRecord(string(rec[:len(rec)-1])); ok && !yield(e, nil) {
					stopped = true
					break
				}
			}
			if err != nil {
				break
			}
		}
		if stopped {
			cancel()
		}
		io.Copy(io.Discard, out)
		werr := c.Wait()
		if stopped {
			return
		}
		if werr != nil {
			if ctx.Err() != nil {
				yield(repos.TreeEntry{}, ctx.Err())
				return
			}
			if strings.Contains(stderr.String(), "not a tree object") || strings.Contains(stderr.String(), "Not a valid object name") {
				yield(repos.TreeEntry{}, notFound)
				return
			}
			yield(repos.TreeEntry{}, &gitError{args: args, err: werr, stderr: stderr.String()})
		}
	}
}

// parseLsTreeRecord reads one `git ls-tree -l -z` record: "<mode> <type>
// <id> <size>\t<path>".
func parseLsTreeRecord(rec string) (repos.TreeEntry, bool) {
	meta, name, ok := strings.Cut(rec, "\t")
	if !ok {
		return repos.TreeEntry{}, false
	}
	f := strings.Fields(meta)
	if len(f) != 4 {
		return repos.TreeEntry{}, false
	}
	size, _ := strconv.ParseInt(f[3], 10, 64)
	return repos.TreeEntry{Path: name, Name: path.Base(name), Mode: f[0], Type: f[1], ID: f[2], Size: size}, true
}

// Languages is repos.LanguageStats of the recursive listing of tree, from
// one WalkTree stream, cached per repository and tree id (a tree never
// changes) in an LRU of Options.LanguageCacheEntries.
func (s *Store) Languages(ctx context.Context, repo forge.ID, tree string) (map[string]int64, error) {
	key := strconv.FormatInt(repo, 10) + ":" + tree
	if v, ok := s.langs.get(key); ok {
		return copyStats(v), nil
	}
	stats, err := repos.LanguageStats(s.WalkTree(ctx, repo, tree, true))
	if err != nil {
		return nil, err
	}
	s.langs.put(key, stats)
	return copyStats(stats), nil
}

// copyStats returns a copy the caller may change without touching the
// cache.
func copyStats(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
