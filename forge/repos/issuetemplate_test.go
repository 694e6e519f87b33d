package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
)

// TestIssueTemplateValidationMessages pins Forgejo's messages
// (modules/issue/template/template_test.go) for invalid issue forms and
// markdown templates.
func TestIssueTemplateValidationMessages(t *testing.T) {
	t.Parallel()
	const head = "name: n\nabout: a\nbody:\n"
	for _, c := range []struct {
		name, file, content, want string
	}{
		{"no name", "t.yaml", "about: a\nbody:\n  - type: markdown\n    attributes:\n      value: v\n", "'name' is required"},
		{"no about", "t.yaml", "name: n\nbody:\n  - type: markdown\n    attributes:\n      value: v\n", "'about' is required"},
		{"no body", "t.yaml", "name: n\nabout: a\n", "'body' is required"},
		{"markdown without value", "t.yaml", head + "  - type: markdown\n", "body[0](markdown): 'value' is required"},
		{"bad id", "t.yaml", head + "  - type: input\n    id: \"a b\"\n    attributes:\n      label: l\n",
			"body[0](input): 'id' should contain only alphanumeric, '-' and '_'"},
		{"duplicate id", "t.yaml", head + "  - type: input\n    id: x\n    attributes:\n      label: l\n  - type: textarea\n    id: x\n    attributes:\n      label: l\n",
			"body[1](textarea): 'id' should be unique"},
		{"no label", "t.yaml", head + "  - type: input\n    id: x\n", "body[0](input): 'label' is required"},
		{"label not a string", "t.yaml", head + "  - type: input\n    attributes:\n      label: [1]\n", "body[0](input): 'label' should be a string"},
		{"unknown type", "t.yaml", head + "  - type: video\n    attributes:\n      label: l\n", "body[0](video): unknown type"},
		{"is_number not a bool", "t.yaml", head + "  - type: input\n    attributes:\n      label: l\n    validations:\n      is_number: yes please\n",
			"body[0](input): 'is_number' should be a bool"},
		{"dropdown without options", "t.yaml", head + "  - type: dropdown\n    attributes:\n      label: l\n",
			"body[0](dropdown): 'options' is required and should be a array"},
		{"dropdown option not a string", "t.yaml", head + "  - type: dropdown\n    attributes:\n      label: l\n      options: [[1]]\n",
			"body[0](dropdown), option[0]: should be a string"},
		{"dropdown default out of range", "t.yaml", head + "  - type: dropdown\n    attributes:\n      label: l\n      options: [a]\n      default: 3\n",
			"body[0](dropdown): the value of 'default' is out of range"},
		{"dropdown default not an int", "t.yaml", head + "  - type: dropdown\n    attributes:\n      label: l\n      options: [a]\n      default: x\n",
			"body[0](dropdown): 'default' should be an int"},
		{"checkbox without label", "t.yaml", head + "  - type: checkboxes\n    attributes:\n      label: l\n      options:\n        - required: true\n",
			"body[0](checkboxes), option[0]: 'label' is required and should be a string"},
		{"hidden required checkbox", "t.yaml", head + "  - type: checkboxes\n    attributes:\n      label: l\n      options:\n        - label: c\n          required: true\n          visible: [content]\n",
			"body[0](checkboxes), option[0]: can not require a hidden checkbox"},
		{"bad checkbox visibility", "t.yaml", head + "  - type: checkboxes\n    attributes:\n      label: l\n      options:\n        - label: c\n          visible: [x]\n",
			"body[0](checkboxes), option[0]: 'visible' list can only contain strings of 'form' and 'content'"},
		{"hidden required field", "t.yaml", head + "  - type: input\n    attributes:\n      label: l\n    validations:\n      required: true\n    visible: [content]\n",
			"body[0](input): can not require a hidden field"},
		{"required not a bool", "t.yaml", head + "  - type: textarea\n    attributes:\n      label: l\n    validations:\n      required: maybe\n",
			"body[0](textarea): 'required' should be a bool"},
		{"empty field", "t.yaml", head + "  - \n", "body[0]: is empty"},
		{"markdown front matter without about", "t.md", "---\nname: n\n---\nbody\n", "'about' is required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := repos.ParseIssueTemplate(".forgejo/ISSUE_TEMPLATE/"+c.file, []byte(c.content))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
	it, err := repos.ParseIssueTemplate("x/t.md", []byte("---\nname: n\ndescription: d\nlabels: [a, b]\nref: refs/tags/v1\n---\nbody\n"))
	require.NoError(t, err)
	assert.Equal(t, &repos.IssueTemplate{Name: "n", About: "d", Labels: repos.IssueTemplateLabels{"a", "b"}, Ref: "refs/tags/v1",
		Content: "body\n", FileName: "x/t.md"}, it)
	long := "Ünïcödé 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
	it, err = repos.ParseIssueTemplate("x/long.md", []byte(long))
	require.NoError(t, err)
	assert.LessOrEqual(t, len(it.About), 80, "about is cut at 80 bytes, on a character boundary")
	assert.Equal(t, "…", it.About[len(it.About)-len("…"):])
}

// TestIssueConfigMessages pins Forgejo's messages for invalid issue
// configs; an invalid config is the default.
func TestIssueConfigMessages(t *testing.T) {
	t.Parallel()
	for content, want := range map[string]string{
		"contact_links:\n  - url: https://x/\n    about: a\n":                         "contact_link at position 1 is missing name key",
		"contact_links:\n  - name: n\n    about: a\n":                                 "contact_link at position 1 is missing url key",
		"contact_links:\n  - name: n\n    url: x\n    about: a\n":                     "x is not a valid URL",
		"contact_links:\n  - {name: n, url: 'https://x/', about: a}\n  - {name: m}\n": "contact_link at position 2 is missing url key",
	} {
		cfg, err := repos.ParseIssueConfig([]byte(content))
		require.Error(t, err, content)
		assert.Equal(t, want, err.Error(), content)
		assert.Equal(t, repos.DefaultIssueConfig(), cfg)
	}
	_, err := repos.ParseIssueConfig([]byte("blank_issues_enabled: [\n"))
	assert.Error(t, err, "YAML that does not parse")
}
