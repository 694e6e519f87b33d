package repos

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/hearthforge/hearth/forge"
)

// issueTemplateDirs are the directories issue templates are read from, in
// Forgejo's order (services/issue/template.go templateDirCandidates).
var issueTemplateDirs = []string{
	"ISSUE_TEMPLATE", "issue_template",
	".forgejo/ISSUE_TEMPLATE", ".forgejo/issue_template",
	".gitea/ISSUE_TEMPLATE", ".gitea/issue_template",
	".github/ISSUE_TEMPLATE", ".github/issue_template",
	".gitlab/ISSUE_TEMPLATE", ".gitlab/issue_template",
}

// issueConfigPaths are the issue config files, without their extension
// (.yaml before .yml), in Forgejo's order (templateConfigCandidates).
var issueConfigPaths = []string{
	".forgejo/ISSUE_TEMPLATE/config", ".forgejo/issue_template/config",
	".gitea/ISSUE_TEMPLATE/config", ".gitea/issue_template/config",
	".github/ISSUE_TEMPLATE/config", ".github/issue_template/config",
}

// MaxIssueTemplateSize is the largest issue template or config read
// (Forgejo's [ui] MAX_DISPLAY_FILE_SIZE): a larger template is invalid.
const MaxIssueTemplateSize = MaxEditorconfigSize

// IssueTemplates returns the valid issue templates of the default branch,
// directory by directory in Forgejo's order, each directory's files in
// tree order, and the number of template files that are invalid (Forgejo
// answers them with a warning header). Readers of the repository only
// (Forgejo asks no unit: the repository's visibility, forge.ErrNotFound);
// a token needs read:repository. An empty repository has none.
func (s *Service) IssueTemplates(ctx context.Context, actor forge.Actor, owner, name string) (*View, []*IssueTemplate, int, error) {
	v, commit, err := s.defaultBranchReader(ctx, actor, owner, name)
	if err != nil || commit == "" {
		return v, []*IssueTemplate{}, 0, err
	}
	out, invalid := []*IssueTemplate{}, 0
	for _, dir := range issueTemplateDirs {
		d, err := s.git.Entry(ctx, v.Repo.ID, commit, dir)
		if errors.Is(err, forge.ErrNotFound) || err == nil && d.Type != "tree" {
			continue
		} else if err != nil {
			return nil, nil, 0, err
		}
		entries, err := s.git.Tree(ctx, v.Repo.ID, commit, dir, false)
		if err != nil {
			return nil, nil, 0, err
		}
		for _, e := range entries {
			if issueTemplateType(e.Name) == "" {
				continue
			}
			file := path.Join(dir, e.Name)
			data, err := s.templateFile(ctx, v.Repo.ID, &e, file)
			if err != nil {
				invalid++
				continue
			}
			it, err := ParseIssueTemplate(file, data)
			if err != nil {
				invalid++
				continue
			}
			out = append(out, it)
		}
	}
	return v, out, invalid, nil
}

// IssueConfig returns the issue config of the default branch (the first of
// Forgejo's config files that exists), and what is wrong with it: a
// config that does not parse or validate is answered as the default
// (DefaultIssueConfig) with its error, as Forgejo's
// GetTemplateConfigFromDefaultBranch. Who may read it as IssueTemplates.
func (s *Service) IssueConfig(ctx context.Context, actor forge.Actor, owner, name string) (*View, IssueConfig, error, error) {
	v, commit, err := s.defaultBranchReader(ctx, actor, owner, name)
	if err != nil {
		return nil, DefaultIssueConfig(), nil, err
	}
	if commit == "" {
		return v, DefaultIssueConfig(), nil, nil
	}
	for _, p := range issueConfigPaths {
		for _, ext := range []string{".yaml", ".yml"} {
			e, err := s.git.Entry(ctx, v.Repo.ID, commit, p+ext)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return nil, DefaultIssueConfig(), nil, err
			}
			data, err := s.templateFile(ctx, v.Repo.ID, e, p+ext)
			if err != nil {
				return v, DefaultIssueConfig(), err, nil
			}
			cfg, invalid := ParseIssueConfig(data)
			return v, cfg, invalid, nil
		}
	}
	return v, DefaultIssueConfig(), nil, nil
}

// defaultBranchReader loads owner/name for a reader and the tip of its
// default branch ("" for an empty repository or a default branch that does
// not exist).
func (s *Service) defaultBranchReader(ctx context.Context, actor forge.Actor, owner, name string) (*View, string, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", err
	}
	if v.Repo.Empty {
		return v, "", nil
	}
	id, err := s.git.Resolve(ctx, v.Repo.ID, "refs/heads/"+v.Repo.DefaultBranch)
	if errors.Is(err, forge.ErrNotFound) {
		return v, "", nil
	}
	return v, id, err
}

// templateFile reads the blob of entry e (named file): an entry that is no
// file, or larger than MaxIssueTemplateSize, is an error.
func (s *Service) templateFile(ctx context.Context, repo forge.ID, e *TreeEntry, file string) ([]byte, error) {
	if e.Type != "blob" {
		return nil, fmt.Errorf("%s is not a file", file)
	}
	if e.Size > MaxIssueTemplateSize {
		return nil, fmt.Errorf("too large: %v > MaxDisplayFileSize", e.Size)
	}
	return s.git.Blob(ctx, repo, e.ID)
}

// issueTemplateType is "md" or "yaml" by the file name's extension, ""
// for a file that is no template, config.yaml and config.yml included
// (Forgejo's IssueTemplate.Type).
func issueTemplateType(name string) string {
	if base := path.Base(name); base == "config.yaml" || base == "config.yml" {
		return ""
	}
	switch path.Ext(name) {
	case ".md":
		return "md"
	case ".yaml", ".yml":
		return "yaml"
	}
	return ""
}
