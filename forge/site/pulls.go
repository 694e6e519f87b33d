package site

import (
	"context"
	"log/slog"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// pullPushes is the outbox consumer of ref moves (repos.OutboxPush) for
// pull requests: issues.Ports.AfterPush synchronises the heads, marks
// reviews stale, dismisses approvals, retargets or closes on a branch
// deleted. It is idempotent (a pull request whose stored head is git's is
// left alone), so an error that a retry may cure (hooks.Transient) leaves
// the event pending and the dispatcher calls it again until it succeeds. A branch renamed is not a branch
// gone: its deletion is not handed on (its pull requests stay open, as
// before the outbox).
type pullPushes struct {
	ports *issues.Ports
	log   *slog.Logger
}

func (p *pullPushes) consume(ctx context.Context, e repos.OutboxEvent) error {
	updates := e.Updates
	if e.Rename != nil {
		updates = nil
		for _, u := range e.Updates {
			if u.Ref != "refs/heads/"+e.Rename.From {
				updates = append(updates, u)
			}
		}
	}
	err := p.ports.AfterPush(ctx, e.Actor, e.Repo, updates)
	if err != nil {
		p.log.Info("outbox: pull requests after a ref move", "repo", e.Repo.FullName(), "err", err)
	}
	// A pull request the pusher may not see, or gone, will not change by
	// trying again; a store or git failure may.
	return hooks.Transient(err)
}

// pullChecks is the outbox consumer of commit statuses
// (repos.OutboxStatus): issues.Ports.ChecksChanged merges the pull
// requests scheduled to merge when their checks succeed whose head is the
// commit, as Forgejo's automerge does on a status. A merge still refused
// stays scheduled; a failure a retry may cure leaves the event pending.
type pullChecks struct {
	ports *issues.Ports
	log   *slog.Logger
}

func (p *pullChecks) consume(ctx context.Context, e repos.OutboxEvent) error {
	if e.Status == nil {
		return nil
	}
	merged, err := p.ports.ChecksChanged(ctx, e.Repo, e.Status.SHA)
	if len(merged) > 0 {
		p.log.Info("outbox: scheduled pull requests merged", "repo", e.Repo.FullName(), "pulls", merged)
	}
	if err != nil {
		p.log.Info("outbox: scheduled merges after a commit status", "repo", e.Repo.FullName(), "err", err)
	}
	return hooks.Transient(err)
}
