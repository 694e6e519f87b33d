package gitstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// patchSeeds are patches that apply, patches that do not, and patches
// that are no patch or touch paths git or Hearth refuse.
var patchSeeds = []string{
	"diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-hi\n+hello\n",
	"diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n",
	"diff --git a/README.md b/README.md\ndeleted file mode 100644\n--- a/README.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n",
	"diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-nothing like it\n+x\n",
	"diff --git a/../evil b/../evil\nnew file mode 100644\n--- /dev/null\n+++ b/../evil\n@@ -0,0 +1 @@\n+x\n",
	"diff --git a/.git/config b/.git/config\nnew file mode 100644\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n",
	"diff --git a/.GIT/hooks/x b/.GIT/hooks/x\nnew file mode 100755\n--- /dev/null\n+++ b/.GIT/hooks/x\n@@ -0,0 +1 @@\n+x\n",
	"diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n",
	"diff --git a/README.md b/README.md\nindex 45b983b..0000000 100644\nGIT binary patch\nliteral 0\nHcmV?d00001\n\n",
	"not a patch at all\n",
	"",
	"--- a/README.md\n+++ b/README.md\n@@ -1,1000000000 +1 @@\n-hi\n+x\n",
	"diff --git a/a b/a\nnew file mode 160000\n--- /dev/null\n+++ b/a\n@@ -0,0 +1 @@\n+Subproject commit 0000000000000000000000000000000000000001\n",
}

// FuzzApplyPatch: whatever the patch, ApplyPatch answers with a commit or
// with an error of a forge category the API answers 4xx (never an
// uncategorised git failure, a 500), and a refused patch moves no ref and
// leaves no temporary file.
func FuzzApplyPatch(f *testing.F) {
	for _, p := range patchSeeds {
		f.Add([]byte(p))
	}
	f.Fuzz(func(t *testing.T, patch []byte) {
		ctx := context.Background()
		s, c := newRepo(t, false)
		c2, err := s.ApplyPatch(ctx, 1, repos.PatchSet{Branch: "main", Patch: patch, Message: "p", Author: sig, Committer: sig})
		refs, rerr := s.Refs(ctx, 1)
		require.NoError(t, rerr)
		require.Len(t, refs, 1)
		assert.Empty(t, tmpFiles(t, s), "temporary index files are removed")
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("patch %q: %v is no forge.ErrInvalid", patch, err)
			}
			assert.Equal(t, c.ID, refs[0].Target, "a refused patch moves no ref")
			return
		}
		assert.Equal(t, c2.ID, refs[0].Target)
		assert.Equal(t, []string{c.ID}, c2.Parents)
		// What the commit holds obeys the contents API's path rules.
		entries, err := s.Tree(ctx, 1, c2.ID, "", true)
		require.NoError(t, err)
		for _, e := range entries {
			assert.NoError(t, repos.CheckCleanPath(e.Path), "patch %q wrote %s", patch, e.Path)
		}
	})
}
