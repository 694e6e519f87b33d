package repos

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// IssueTemplate is an issue template of a repository: a markdown file with
// front matter, or a YAML issue form (Forgejo's api.IssueTemplate; the
// YAML keys are its keys).
type IssueTemplate struct {
	Name   string              `yaml:"name"`
	Title  string              `yaml:"title"`
	About  string              `yaml:"about"`
	Labels IssueTemplateLabels `yaml:"labels"`
	// Ref is the branch or tag issues from the template are for: a name
	// that does not start with refs/ is a branch (refs/heads/<ref>).
	Ref string `yaml:"ref"`
	// Content is the markdown of a markdown template, after its front
	// matter.
	Content string `yaml:"-"`
	// Fields are the form's fields (the YAML key body); nil for markdown.
	Fields []*IssueFormField `yaml:"body"`
	// FileName is the path of the template in the repository.
	FileName string `yaml:"-"`
}

// IssueTemplateLabels are a template's labels: a YAML list, or one string
// of comma-separated names (Forgejo's IssueTemplateLabels).
type IssueTemplateLabels []string

// UnmarshalYAML reads a list of names or one comma-separated string.
func (l *IssueTemplateLabels) UnmarshalYAML(value *yaml.Node) error {
	var labels []string
	if value.IsZero() {
		*l = labels
		return nil
	}
	switch value.Kind {
	case yaml.ScalarNode:
		var str string
		if err := value.Decode(&str); err != nil {
			return err
		}
		for _, v := range strings.Split(str, ",") {
			if v = strings.TrimSpace(v); v != "" {
				labels = append(labels, v)
			}
		}
		*l = labels
		return nil
	case yaml.SequenceNode:
		if err := value.Decode(&labels); err != nil {
			return err
		}
		*l = labels
		return nil
	}
	return fmt.Errorf("line %d: cannot unmarshal %s into IssueTemplateLabels", value.Line, value.ShortTag())
}

// IssueFormField is a field of an issue form (Forgejo's
// api.IssueFormField): Type is "markdown", "textarea", "input",
// "dropdown" or "checkboxes".
type IssueFormField struct {
	Type        string         `yaml:"type"`
	ID          string         `yaml:"id"`
	Attributes  map[string]any `yaml:"attributes"`
	Validations map[string]any `yaml:"validations"`
	// Visible is where the field shows: "form", "content".
	Visible []string `yaml:"visible"`
}

// visibleOnForm reports whether the field shows on the form (Forgejo's
// VisibleOnForm).
func (f *IssueFormField) visibleOnForm() bool {
	if len(f.Visible) == 0 {
		return true
	}
	for _, v := range f.Visible {
		if v == "form" {
			return true
		}
	}
	return false
}

// ParseIssueTemplate parses the template file (its path in the repository)
// holding content and validates it (ValidateIssueTemplate), as Forgejo's
// template.Unmarshal: a markdown file whose front matter cannot be read is
// a template named after the file, about its first 80 bytes; YAML fields
// get their index as id and are shown on the form (and in the content,
// but for markdown) unless they say otherwise; a ref that is no full ref
// name is a branch.
func ParseIssueTemplate(file string, content []byte) (*IssueTemplate, error) {
	it := &IssueTemplate{FileName: file}
	// Templates may say description for about.
	compatible := &struct {
		About string `yaml:"description"`
	}{}
	switch issueTemplateType(file) {
	case "md":
		body, err := frontMatter(content, it)
		if err != nil {
			it.Content = string(content)
			it.Name = path.Base(file)
			it.About = truncateBytes(it.Content, 80)
		} else {
			it.Content = string(body)
			if it.About == "" {
				if _, err := frontMatter(content, compatible); err == nil && compatible.About != "" {
					it.About = compatible.About
				}
			}
		}
	case "yaml":
		if err := yaml.Unmarshal(content, it); err != nil {
			return nil, fmt.Errorf("yaml unmarshal: %w", err)
		}
		if it.About == "" {
			if err := yaml.Unmarshal(content, compatible); err == nil && compatible.About != "" {
				it.About = compatible.About
			}
		}
		for i, f := range it.Fields {
			if f == nil {
				return nil, fmt.Errorf("body[%d]: is empty", i)
			}
			if f.ID == "" {
				f.ID = strconv.Itoa(i)
			}
			if f.Visible == nil {
				f.Visible = []string{"form"}
				if f.Type != "markdown" {
					f.Visible = append(f.Visible, "content")
				}
			}
		}
	default:
		return nil, fmt.Errorf("%s is no issue template", file)
	}
	if err := ValidateIssueTemplate(it); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(it.Ref, "refs/") {
		it.Ref = "refs/heads/" + it.Ref
	}
	return it, nil
}

// ValidateIssueTemplate returns the first thing wrong with it, with
// Forgejo's messages (modules/issue/template Validate): name and about are
// required; a YAML form needs a body whose fields have a valid unique id
// (but markdown), a label (but markdown), the attributes and validations
// their type takes, and options for dropdowns and checkboxes.
func ValidateIssueTemplate(it *IssueTemplate) error {
	if strings.TrimSpace(it.Name) == "" {
		return errors.New("'name' is required")
	}
	if strings.TrimSpace(it.About) == "" {
		return errors.New("'about' is required")
	}
	if issueTemplateType(it.FileName) != "yaml" {
		return nil
	}
	if len(it.Fields) == 0 {
		return errors.New("'body' is required")
	}
	ids := map[string]bool{}
	for idx, f := range it.Fields {
		if err := validateFormField(f, idx, ids); err != nil {
			return err
		}
	}
	return nil
}

// alphaDash matches a character an id may not hold (Forgejo's binding
// AlphaDashPattern).
var alphaDash = regexp.MustCompile(`[^0-9A-Za-z_\-]`)

// validateFormField checks field idx of a form; ids are the ids seen.
func validateFormField(f *IssueFormField, idx int, ids map[string]bool) error {
	at := formPosition(idx, f.Type)
	if f.Type != "markdown" {
		switch {
		case f.ID == "":
			return at.errorf("'id' is required")
		case alphaDash.MatchString(f.ID):
			return at.errorf("'id' should contain only alphanumeric, '-' and '_'")
		case ids[f.ID]:
			return at.errorf("'id' should be unique")
		}
		ids[f.ID] = true
		if err := stringItems(at, f.Attributes, true, "label"); err != nil {
			return err
		}
	}
	var err error
	switch f.Type {
	case "markdown":
		err = stringItems(at, f.Attributes, true, "value")
	case "textarea":
		err = stringItems(at, f.Attributes, false, "description", "placeholder", "value", "render")
	case "input":
		err = errors.Join(stringItems(at, f.Attributes, false, "description", "placeholder", "value"),
			boolItems(at, f.Validations, "is_number"), stringItems(at, f.Validations, false, "regex"))
	case "dropdown":
		if err = errors.Join(stringItems(at, f.Attributes, false, "description"), boolItems(at, f.Attributes, "multiple"),
			boolItems(at, f.Attributes, "list")); err == nil {
			if err = formOptions(f, idx); err == nil {
				err = dropdownDefault(at, f.Attributes)
			}
		}
	case "checkboxes":
		if err = stringItems(at, f.Attributes, false, "description"); err == nil {
			err = formOptions(f, idx)
		}
	default:
		return at.errorf("unknown type")
	}
	if err != nil {
		return firstError(err)
	}
	if f.Type == "markdown" || f.Type == "checkboxes" {
		return nil
	}
	if err := boolItems(at, f.Validations, "required"); err != nil {
		return err
	}
	if required, _ := f.Validations["required"].(bool); required && !f.visibleOnForm() {
		return at.errorf("can not require a hidden field")
	}
	return nil
}

// firstError is the first error errors.Join joined (the one Forgejo's
// checks, made one after the other, report).
func firstError(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if errs := j.Unwrap(); len(errs) > 0 {
			return errs[0]
		}
	}
	return err
}

// formOptions checks the options of a dropdown (strings) or checkboxes
// (maps with a label, and visible and required that agree).
func formOptions(f *IssueFormField, idx int) error {
	at := formPosition(idx, f.Type)
	options, ok := f.Attributes["options"].([]any)
	if !ok || len(options) == 0 {
		return at.errorf("'options' is required and should be a array")
	}
	for i, option := range options {
		at := formPosition(idx, f.Type, i)
		if f.Type == "dropdown" {
			if _, ok := option.(string); !ok {
				return at.errorf("should be a string")
			}
			continue
		}
		opt, ok := option.(map[string]any)
		if !ok {
			return at.errorf("should be a dictionary")
		}
		if label, ok := opt["label"].(string); !ok || label == "" {
			return at.errorf("'label' is required and should be a string")
		}
		onForm := true
		if visibility, ok := opt["visible"]; ok {
			list, ok := visibility.([]any)
			if !ok {
				return at.errorf("'visible' should be list")
			}
			onForm = false
			for _, v := range list {
				s, ok := v.(string)
				if !ok || s != "form" && s != "content" {
					return at.errorf("'visible' list can only contain strings of 'form' and 'content'")
				}
				onForm = onForm || s == "form"
			}
		}
		if required, ok := opt["required"]; ok {
			if _, ok := required.(bool); !ok {
				return at.errorf("'required' should be a bool")
			}
			if !onForm {
				return at.errorf("can not require a hidden checkbox")
			}
		}
	}
	return nil
}

// stringItems checks that the names of m are strings (non-blank ones when
// required, which also stops at the first missing name).
func stringItems(at formPos, m map[string]any, required bool, names ...string) error {
	for _, name := range names {
		v, ok := m[name]
		if !ok {
			if required {
				return at.errorf("'%s' is required", name)
			}
			return nil
		}
		s, ok := v.(string)
		if !ok {
			return at.errorf("'%s' should be a string", name)
		}
		if strings.TrimSpace(s) == "" && required {
			return at.errorf("'%s' is required", name)
		}
	}
	return nil
}

// boolItems checks that the names of m present are booleans (stopping at
// the first missing one, as Forgejo's validateBoolItem).
func boolItems(at formPos, m map[string]any, names ...string) error {
	for _, name := range names {
		v, ok := m[name]
		if !ok {
			return nil
		}
		if _, ok := v.(bool); !ok {
			return at.errorf("'%s' should be a bool", name)
		}
	}
	return nil
}

// dropdownDefault checks a dropdown's default: an index of its options.
func dropdownDefault(at formPos, attributes map[string]any) error {
	v, ok := attributes["default"]
	if !ok {
		return nil
	}
	def, ok := v.(int)
	if !ok {
		return at.errorf("'default' should be an int")
	}
	options, _ := attributes["options"].([]any)
	if def < 0 || def >= len(options) {
		return at.errorf("the value of 'default' is out of range")
	}
	return nil
}

// formPos is where in a form an error is: `body[i](type)` and `,
// option[j]`.
type formPos string

func formPosition(field int, typ string, option ...int) formPos {
	p := fmt.Sprintf("body[%d](%s)", field, typ)
	if len(option) > 0 {
		p += fmt.Sprintf(", option[%d]", option[0])
	}
	return formPos(p)
}

func (p formPos) errorf(format string, a ...any) error {
	return fmt.Errorf(string(p)+": "+format, a...)
}

// frontMatter reads the YAML front matter of a markdown file (between two
// lines of three or more dashes, the first one the file's first line) into
// out, and returns the markdown after it (Forgejo's
// markdown.ExtractMetadataBytes).
func frontMatter(content []byte, out any) ([]byte, error) {
	line, _, _ := bytes.Cut(content, []byte("\n"))
	if !isFrontMatterSeparator(line) {
		return content, errors.New("frontmatter must start with a separator line")
	}
	var front, body []byte
	for start := len(line) + 1; start < len(content); {
		end := len(content)
		if i := bytes.IndexByte(content[start:], '\n'); i >= 0 {
			end = start + i
		}
		if isFrontMatterSeparator(content[start:end]) {
			front = content[len(line)+1 : start]
			if end+1 < len(content) {
				body = content[end+1:]
			}
			break
		}
		start = end + 1
	}
	if len(front) == 0 {
		return content, errors.New("could not determine metadata")
	}
	if err := yaml.Unmarshal(front, out); err != nil {
		return content, err
	}
	return body, nil
}

// isFrontMatterSeparator reports whether line is three or more dashes,
// with only blanks around them.
func isFrontMatterSeparator(line []byte) bool {
	s := strings.TrimFunc(string(line), unicode.IsSpace)
	return len(s) >= 3 && strings.Trim(s, "-") == ""
}

// truncateBytes cuts s to at most n bytes on a character boundary, with an
// ellipsis (Forgejo's util.SplitStringAtByteN, left part).
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if !utf8.ValidString(s) {
		return s[:n-3] + "..."
	}
	end := 0
	for end <= n-3 {
		_, size := utf8.DecodeRuneInString(s[end:])
		if end+size > n-3 {
			break
		}
		end += size
	}
	return s[:end] + "…"
}

// IssueConfig is a repository's issue config (Forgejo's api.IssueConfig).
type IssueConfig struct {
	BlankIssuesEnabled bool                     `yaml:"blank_issues_enabled"`
	ContactLinks       []IssueConfigContactLink `yaml:"contact_links"`
}

// IssueConfigContactLink is a link of the issue config.
type IssueConfigContactLink struct {
	Name  string `yaml:"name"`
	URL   string `yaml:"url"`
	About string `yaml:"about"`
}

// DefaultIssueConfig is the config of a repository without one: blank
// issues enabled, no contact link.
func DefaultIssueConfig() IssueConfig {
	return IssueConfig{BlankIssuesEnabled: true, ContactLinks: []IssueConfigContactLink{}}
}

// ParseIssueConfig parses an issue config file and validates it, as
// Forgejo's GetTemplateConfig: every contact link needs a name, a url that
// parses as a request URI and an about. An invalid config is answered as
// DefaultIssueConfig with what is wrong (Forgejo's messages).
func ParseIssueConfig(content []byte) (IssueConfig, error) {
	cfg := DefaultIssueConfig()
	if err := yaml.Unmarshal(content, &cfg); err != nil {
		return DefaultIssueConfig(), err
	}
	if cfg.ContactLinks == nil {
		cfg.ContactLinks = []IssueConfigContactLink{}
	}
	for pos, link := range cfg.ContactLinks {
		switch {
		case link.Name == "":
			return DefaultIssueConfig(), fmt.Errorf("contact_link at position %d is missing name key", pos+1)
		case link.URL == "":
			return DefaultIssueConfig(), fmt.Errorf("contact_link at position %d is missing url key", pos+1)
		case link.About == "":
			return DefaultIssueConfig(), fmt.Errorf("contact_link at position %d is missing about key", pos+1)
		}
		if _, err := url.ParseRequestURI(link.URL); err != nil {
			return DefaultIssueConfig(), fmt.Errorf("%s is not a valid URL", link.URL)
		}
	}
	return cfg, nil
}
