package issues

import (
	"context"
	"io"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// pullRange is the commits a pull request's diff spans in its base
// repository: from the merge base (for the diff) or the base branch's tip
// (for the commits; the stored merge base once merged) to the head.
type pullRange struct {
	a       *access
	pr      *PullRequest
	base    string // base branch tip, or merge base when merged or gone
	head    string
	mergeBs string
}

func (s *Service) pullRange(ctx context.Context, actor forge.Actor, owner, repo string, index int64) (*pullRange, error) {
	a, err := s.openPulls(ctx, actor, owner, repo, forge.AccessRead)
	if err != nil {
		return nil, err
	}
	var pr *PullRequest
	if err := s.store.View(ctx, func(tx Tx) error {
		_, pr, err = a.pull(ctx, tx, index)
		return err
	}); err != nil {
		return nil, err
	}
	r := &pullRange{a: a, pr: pr, head: pr.HeadCommitID, mergeBs: pr.MergeBase, base: pr.MergeBase}
	if !pr.HasMerged {
		if tip := s.branchTip(ctx, a, pr.BaseBranch); tip != "" {
			r.base = tip
		}
	}
	if r.head == "" || r.base == "" {
		return nil, pullNotFound()
	}
	if r.mergeBs == "" {
		r.mergeBs = r.base
	}
	return r, nil
}

// PullDiff writes the diff (kind "diff", "binary" with binary) or the
// patch (kind "patch") of pull request index, from its merge base to its
// head, to w. forge.ErrNotFound for another kind.
func (s *Service) PullDiff(ctx context.Context, actor forge.Actor, owner, repo string, index int64, kind string, binary bool, w io.Writer) error {
	if kind != "diff" && kind != "patch" {
		return notFound()
	}
	r, err := s.pullRange(ctx, actor, owner, repo, index)
	if err != nil {
		return err
	}
	if kind == "diff" && binary {
		kind = "binary"
	}
	from := r.mergeBs
	if kind == "patch" {
		from = r.base
	}
	return s.cfg.Pulls.Git.Diff(ctx, r.a.repo.ID, from, r.head, kind, w)
}

// PullFiles returns one page of the files pull request index changes
// (merge base to head, renames found; statuses added, deleted, renamed,
// changed), starting after opt.SkipTo when given, and their number.
func (s *Service) PullFiles(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt PullFilesOption) (*PullFilesView, error) {
	r, err := s.pullRange(ctx, actor, owner, repo, index)
	if err != nil {
		return nil, err
	}
	files, err := s.cfg.Pulls.Git.DiffFiles(ctx, r.a.repo.ID, r.mergeBs, r.head)
	if err != nil {
		return nil, err
	}
	if opt.SkipTo != "" {
		for k, f := range files {
			if f.Filename == opt.SkipTo {
				files = files[k:]
				break
			}
		}
	}
	o := opt.ListOptions.Normalize()
	v := &PullFilesView{Repo: r.a.repo, HeadCommitID: r.head, Total: int64(len(files)), Files: []PullFile{}}
	for _, f := range forge.Page(files, o) {
		v.Files = append(v.Files, PullFile{Filename: f.Filename, PreviousFilename: f.PreviousFilename, Status: f.Status,
			Additions: f.Additions, Deletions: f.Deletions})
	}
	return v, nil
}

// PullCommits returns one page of the commits of pull request index
// (base branch..head, or merge base..head once merged; newest first;
// limit default 30, max 50), each with its files and line stats
// (repos.md §8: the stats are always there, so the commits always carry
// their Files; the JSON shows `files` only with opt.Files — the
// converter's choice — and CommitStats gives `stats`).
func (s *Service) PullCommits(ctx context.Context, actor forge.Actor, owner, repo string, index int64, opt PullCommitsOption) (*PullCommitsView, error) {
	r, err := s.pullRange(ctx, actor, owner, repo, index)
	if err != nil {
		return nil, err
	}
	o := opt.ListOptions.Normalize()
	list, total, err := s.cfg.Pulls.Git.Compare(ctx, r.a.repo.ID, r.base, r.head, repos.LogOptions{Skip: o.Offset(), Limit: o.Limit, Files: true})
	if err != nil {
		return nil, err
	}
	v := &PullCommitsView{Repo: r.a.repo, Commits: list, Total: int64(total), Users: map[string]*forge.User{}}
	if v.Commits == nil {
		v.Commits = []*repos.Commit{}
	}
	return v, nil
}

// CommitStats sums a commit's line counts (the JSON's stats).
func CommitStats(c *repos.Commit) (total, additions, deletions int) {
	for _, f := range c.Files {
		additions += f.Additions
		deletions += f.Deletions
	}
	return additions + deletions, additions, deletions
}

// Compare returns the commits (newest first) and files between basehead,
// "base...head" or "base..head" where head may be "owner:branch"
// (read:repository, read on code). forge.ErrNotFound for an unknown
// branch or repository or a malformed basehead.
func (s *Service) Compare(ctx context.Context, actor forge.Actor, owner, repo, basehead string) (*CompareView, error) {
	if !s.pullsEnabled() {
		return nil, notFound()
	}
	if err := actor.Check(forge.AccessRead, forge.CategoryRepository); err != nil {
		return nil, err
	}
	rp, perm, err := s.repos.RepoAccess(ctx, actor, owner, repo)
	if err != nil {
		return nil, err
	}
	if !perm.CanRead(forge.UnitCode) {
		return nil, notFound()
	}
	a := &access{actor: actor, repo: rp, perm: perm}
	base, head, ok := strings.Cut(basehead, "...")
	if !ok {
		base, head, ok = strings.Cut(basehead, "..")
	}
	if !ok || base == "" || head == "" {
		return nil, notFound()
	}
	h, ok := parseHead(head)
	if !ok {
		return nil, notFound()
	}
	hr, _, err := s.headRepo(ctx, a, h)
	if err != nil {
		return nil, err
	}
	baseTip := s.branchTip(ctx, a, base)
	if baseTip == "" {
		return nil, forge.Errorf(forge.ErrNotFound, "could not find '%s' to be a commit, branch or tag in the base repository %s", base, rp.FullName())
	}
	heads := a
	if hr.ID != rp.ID {
		heads = &access{actor: actor, repo: hr}
	}
	headTip := s.branchTip(ctx, heads, h.branch)
	if headTip == "" {
		return nil, forge.Errorf(forge.ErrNotFound, "could not find '%s' to be a commit, branch or tag in the head repository %s", h.branch, hr.FullName())
	}
	list, total, files, err := s.compareTips(ctx, rp, hr, h.branch, baseTip, headTip)
	if err != nil {
		return nil, err
	}
	v := &CompareView{Repo: rp, TotalCommits: total, Commits: list, Users: map[string]*forge.User{}, Files: []PullFile{}}
	if v.Commits == nil {
		v.Commits = []*repos.Commit{}
	}
	for _, f := range files {
		st := f.Status
		if st == "changed" {
			st = "modified"
		}
		v.Files = append(v.Files, PullFile{Filename: f.Filename, PreviousFilename: f.PreviousFilename, Status: st,
			Additions: f.Additions, Deletions: f.Deletions})
	}
	return v, nil
}
