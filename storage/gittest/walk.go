package gittest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// testWalkTree: WalkTree lists a tree id as Tree does (relative paths),
// stops when the loop does, and ends with forge.ErrNotFound for an unknown
// id; Languages sums blob sizes per language over the same listing.
func testWalkTree(t *testing.T, e *env) {
	h := e.history(1)
	all, err := e.g.Tree(e.ctx, 1, h.c3.ID, "", true)
	require.NoError(t, err)
	var walked []repos.TreeEntry
	for en, err := range e.g.WalkTree(e.ctx, 1, h.c3.Tree, true) {
		require.NoError(t, err)
		walked = append(walked, en)
	}
	assert.Equal(t, all, walked)
	top, err := e.g.Tree(e.ctx, 1, h.c3.ID, "", false)
	require.NoError(t, err)
	var first []repos.TreeEntry
	for en, err := range e.g.WalkTree(e.ctx, 1, h.c3.Tree, false) {
		require.NoError(t, err)
		first = append(first, en)
		if len(first) == 2 {
			break
		}
	}
	assert.Equal(t, top[:2], first)
	var sub []repos.TreeEntry
	for en, err := range e.g.WalkTree(e.ctx, 1, all[3].ID, true) { // src
		require.NoError(t, err)
		sub = append(sub, en)
	}
	assert.Equal(t, []entryKey{{"lib", "lib", "040000", "tree"}, {"lib/b.go", "b.go", "100644", "blob"}}, keys(sub))

	notTree := all[5].ID // a blob
	var errs []error
	for _, err := range e.g.WalkTree(e.ctx, 1, notTree, true) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], forge.ErrNotFound)
	for _, err := range e.g.WalkTree(e.ctx, 1, "nope", true) {
		assert.ErrorIs(t, err, forge.ErrNotFound)
	}

	for range 2 { // the second may come from a cache
		langs, err := e.g.Languages(e.ctx, 1, h.c3.Tree)
		require.NoError(t, err)
		assert.Equal(t, map[string]int64{"Go": int64(len("package lib\n\nfunc B() {}\n"))}, langs)
		langs["Go"] = 0 // the caller's copy
	}
	_, err = e.g.Languages(e.ctx, 1, all[5].ID)
	assert.ErrorIs(t, err, forge.ErrNotFound)
}
