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

// TestTypeDisplayNames: every package type shows Forgejo's display name
// (models/packages/package.go Type.Name), written out here from Forgejo's
// table, not from the code under test.
func TestTypeDisplayNames(t *testing.T) {
	t.Parallel()
	want := map[Type]string{
		"alpine": "Alpine", "arch": "Arch", "cargo": "Cargo", "chef": "Chef", "composer": "Composer",
		"conan": "Conan", "conda": "Conda", "container": "Container", "cran": "CRAN", "debian": "Debian",
		"generic": "Generic", "go": "Go", "helm": "Helm", "maven": "Maven", "npm": "npm", "nuget": "NuGet",
		"pub": "Pub", "pypi": "PyPI", "rpm": "RPM", "rubygems": "RubyGems", "swift": "Swift", "vagrant": "Vagrant",
	}
	assert.Len(t, Types, len(want), "every type Forgejo knows has its name here")
	for _, typ := range Types {
		assert.Equal(t, want[typ], typ.Name(), "type %s", typ)
	}
	assert.Equal(t, "future", Type("future").Name(), "an unknown type is its own name")
}
