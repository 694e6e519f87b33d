package httpapi

import (
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// repositoryJSON is Forgejo's Repository, generated from its document. The
// alias keeps handlers written against the hand-written struct compiling;
// new code names wire.Repository.
type repositoryJSON = wire.Repository

// repoURL is the web URL of a repository.
func (c *call) repoURL(r *forge.Repository) string { return convert.RepoWebURL(c.rootURL(), r) }

// repoAPIURL is the API URL of a repository.
func (c *call) repoAPIURL(r *forge.Repository) string { return convert.RepoAPIURL(c.rootURL(), r) }

// toRepo converts one repository view as Forgejo's convert.ToRepo, from
// its presentation (toRepos).
func (c *call) toRepo(v *repos.View) (wire.Repository, error) {
	out, err := c.toRepos([]*repos.View{v})
	if err != nil {
		return wire.Repository{}, err
	}
	return out[0], nil
}

// writeRepo answers status with the repository v as toRepo converts it,
// or the error of its presentation.
func (c *call) writeRepo(status int, v *repos.View) {
	out, err := c.toRepo(v)
	if err != nil {
		c.writeError(err)
		return
	}
	c.jsonRepository(status, &out)
}

// toRepos converts a page of repository views: one domain read of their
// presentation (repos.Service.PresentAll: what they relate to, their
// issue counters and mirror fields, at a fixed cost whatever the page's
// length), then pure conversions. The read's errors are returned.
func (c *call) toRepos(list []*repos.View) ([]wire.Repository, error) {
	ps, err := c.a.cfg.Repos.PresentAll(c.r.Context(), c.actor, list)
	if err != nil {
		return nil, err
	}
	root := c.rootURL()
	out := make([]wire.Repository, len(ps))
	for i := range ps {
		out[i] = c.presented(root, &ps[i])
	}
	return out, nil
}

// presented converts one presented repository (convert.Presented), with
// its ssh_url when git is served over SSH (Forgejo's repo.CloneLink).
func (c *call) presented(root string, p *repos.Presentation) wire.Repository {
	out := convert.Presented(root, p, c.toUser)
	if u := c.a.cfg.SSHURL; u != nil {
		out.SSHURL = u.URL(out.Owner.UserName, out.Name)
	}
	return out
}
