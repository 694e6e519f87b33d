package packages

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidGenericNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name               string
		pkg, file, version bool
	}{
		{"tool", true, true, true},
		{"my-tool_1.2+x", true, true, true},
		{"a", true, true, true},
		{"7", true, true, true},
		{"-", false, true, true},
		{"..", false, false, true},
		{".", false, false, true},
		{"a b", false, true, true},
		{" a", false, false, false},
		{"a ", false, false, false},
		{"a/b", false, false, true},
		{"file(1)[2]{3}~!@#$%^&.txt", false, true, true},
		{"", false, false, false},
	} {
		assert.Equal(t, tc.pkg, ValidGenericName(tc.name), "name %q", tc.name)
		assert.Equal(t, tc.file, ValidGenericFilename(tc.name), "filename %q", tc.name)
		assert.Equal(t, tc.version, ValidGenericVersion(tc.name), "version %q", tc.name)
	}
}
