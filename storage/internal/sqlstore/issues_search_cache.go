package sqlstore

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// An issue search reads, before its page, the repositories the actor may
// search (SearchableRepos) and the total of the matches (X-Total-Count):
// each is the same for every page of one search, and the total of a broad
// filter (a keyword a quarter of the issues hold) costs a read of every
// match. Both are kept in genCaches (viewcache.go), so that the next page,
// the same search again, or another user's search at the same write
// generation reads neither again: an entry is used only while no write of
// this process has ended since it was read, for at most maxTokenAge, and
// never when the database is shared by several servers.

// searchReposKey is everything SearchableRepos's answer depends on besides
// the stored rows: its statement's parameters.
type searchReposKey struct {
	uid, visible, owner                    forge.ID
	anon, admin, restricted, public, every bool
}

// searchReposEntry is SearchableRepos's answer. Callers get copies.
type searchReposEntry struct{ issues, pulls []forge.ID }

// maxSearchCached and maxSearchReposCached bound the search caches: a
// total is a few bytes, the repositories of a search one id per
// repository.
const (
	maxSearchCached      = 256
	maxSearchReposCached = 64
)

// totalKey is the key of a count statement with its arguments: a SHA-256
// of the text and of each argument with its type, so that no two
// statements or argument lists share a key (the id lists of a search run
// to thousands of bytes; the key stays 32).
func totalKey(query string, args []any) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	field := func(tag byte, b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write([]byte{tag})
		h.Write(n[:])
		h.Write(b)
	}
	field('q', []byte(query))
	for _, a := range args {
		switch v := a.(type) {
		case string:
			field('s', []byte(v))
		case int64:
			field('i', binary.LittleEndian.AppendUint64(nil, uint64(v)))
		case int:
			field('i', binary.LittleEndian.AppendUint64(nil, uint64(v)))
		case bool:
			b := byte(0)
			if v {
				b = 1
			}
			field('b', []byte{b})
		case float64:
			field('f', binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		default:
			field('?', fmt.Appendf(nil, "%T:%v", v, v))
		}
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// cloneIDs copies ids, never nil.
func cloneIDs(ids []forge.ID) []forge.ID {
	if ids == nil {
		return []forge.ID{}
	}
	return slices.Clone(ids)
}
