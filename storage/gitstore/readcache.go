package gitstore

import (
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// DefaultReadCacheEntries bounds each cache of readCache.
const DefaultReadCacheEntries = 4096

// readCache holds what git reads return for immutable ids, so a warm read
// asks git nothing. Every key starts with the repository and a full object
// id (a commit id names the same commit, tree and history forever; what a
// branch or tag points at is never cached, but read from the repository on
// every request), so nothing needs invalidating: a force push or a
// deleted repository changes which ids are asked for, never what an id
// means. Each cache is an LRU of Options.ReadCacheEntries.
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

func newReadCache(n int) *readCache {
	return &readCache{commits: newLRU[*repos.Commit](n), stats: newLRU[[]repos.FileChangeStat](n),
		logs: newLRU[[]string](n), counts: newLRU[int](n), entries: newLRU[repos.TreeEntry](n),
		peeled: newLRU[string](n), lastCommits: newLRU[map[string]string](n),
		trees: newLRU[[]repos.TreeEntry](n)}
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
