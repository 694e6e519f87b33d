package repos

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// GenerateOptions are Forgejo's GenerateRepoOption: the new repository
// (its owner, "" or the actor's name for the actor, name, description,
// visibility and default branch, "" for the template's) and what is taken
// from the template. Labels and Webhooks belong to other domains: the
// caller copies them after Generate (issues.Service.CopyLabels,
// hooks.Service.CopyRepoHooks) and deletes the repository when that
// fails.
type GenerateOptions struct {
	Owner, Name, Description, DefaultBranch string
	Private                                 bool

	GitContent, Topics, GitHooks, Webhooks, Avatar, Labels, ProtectedBranch bool
}

// Valid reports whether o takes at least one item of the template
// (Forgejo's GenerateRepoOptions.IsValid).
func (o GenerateOptions) Valid() bool {
	return o.GitContent || o.Topics || o.GitHooks || o.Webhooks || o.Avatar || o.Labels || o.ProtectedBranch
}

// GenerateOwnerNotFoundError is Generate's answer to an owner that does
// not exist: Forgejo's 404 `{"error": "request owner `x` does not
// exist"}`.
type GenerateOwnerNotFoundError struct{ Owner string }

func (e *GenerateOwnerNotFoundError) Error() string {
	return "request owner `" + e.Owner + "` does not exist"
}

// Is makes it a forge.ErrNotFound.
func (e *GenerateOwnerNotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

// Generate creates a repository from the template repository
// tOwner/tName (Forgejo's Generate and services/repository/generate.go):
// with o.GitContent one commit ("Initial commit", by the actor) holding
// the tree of the template's default branch, with the template's
// variables expanded in the files its .forgejo/template (or
// .gitea/template) names (ExpandTemplate; the template file itself left
// out); with o.Topics its topics; with o.Avatar a copy of its avatar. The
// new repository has the template's object format, is no template, and is
// created as Create and CreateInOrg create (quota, name rules, the
// organisation's teams, the creator's watch). Nothing is left of it when
// a step fails.
//
// The actor must be signed in, its credential grant write:repository,
// and it must read the template's code (ErrRepoNotFound for a template
// it may not see). Errors, in Forgejo's order: forge.ErrInvalid `this is
// not a template repo`, `must select at least one template item`;
// *GenerateOwnerNotFoundError; forge.ErrForbidden `Only admin can
// generate repository for other user.` or `Given user is not allowed to
// create repository in organization.`; Create's errors
// (forge.ErrConflict `The repository with the same name already
// exists.`, forge.ErrInvalid for a bad name). o.GitHooks and
// o.ProtectedBranch take nothing: Hearth keeps no per-repository git
// hooks, and branch protections are not copied yet.
func (s *Service) Generate(ctx context.Context, actor forge.Actor, tOwner, tName string, o GenerateOptions) (*View, error) {
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	tv, err := s.reader(ctx, actor, tOwner, tName)
	if err != nil {
		return nil, err
	}
	if !tv.Repo.Template {
		return nil, forge.Errorf(forge.ErrInvalid, "this is not a template repo")
	}
	if !o.Valid() {
		return nil, forge.Errorf(forge.ErrInvalid, "must select at least one template item")
	}
	owner, forOther, inOrg := "", false, false
	if o.Owner != "" && !strings.EqualFold(o.Owner, actor.User.Name) {
		var u *forge.User
		err := s.store.View(ctx, func(tx Tx) (err error) { u, err = tx.UserByName(ctx, o.Owner); return err })
		if errors.Is(err, forge.ErrNotFound) {
			return nil, &GenerateOwnerNotFoundError{Owner: o.Owner}
		} else if err != nil {
			return nil, err
		}
		switch {
		case u.IsOrganization():
			inOrg = true
		case !actor.IsSiteAdmin():
			return nil, forge.Errorf(forge.ErrForbidden, "Only admin can generate repository for other user.")
		default:
			forOther = true
		}
		owner = u.Name
	}
	c, err := s.begin(ctx, actor, owner, forOther, inOrg, CreateOptions{Name: o.Name, Description: o.Description,
		Private: o.Private, DefaultBranch: cmp.Or(o.DefaultBranch, tv.Repo.DefaultBranch),
		ObjectFormat: cmp.Or(tv.Repo.ObjectFormat, forge.SHA1), OwnerQuota: true})
	if err != nil {
		return nil, err
	}
	avatar, err := s.generateFrom(ctx, actor, tv, c.Repo, o)
	if err != nil {
		s.abort(ctx, c)
		if avatar != "" {
			s.cfg.Blobs.Delete(context.WithoutCancel(ctx), avatar)
		}
		return nil, err
	}
	return s.finish(ctx, c)
}

// generateFrom makes the git directory of r, a generated repository being
// created, and copies into it what o takes of the template tv. It returns
// the key of the avatar it wrote (for the caller to remove on failure).
func (s *Service) generateFrom(ctx context.Context, actor forge.Actor, tv *View, r *forge.Repository, o GenerateOptions) (string, error) {
	if err := s.git.Create(ctx, r.ID, r.ObjectFormat, r.DefaultBranch); err != nil {
		return "", err
	}
	if o.GitContent && !tv.Repo.Empty {
		if err := s.generateContent(ctx, actor, tv, r); err != nil {
			return "", err
		}
	}
	avatar := ""
	if o.Avatar && tv.Repo.Avatar != "" && s.cfg.Blobs != nil {
		rc, err := s.cfg.Blobs.Open(ctx, tv.Repo.Avatar)
		if err != nil && !errors.Is(err, forge.ErrNotFound) {
			return "", err
		}
		if err == nil {
			key := avatarKey(r.ID, s.clock.Now())
			_, err = s.cfg.Blobs.Put(ctx, key, rc, MaxAvatarBytes)
			rc.Close()
			if err != nil {
				return "", err
			}
			avatar = key
		}
	}
	if !o.Topics && avatar == "" {
		return "", nil
	}
	return avatar, s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.RepoByID(ctx, r.ID)
		if err != nil {
			return err
		}
		if o.Topics {
			cur.Topics = append([]string{}, tv.Repo.Topics...)
		}
		if avatar != "" {
			cur.Avatar = avatar
		}
		return tx.UpdateRepo(ctx, cur)
	})
}

// generateContent commits the tree of the template's default branch into
// r as its first commit, the template's variables expanded.
func (s *Service) generateContent(ctx context.Context, actor forge.Actor, tv *View, r *forge.Repository) error {
	tip, err := s.git.Resolve(ctx, tv.Repo.ID, "refs/heads/"+tv.Repo.DefaultBranch)
	if errors.Is(err, forge.ErrNotFound) {
		return nil // no default branch: nothing to take
	} else if err != nil {
		return err
	}
	entries, err := s.git.Tree(ctx, tv.Repo.ID, tip, "", true)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	var order []string
	for _, e := range entries {
		if e.Type != "blob" {
			continue // directories are implied, submodules not taken
		}
		b, err := s.git.Blob(ctx, tv.Repo.ID, e.ID)
		if err != nil {
			return err
		}
		files[e.Path] = b
		order = append(order, e.Path)
	}
	vars := TemplateVars{
		RepoName: r.Name, RepoOwner: r.OwnerName, RepoDescription: r.Description,
		TemplateName: tv.Repo.Name, TemplateOwner: tv.Owner.Name, TemplateDescription: tv.Repo.Description,
	}
	order, files = ExpandTemplate(order, files, vars)
	if len(order) == 0 {
		return nil
	}
	ops := make([]FileOp, 0, len(order))
	for _, p := range order {
		ops = append(ops, FileOp{Op: "create", Path: p, Content: files[p]})
	}
	sig := Signature{Name: actor.User.Name, Email: actor.User.Email, When: s.clock.Now()}
	_, err = s.git.Apply(ctx, r.ID, ChangeSet{NewBranch: r.DefaultBranch, Message: "Initial commit\n",
		Author: sig, Committer: sig, Files: ops})
	return err
}

// TemplateVars are the values a template's files may name (Forgejo's
// generate.go: $REPO_NAME, $REPO_OWNER, $REPO_DESCRIPTION,
// $TEMPLATE_NAME, $TEMPLATE_OWNER, $TEMPLATE_DESCRIPTION).
type TemplateVars struct {
	RepoName, RepoOwner, RepoDescription             string
	TemplateName, TemplateOwner, TemplateDescription string
}

// templateFiles are where a template lists the globs of the files whose
// variables are expanded, the first found taken (Forgejo's
// checkGiteaTemplate).
var templateFiles = []string{".forgejo/template", ".gitea/template"}

// ExpandTemplate returns the files of a template (paths in order, and
// their contents) as a generated repository takes them: without the
// template file, and with the variables of vars expanded ($VAR and
// ${VAR}, unknown ones left as written) in the content and the path of
// each file a glob of the template file matches (path.Match, one glob a
// line, blank lines and `#` comments skipped). A path that expands to
// something CleanTreePath refuses keeps its name.
func ExpandTemplate(order []string, files map[string][]byte, vars TemplateVars) ([]string, map[string][]byte) {
	var globs []string
	for _, tf := range templateFiles {
		b, ok := files[tf]
		if !ok {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				globs = append(globs, line)
			}
		}
		delete(files, tf)
		break
	}
	values := map[string]string{
		"REPO_NAME": vars.RepoName, "REPO_OWNER": vars.RepoOwner, "REPO_DESCRIPTION": vars.RepoDescription,
		"TEMPLATE_NAME": vars.TemplateName, "TEMPLATE_OWNER": vars.TemplateOwner, "TEMPLATE_DESCRIPTION": vars.TemplateDescription,
	}
	expand := func(s string) string {
		return os.Expand(s, func(k string) string {
			if v, ok := values[k]; ok {
				return v
			}
			return "${" + k + "}"
		})
	}
	outOrder := make([]string, 0, len(order))
	out := make(map[string][]byte, len(files))
	for _, p := range order {
		b, ok := files[p]
		if !ok {
			continue
		}
		if matchesAny(globs, p) {
			b = []byte(expand(string(b)))
			if np, err := CleanTreePath(expand(p)); err == nil && np != "" {
				if _, taken := out[np]; !taken {
					p = np
				}
			}
		}
		if _, dup := out[p]; dup {
			continue
		}
		out[p] = b
		outOrder = append(outOrder, p)
	}
	return outOrder, out
}

func matchesAny(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, p); ok {
			return true
		}
	}
	return false
}

// authorizeGenerate is Authorize's probe of its operations: it returns nil when actor may generate from the template
// tOwner/tName at all, else the error Generate returns first (a signed-in
// actor, write:repository, the template's code readable). It changes
// nothing.
func (s *Service) authorizeGenerate(ctx context.Context, actor forge.Actor, tOwner, tName string) error {
	if !actor.IsSignedIn() {
		return forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	_, err := s.reader(ctx, actor, tOwner, tName)
	return err
}

// DiscardGenerated deletes owner/name, a repository the actor has just
// generated, when what the caller copies after Generate (labels,
// webhooks) failed: under Generate's scope (write:repository), for an
// administrator of it, as its creator is. Otherwise as Delete.
func (s *Service) DiscardGenerated(ctx context.Context, actor forge.Actor, owner, name string) error {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return err
	}
	var repo *forge.Repository
	if err := s.store.View(ctx, func(tx Tx) error {
		v, err := resolve(ctx, tx, actor, owner, name)
		if err != nil {
			return err
		}
		if err := requireAdmin(v); err != nil {
			return err
		}
		repo = v.Repo
		return nil
	}); err != nil {
		return err
	}
	return s.deleteRepo(ctx, actor, repo)
}
