package issues_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/issues"
)

// TestLabelTemplateSets pins the template sets to Forgejo's options/label
// files, label by label where it matters: Default.yaml (seven labels, none
// exclusive) and Advanced.yaml (eighteen: the Kind/* scope and
// Compat/Breaking are not exclusive, Reviewed/*, Status/* and Priority/*
// are; Breaking lives in its own Compat scope so that it may sit next to a
// Kind).
func TestLabelTemplateSets(t *testing.T) {
	t.Parallel()
	def, err := issues.LabelTemplates("Default")
	require.NoError(t, err)
	require.Len(t, def, 7)
	assert.Equal(t, []issues.LabelTemplate{
		{Name: "bug", Color: "#ee0701", Description: "Something is not working"},
		{Name: "duplicate", Color: "#cccccc", Description: "This issue or pull request already exists"},
		{Name: "enhancement", Color: "#84b6eb", Description: "New feature"},
		{Name: "help wanted", Color: "#128a0c", Description: "Need some help"},
		{Name: "invalid", Color: "#e6e6e6", Description: "Something is wrong"},
		{Name: "question", Color: "#cc317c", Description: "More information is needed"},
		{Name: "wontfix", Color: "#ffffff", Description: "This won't be fixed"},
	}, def)

	adv, err := issues.LabelTemplates("Advanced")
	require.NoError(t, err)
	require.Len(t, adv, 18)
	byName := map[string]issues.LabelTemplate{}
	exclusive := 0
	for _, l := range adv {
		byName[l.Name] = l
		if l.Exclusive {
			exclusive++
		}
		scope, _, _ := strings.Cut(l.Name, "/")
		assert.Equal(t, scope != "Kind" && scope != "Compat", l.Exclusive, "%s: exclusive", l.Name)
		assert.Regexp(t, `^#[0-9a-f]{6}$`, l.Color, l.Name)
	}
	assert.Equal(t, 11, exclusive)
	for _, want := range []issues.LabelTemplate{
		{Name: "Kind/Bug", Color: "#ee0701", Description: "Something is not working"},
		{Name: "Kind/Documentation", Color: "#37474f", Description: "Documentation changes"},
		{Name: "Compat/Breaking", Color: "#c62828", Description: "Breaking change that won't be backward compatible"},
		{Name: "Reviewed/Won't Fix", Exclusive: true, Color: "#eeeeee", Description: "This issue won't be fixed"},
		{Name: "Status/Abandoned", Exclusive: true, Color: "#222222", Description: "Somebody has started to work on this but abandoned work"},
		{Name: "Priority/Low", Exclusive: true, Color: "#4caf50", Description: "The priority is low"},
	} {
		assert.Equal(t, want, byName[want.Name], want.Name)
	}
	assert.NotContains(t, byName, "Kind/Breaking", "Forgejo moved it to Compat/Breaking")
	assert.Equal(t, "Kind/Bug", adv[0].Name, "the file's order")
	assert.Equal(t, "Compat/Breaking", adv[6].Name)
	assert.Equal(t, "Priority/Low", adv[17].Name)
}
