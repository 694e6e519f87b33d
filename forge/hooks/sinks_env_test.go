package hooks_test

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/issues"
)

// testRoot is the root URL of the tests' payloads.
const testRoot = "https://forge.example/"

// sinks queues events as the composition root does: payloads built by
// site.HookPayloads, queued through the service's trusted ports.
type sinks struct {
	ports *hooks.Ports
	pay   *site.HookPayloads
}

// newSinks makes the service of cfg with its ports and the payload
// builder reading accounts from accounts; cfg.Payloads is that builder
// unless set.
func newSinks(cfg hooks.Config, accounts site.Accounts) (*hooks.Service, *sinks, error) {
	pay := &site.HookPayloads{RootURL: testRoot, Accounts: accounts}
	if cfg.Payloads == nil {
		cfg.Payloads = pay
	}
	svc, ports, err := hooks.NewWithPorts(cfg)
	if err != nil {
		return nil, nil, err
	}
	return svc, &sinks{ports: ports, pay: pay}, nil
}

func (s *sinks) pushed(ctx context.Context, actor forge.Actor, r *forge.Repository, ups []hooks.RefUpdate) error {
	return s.ports.Pushed(ctx, r, s.pay.Refs(ctx, actor, r, ups))
}

func (s *sinks) repoCreated(ctx context.Context, actor forge.Actor, r *forge.Repository) error {
	return s.ports.RepoCreated(ctx, r, s.pay.Repository(ctx, actor, r, "created"))
}

func (s *sinks) repoDeleted(ctx context.Context, actor forge.Actor, r *forge.Repository) error {
	return s.ports.RepoDeleted(ctx, r, s.pay.Repository(ctx, actor, r, "deleted"))
}

func (s *sinks) forked(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) error {
	payload, created := s.pay.Fork(ctx, actor, parent, fork)
	return s.ports.Forked(ctx, parent, fork, payload, created)
}

func (s *sinks) issueChanged(ctx context.Context, actor forge.Actor, v *issues.IssueView, action string) error {
	return s.ports.IssueChanged(ctx, v.Repo, v.Issue.IsPull, action, s.pay.Issue(ctx, actor, v, action, nil))
}

func (s *sinks) issueCommented(ctx context.Context, actor forge.Actor, v *issues.IssueView, c *issues.Comment) error {
	return s.ports.IssueCommented(ctx, v.Repo, v.Issue.IsPull, s.pay.Comment(ctx, actor, v, c, hooks.ActionCreated, nil))
}

func (s *sinks) pullChanged(ctx context.Context, actor forge.Actor, v *issues.PullView, action string) error {
	return s.ports.IssueChanged(ctx, v.Repo, true, action, s.pay.Pull(ctx, actor, v, action, nil))
}

// issueView is the view of issue is of r, posted by poster.
func issueView(r *forge.Repository, is *issues.Issue, poster *forge.User) *issues.IssueView {
	is.RepoID = r.ID
	return &issues.IssueView{Issue: is, Repo: r, Poster: poster}
}

func (s *sinks) pullReviewed(ctx context.Context, actor forge.Actor, v *issues.PullView, kind, content string) error {
	p := s.pay.Pull(ctx, actor, v, hooks.ActionReviewed, nil)
	p.Review = &convert.ReviewPayload{Type: kind, Content: content}
	return s.ports.PullReviewed(ctx, v.Repo, kind, p)
}

// pullView is the view of pull request pr of is in r (head and base), posted
// by poster, merged by merger (nil if not merged), the base branch at
// baseCommit.
func pullView(r *forge.Repository, is *issues.Issue, pr *issues.PullRequest, poster, merger *forge.User, baseCommit string) *issues.PullView {
	pr.Index, pr.BaseRepoID, pr.HeadRepoID = is.Index, r.ID, r.ID
	return &issues.PullView{IssueView: issueView(r, is, poster), Pull: pr, HeadRepo: r, BaseCommitID: baseCommit, Merger: merger,
		RequestedReviewers: []*forge.User{}, RequestedTeams: []*forge.Team{}}
}
