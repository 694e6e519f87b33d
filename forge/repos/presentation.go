package repos

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Presentation is everything the API form of a repository shows (Forgejo's
// convert.ToRepo), read for one actor: the repository as the actor sees
// it, what it relates to, the issue counters of it and of its parent, and
// its pull-mirror fields. Converting it is a pure function.
type Presentation struct {
	View    *View
	Related Related
	// Counts are the repository's issue and pull request counters,
	// ParentCounts those of Related.Parent (zero without a parent).
	Counts, ParentCounts IssueCounts
	// Mirror is set when the repository is a pull mirror.
	Mirror *MirrorFields
}

// IssueCounts are a repository's numbers of open and closed issues and
// pull requests (open_issues_count and open_pr_counter).
type IssueCounts struct {
	OpenIssues, ClosedIssues, OpenPulls, ClosedPulls int64
}

// MirrorFields is what the API form of a pull mirror shows: mirror,
// mirror_interval, mirror_updated and original_url.
type MirrorFields struct {
	Interval time.Duration
	// Updated is the end of the last successful sync; zero if never.
	Updated time.Time
	// OriginalURL is the remote address without credentials.
	OriginalURL string
}

// IssueCounter is the port the presentation reads issue counters through
// (Config.IssueCounts; issues.NewRepoCounter is one). It is trusted: it
// checks nothing, and is called only with the ids of repositories the
// actor has been found to see, in one call per read.
type IssueCounter interface {
	RepoIssueCounts(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]IssueCounts, error)
}

// PullMirrorReader is the port the presentation reads pull-mirror fields
// through (Config.PullMirrors); repositories that are not pull mirrors
// have no entry. Trusted as IssueCounter is, called once per read.
type PullMirrorReader interface {
	PullMirrorFields(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]MirrorFields, error)
}

// Present is the presentation of owner/name for the actor: GetRelated
// (same errors, same cache) with the issue counters of the repository and
// its parent (one call of Config.IssueCounts) and its pull-mirror fields
// (one call of Config.PullMirrors). Every error is returned: a
// presentation is whole or absent.
func (s *Service) Present(ctx context.Context, actor forge.Actor, owner, name string) (*Presentation, error) {
	v, rel, err := s.GetRelated(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	out, err := s.present(ctx, []*View{v}, map[forge.ID]Related{v.Repo.ID: rel})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// PresentAll is the presentation of a page of repositories for the actor,
// in the order of views, at a fixed cost whatever the page's length: one
// read transaction of the repository store (RelatedOf's), one call of each
// port. Only the ids of views are trusted: each repository is loaded and
// the actor's permission computed from what is stored, and a repository
// the actor may not read (or that is missing, being created or deleted)
// is presented from its view alone (no related data, counters or mirror
// fields). A credential that does not grant read:repository (listing
// starred repositories under read:user) sees the counters and mirror
// fields of the repositories it may read but nothing they relate to. An
// account that may not act gets forge.Actor.CheckState's error; other
// errors are the store's and the ports'.
func (s *Service) PresentAll(ctx context.Context, actor forge.Actor, views []*View) ([]Presentation, error) {
	if err := actor.CheckState(); err != nil {
		return nil, err
	}
	ids := make([]forge.ID, len(views))
	for i, v := range views {
		ids[i] = v.Repo.ID
	}
	withRelated := actor.Check(forge.AccessRead, forge.CategoryRepository) == nil
	rels, err := s.relatedOf(ctx, actor, ids, withRelated)
	if err != nil {
		return nil, err
	}
	return s.present(ctx, views, rels)
}

// present assembles the presentations of views, of which rels holds the
// ones the actor may read (with what they relate to): the ports are asked
// for those only.
func (s *Service) present(ctx context.Context, views []*View, rels map[forge.ID]Related) ([]Presentation, error) {
	var readable, counted []forge.ID
	for _, v := range views {
		rel, ok := rels[v.Repo.ID]
		if !ok {
			continue
		}
		readable = append(readable, v.Repo.ID)
		counted = append(counted, v.Repo.ID)
		if rel.Parent != nil {
			counted = append(counted, rel.Parent.Repo.ID)
		}
	}
	var (
		counts  map[forge.ID]IssueCounts
		mirrors map[forge.ID]MirrorFields
		err     error
	)
	if s.cfg.IssueCounts != nil && len(counted) > 0 {
		if counts, err = s.cfg.IssueCounts.RepoIssueCounts(ctx, counted); err != nil {
			return nil, err
		}
	}
	if s.cfg.PullMirrors != nil && len(readable) > 0 {
		if mirrors, err = s.cfg.PullMirrors.PullMirrorFields(ctx, readable); err != nil {
			return nil, err
		}
	}
	out := make([]Presentation, len(views))
	for i, v := range views {
		out[i].View = v
		rel, ok := rels[v.Repo.ID]
		if !ok {
			continue
		}
		out[i].Related, out[i].Counts = rel, counts[v.Repo.ID]
		if rel.Parent != nil {
			out[i].ParentCounts = counts[rel.Parent.Repo.ID]
		}
		if m, ok := mirrors[v.Repo.ID]; ok {
			out[i].Mirror = &m
		}
	}
	return out, nil
}
