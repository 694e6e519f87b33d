package issues

import (
	"context"
	"embed"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// labelTemplateFS holds Forgejo's label template sets (options/label), one
// JSON file per set: a list of {name, exclusive, color, description}.
//
//go:embed options/label/*.json
var labelTemplateFS embed.FS

// LabelTemplate is one label of a template set.
type LabelTemplate struct {
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	Color       string `json:"color"`
	Description string `json:"description"`
}

// LabelTemplateNames returns the names of the label template sets, sorted
// (GET /label/templates).
func LabelTemplateNames() []string {
	entries, _ := labelTemplateFS.ReadDir("options/label") // embedded: cannot fail
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	slices.Sort(out)
	return out
}

// LabelTemplates returns the labels of the template set name (GET
// /label/templates/{name}), in the set's order. forge.ErrNotFound when
// there is no such set.
func LabelTemplates(name string) ([]LabelTemplate, error) {
	if !slices.Contains(LabelTemplateNames(), name) {
		return nil, forge.Errorf(forge.ErrNotFound, msgNotFound)
	}
	b, err := labelTemplateFS.ReadFile("options/label/" + name + ".json")
	if err != nil {
		return nil, forge.Errorf(forge.ErrNotFound, msgNotFound)
	}
	var out []LabelTemplate
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// CheckLabelTemplate is nil when name is a label template set, and else
// forge.ErrInvalid in Forgejo's words (ErrTemplateLoad): `failed to load
// label template file "name": label template "name" not found`.
func CheckLabelTemplate(name string) error {
	if !slices.Contains(LabelTemplateNames(), name) {
		return forge.Errorf(forge.ErrInvalid, "failed to load label template file %q: label template %q not found", name, name)
	}
	return nil
}

// InitializeLabels adds the labels of the template set name to owner/repo
// (Forgejo's InitializeLabels, the `issue_labels` of a repository's
// creation), all in one transaction: either every label is added or none.
// The actor must write issues or pull requests (as CreateLabel);
// CheckLabelTemplate's error for an unknown set.
func (s *Service) InitializeLabels(ctx context.Context, actor forge.Actor, owner, repo, name string) error {
	if err := CheckLabelTemplate(name); err != nil {
		return err
	}
	set, err := LabelTemplates(name)
	if err != nil {
		return err
	}
	a, err := s.open(ctx, actor, owner, repo, forge.AccessWrite)
	if err != nil {
		return err
	}
	if err := a.requireWriter(); err != nil {
		return err
	}
	now := s.clock.Now()
	labels := make([]*Label, 0, len(set))
	for _, t := range set {
		l, err := newLabel(CreateLabelOption{Name: t.Name, Color: t.Color, Exclusive: t.Exclusive, Description: t.Description}, now)
		if err != nil {
			return err
		}
		l.RepoID = a.repo.ID
		labels = append(labels, l)
	}
	return s.store.Update(ctx, func(tx Tx) error {
		for _, l := range labels {
			if err := tx.CreateLabel(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
}
