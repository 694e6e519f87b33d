package gitstore

import (
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Defaults of the read caches.
const (
	// DefaultReadCacheEntries bounds the entries of each read cache.
	DefaultReadCacheEntries = 4096
	// DefaultReadCacheBytes bounds the estimated bytes of all read caches
	// together.
	DefaultReadCacheBytes = 32 << 20
)

// readCache holds what git reads return for immutable ids, so a warm read
// asks git nothing. Every key starts with the repository and a full object
// id (a commit id names the same commit, tree and history forever; what a
// branch or tag points at is never cached, but read from the repository on
// every request), so nothing needs invalidating: a force push or a
// deleted repository changes which ids are asked for, never what an id
// means. Each cache is an LRU of Options.ReadCacheEntries entries, and
// all of them together hold about Options.ReadCacheBytes (a commit message,
// a commit's file list or a directory too large for its share is not
// kept).
type readCache struct {
	// commits: repo:commit → the commit, without files (never modified:
	// Log hands out copies).
	commits *lru[*repos.Commit]
	// stats: repo:commit → its files and line counts (git log --numstat).
	stats *lru[[]repos.FileChangeStat]
	// logs: repo:commit\0path\0skip\0limit → the ids Log lists.
	logs *lru[[]string]
	// counts: repo:commit\0path → CountCommits.
	counts *lru[int]
	// entries: repo:commit\0path → Entry.
	entries *lru[repos.TreeEntry]
	// peeled: repo:object → the commit it peels to.
	peeled *lru[string]
	// lastCommits: repo:commit\0dir\0names → LastCommits.
	lastCommits *lru[map[string]string]
	// trees: repo:tree → its entries (paths relative to it).
	trees *lru[[]repos.TreeEntry]
}

func newReadCache(n int, bytes int64) *readCache {
	return &readCache{
		commits:     newCostLRU[*repos.Commit](n, bytes/4),
		stats:       newCostLRU[[]repos.FileChangeStat](n, bytes/4),
		trees:       newCostLRU[[]repos.TreeEntry](n, bytes/8),
		lastCommits: newCostLRU[map[string]string](n, bytes/8),
		logs:        newCostLRU[[]string](n, bytes/16),
		entries:     newCostLRU[repos.TreeEntry](n, bytes/16),
		counts:      newCostLRU[int](n, bytes/16),
		peeled:      newCostLRU[string](n, bytes/16),
	}
}

// commitCost estimates the bytes of a cached commit.
func commitCost(c *repos.Commit) int64 {
	return int64(len(c.ID)+len(c.Tree)+len(c.Message)+len(c.Author.Name)+len(c.Author.Email)+
		len(c.Committer.Name)+len(c.Committer.Email)) + int64(len(c.Parents))*80 + 200
}

// statsCost estimates the bytes of a cached file list.
func statsCost(files []repos.FileChangeStat) int64 {
	n := int64(24)
	for _, f := range files {
		n += int64(len(f.Filename)+len(f.Status)) + 48
	}
	return n
}

// entriesCost estimates the bytes of a cached directory listing.
func entriesCost(entries []repos.TreeEntry) int64 {
	n := int64(24)
	for _, e := range entries {
		n += int64(len(e.Path)+len(e.Name)+len(e.Mode)+len(e.Type)+len(e.ID)) + 96
	}
	return n
}

// namesCost estimates the bytes of a cached map of names to ids.
func namesCost(m map[string]string) int64 {
	n := int64(48)
	for k, v := range m {
		n += int64(len(k)+len(v)) + 48
	}
	return n
}

// cacheKey is the key prefix of an object of a repository.
func cacheKey(repo forge.ID, oid string) string {
	return strconv.FormatInt(repo, 10) + ":" + oid
}

// copyCommit returns c with its own Parents and Files, for a caller that
// may change them.
func copyCommit(c *repos.Commit, files []repos.FileChangeStat) *repos.Commit {
	out := *c
	out.Parents = append([]string{}, c.Parents...)
	out.Files = nil
	if files != nil {
		out.Files = append([]repos.FileChangeStat{}, files...)
	}
	return &out
}
