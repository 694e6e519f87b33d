package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
)

// LicenseList is Forgejo's order: the preferred licences first, then the
// rest sorted, each once; the texts are the embedded ones.
func TestLicenseList(t *testing.T) {
	t.Parallel()
	list := repos.LicenseList()
	require.GreaterOrEqual(t, len(list), 3)
	assert.Equal(t, []string{"Apache-2.0", "MIT"}, list[:2])
	assert.ElementsMatch(t, repos.Licenses(), list)
	assert.IsIncreasing(t, list[2:])
	for _, name := range []string{"", ".", "..", "license/MIT", "../license/MIT", "mit"} {
		_, ok := repos.LicenseTemplate(name)
		assert.False(t, ok, name)
		_, ok = repos.GitignoreTemplate(name)
		assert.False(t, ok, name)
	}
	text, ok := repos.GitignoreTemplate("C++")
	require.True(t, ok)
	assert.NotEmpty(t, text)
}
