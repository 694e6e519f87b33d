package httpapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

const (
	testAPI  = "http://h/api/v1/repos/o/r"
	testHTML = "http://h/o/r"
)

// asJSON is v marshalled and read back as generic JSON.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// TestToContents: the converter's type, nullable fields and links per kind
// of tree entry, and last_commit_when as given.
func TestToContents(t *testing.T) {
	t.Parallel()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		entry    repos.TreeEntry
		content  []byte
		typ      string
		download bool
		target   any
		encoding any
	}{
		{"file without content", repos.TreeEntry{Path: "a/b.txt", Mode: "100644", Type: "blob", ID: "f1", Size: 3}, nil, "file", true, nil, nil},
		{"file with content", repos.TreeEntry{Path: "b.txt", Mode: "100644", Type: "blob", ID: "f2", Size: 3}, []byte("hi\n"), "file", true, nil, "base64"},
		{"symlink", repos.TreeEntry{Path: "l", Mode: "120000", Type: "blob", ID: "s1", Size: 3}, []byte("b.txt"), "symlink", true, "b.txt", "base64"},
		{"directory", repos.TreeEntry{Path: "a", Mode: "040000", Type: "tree", ID: "t1"}, nil, "dir", false, nil, nil},
		{"submodule", repos.TreeEntry{Path: "m", Mode: "160000", Type: "commit", ID: "c1"}, nil, "submodule", false, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := asJSON(t, toContents(testAPI, testHTML, "main", &tt.entry, tt.content, "last", when))
			assert.Equal(t, tt.typ, got["type"])
			assert.Equal(t, "last", got["last_commit_sha"])
			assert.Equal(t, "2024-01-02T03:04:05Z", got["last_commit_when"])
			assert.Equal(t, tt.target, got["target"])
			assert.Equal(t, tt.encoding, got["encoding"])
			assert.Contains(t, got, "submodule_git_url")
			assert.Nil(t, got["submodule_git_url"])
			if tt.download {
				assert.Equal(t, testHTML+"/raw/branch/main/"+tt.entry.Path, got["download_url"])
			} else {
				assert.Nil(t, got["download_url"])
			}
			links := got["_links"].(map[string]any)
			assert.Equal(t, got["url"], links["self"])
			assert.Equal(t, got["git_url"], links["git"])
			assert.Equal(t, got["html_url"], links["html"])
		})
	}
}

// TestToCommit: files and stats only when asked and known; parents never
// null; author and committer accounts null.
func TestToCommit(t *testing.T) {
	t.Parallel()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	sig := repos.Signature{Name: "A", Email: "a@example.com", When: when}
	withFiles := &repos.Commit{ID: "c2", Tree: "t2", Parents: []string{"c1"}, Author: sig, Committer: sig, Message: "m\n",
		Files: []repos.FileChangeStat{{Filename: "x", Status: "added", Additions: 2, Deletions: 1}}}
	bare := &repos.Commit{ID: "c1", Tree: "t1", Author: sig, Committer: sig, Message: "root\n"}
	for _, tt := range []struct {
		name         string
		cm           *repos.Commit
		files, stats bool
		wantFiles    any
		wantStats    any
	}{
		{"files and stats", withFiles, true, true,
			[]any{map[string]any{"filename": "x", "status": "added"}},
			map[string]any{"total": float64(3), "additions": float64(2), "deletions": float64(1)}},
		{"neither asked", withFiles, false, false, nil, nil},
		{"asked, not known", bare, true, true, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := asJSON(t, toCommit(testAPI, testHTML, tt.cm, tt.files, tt.stats))
			assert.Equal(t, tt.wantFiles, got["files"])
			assert.Equal(t, tt.wantStats, got["stats"])
			assert.Equal(t, "2024-01-02T02:04:05Z", got["created"])
			assert.Nil(t, got["author"])
			assert.Nil(t, got["committer"])
			assert.NotNil(t, got["parents"])
			rc := got["commit"].(map[string]any)
			assert.Equal(t, "2024-01-02T03:04:05+01:00", rc["author"].(map[string]any)["date"])
			assert.Equal(t, "gpg.error.not_signed_commit", rc["verification"].(map[string]any)["reason"])
			assert.Equal(t, testAPI+"/git/trees/"+tt.cm.Tree, rc["tree"].(map[string]any)["url"])
		})
	}
}

// TestToBranchAndTag: a branch without a rule lists no status contexts
// (not null); a tag's archive_download_count is zeros.
func TestToBranchAndTag(t *testing.T) {
	t.Parallel()
	cm := &repos.Commit{ID: "c1", Author: repos.Signature{Name: "A"}, Committer: repos.Signature{Name: "C"}}
	b := asJSON(t, toBranch(testHTML, &repos.Branch{Name: "main", Commit: cm}, true))
	assert.Equal(t, []any{}, b["status_check_contexts"])
	assert.Equal(t, true, b["user_can_merge"])
	assert.Equal(t, testHTML+"/commit/c1", b["commit"].(map[string]any)["url"])
	assert.Nil(t, b["commit"].(map[string]any)["added"])

	b = asJSON(t, toBranch(testHTML, &repos.Branch{Name: "main", Commit: cm, Protected: true,
		Rule: &repos.BranchProtection{RuleName: "ma*", StatusCheckContexts: []string{"ci"}, RequiredApprovals: 2}}, false))
	assert.Equal(t, []any{"ci"}, b["status_check_contexts"])
	assert.Equal(t, "ma*", b["effective_branch_protection_name"])
	assert.Equal(t, float64(2), b["required_approvals"])

	tag := toTag(testAPI, testHTML, &repos.Tag{Name: "v1", ID: "t1", Commit: "c1"})
	assert.Equal(t, &wire.TagArchiveDownloadCount{}, tag.ArchiveDownloadCount)
	assert.Equal(t, testHTML+"/archive/v1.zip", tag.ZipballURL)
}
