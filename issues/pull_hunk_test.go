package issues_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/issues"
)

const hunkDiff = `diff --git a/a.txt b/a.txt
index 01e79c3..4e3d2ba 100644
--- a/a.txt
+++ b/a.txt
@@ -1,8 +1,8 @@
 1
 2
-3
+three
 4
 5
 6
 7
-8
+eight
diff --git a/b.txt b/b.txt
new file mode 100644
index 0000000..6178079
--- /dev/null
+++ b/b.txt
@@ -0,0 +1 @@
+b`

func TestCutDiffAroundLine(t *testing.T) {
	t.Parallel()
	a := issues.FileDiff(hunkDiff, "a.txt")
	assert.Contains(t, a, "+eight")
	assert.NotContains(t, a, "b.txt")
	head := "diff --git a/a.txt b/a.txt\nindex 01e79c3..4e3d2ba 100644\n--- a/a.txt\n+++ b/a.txt\n"
	for _, c := range []struct {
		name string
		diff string
		line int64
		old  bool
		want string
	}{
		{"new line 3, short hunk kept whole", a, 3, false, head + "@@ -1,3 +1,3 @@\n 1\n 2\n-3\n+three"},
		{"old line 3", a, 3, true, head + "@@ -1,3 +1,2 @@\n 1\n 2\n-3"},
		{"new line 8 keeps four lines before", a, 8, false, head + "@@ -5,4 +5,4 @@\n 5\n 6\n 7\n-8\n+eight"},
		{"context line 6", a, 6, false, head + "@@ -3,4 +3,4 @@\n-3\n+three\n 4\n 5\n 6"},
		{"a line no hunk holds", a, 20, false, ""},
		{"new file", issues.FileDiff(hunkDiff, "b.txt"), 1, false,
			"diff --git a/b.txt b/b.txt\nnew file mode 100644\nindex 0000000..6178079\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1,1 @@\n+b"},
		{"no line", a, 0, false, ""},
	} {
		assert.Equal(t, c.want, issues.CutDiffAroundLine(c.diff, c.line, c.old, issues.CodeCommentLines), c.name)
	}
	assert.Empty(t, issues.FileDiff(hunkDiff, "c.txt"))
}
