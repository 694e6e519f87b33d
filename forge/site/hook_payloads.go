package site

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
	"github.com/hearthforge/hearth/issues"
)

// Push payload limits.
const (
	// MaxPayloadCommits is how many commits a push payload lists (Forgejo's
	// [ui] FEED_MAX_COMMIT_NUM default); total_commits counts them all.
	MaxPayloadCommits = 5
	// MaxNewRefCommits is how many commits are read for a reference the
	// push creates (Forgejo's CommitsBeforeLimit(10)).
	MaxNewRefCommits = 10
)

// Accounts reads accounts by id whoever asks (repos.Ports.UsersByID): the
// users webhook payloads show.
type Accounts interface {
	UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error)
}

// Presenter presents a repository as the API's answer shows it
// (repos.Ports.Present): counters and mirror fields.
type Presenter interface {
	Present(ctx context.Context, v *repos.View, rel repos.Related) (*repos.Presentation, error)
}

// PushCommitReader reads the commits a reference update brings, for push
// payloads.
type PushCommitReader interface {
	// PushCommits returns, newest first, the commits of repo reachable
	// from newID and not from oldID (for a created reference, oldID is
	// zero: the latest commits of newID), at most limit of them with their
	// files, and how many there are in all (the implementation may bound
	// its count).
	PushCommits(ctx context.Context, repo forge.ID, oldID, newID string, limit int) ([]*repos.Commit, int, error)
}

// HookPayloads builds the webhook payloads of events as Forgejo's notifier
// (services/webhook/notifier.go) does, with httpapi/convert, the converter
// of the API's answers: the repository as convert.ToRepo with the owner's
// access, the users as nobody signed in sees them (the receiver is whoever
// a repository administrator named), the issue, pull request, comment and
// release as the API shows them. It is the hooks.TestPayloads of the
// site's webhook service.
type HookPayloads struct {
	// RootURL is the forge's public URL ending in "/".
	RootURL string
	// SSHURL makes the repositories' ssh_url when git is served over SSH
	// (nil: none).
	SSHURL *httpapi.SSHCloneURL
	// Accounts reads the users payloads show (required).
	Accounts Accounts
	// Repos reads the parent of a fork (repos.Ports.RepoByID). Nil: no
	// repository object shows its parent.
	Repos RepoReader
	// Presenter reads a repository's counters and mirror fields
	// (repos.Ports.Present). Nil: payload repositories show them zero.
	Presenter Presenter
	// Commits reads the commits of pushes. Nil: push payloads list none.
	Commits PushCommitReader
	// Logger receives a line per read that failed (the payload is sent
	// without what it could not read). Nil discards.
	Logger *slog.Logger
}

var _ hooks.TestPayloads = (*HookPayloads)(nil)

func (p *HookPayloads) log() *slog.Logger {
	if p.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return p.Logger
}

// users reads the accounts of ids; those that cannot be read are missing.
func (p *HookPayloads) users(ctx context.Context, ids ...forge.ID) map[forge.ID]*forge.User {
	us, err := p.Accounts.UsersByID(ctx, ids)
	if err != nil {
		p.log().Warn("webhook payload: users not read", "err", err)
	}
	if us == nil {
		us = map[forge.ID]*forge.User{}
	}
	return us
}

// user converts u for a payload (nil for nil).
func (p *HookPayloads) user(u *forge.User) *wire.User { return convert.PayloadUser(p.RootURL, u) }

// repo converts r with its owner among us, and the parent of a fork with
// its owner (read here).
func (p *HookPayloads) repo(ctx context.Context, r *forge.Repository, us map[forge.ID]*forge.User) *wire.Repository {
	var parent *repos.View
	if r.ForkID != 0 && p.Repos != nil {
		if pr, err := p.Repos.RepoByID(ctx, r.ForkID); err == nil {
			owner := us[pr.OwnerID]
			if owner == nil {
				owner = p.users(ctx, pr.OwnerID)[pr.OwnerID]
			}
			if owner == nil {
				owner = &forge.User{ID: pr.OwnerID, Name: pr.OwnerName}
			}
			parent = &repos.View{Repo: pr, Owner: owner, Perm: forge.Permission{Mode: forge.AccessModeOwner}}
		} else if !errors.Is(err, forge.ErrNotFound) {
			p.log().Warn("webhook payload: parent repository not read", "repo", r.FullName(), "err", err)
		}
	}
	if p.Presenter != nil {
		owner := us[r.OwnerID]
		if owner == nil {
			owner = &forge.User{ID: r.OwnerID, Name: r.OwnerName}
		}
		v := &repos.View{Repo: r, Owner: owner, Perm: forge.Permission{Mode: forge.AccessModeOwner}}
		pr, err := p.Presenter.Present(ctx, v, repos.Related{Parent: parent})
		if err == nil {
			out := convert.Presented(p.RootURL, pr, func(u *forge.User) wire.User { return convert.PayloadOwner(p.RootURL, u) })
			return p.withSSHURL(&out)
		}
		p.log().Warn("webhook payload: repository presentation not read", "repo", r.FullName(), "err", err)
	}
	return p.withSSHURL(convert.PayloadRepository(p.RootURL, r, us[r.OwnerID], parent))
}

// withSSHURL sets out's ssh_url when git is served over SSH.
func (p *HookPayloads) withSSHURL(out *wire.Repository) *wire.Repository {
	if p.SSHURL != nil && out != nil {
		out.SSHURL = p.SSHURL.URL(out.Owner.UserName, out.Name)
	}
	return out
}

// Refs builds the create, delete and push payloads of a push's reference
// updates (hooks.RefEvents says which each sends).
func (p *HookPayloads) Refs(ctx context.Context, actor forge.Actor, r *forge.Repository, updates []hooks.RefUpdate) []hooks.RefPayloads {
	us := p.users(ctx, r.OwnerID)
	repo, sender := p.repo(ctx, r, us), p.user(actor.User)
	out := make([]hooks.RefPayloads, len(updates))
	for i, u := range updates {
		kind, short := hooks.RefKind(u.Ref)
		create, del, push := hooks.RefEvents(u)
		rp := hooks.RefPayloads{Update: u}
		if create {
			rp.Create = convert.CreatePayload{SHA: u.NewID, Ref: short, RefType: kind, Repo: repo, Sender: sender}
		}
		if del {
			rp.Delete = convert.DeletePayload{Ref: short, RefType: kind, PusherType: "user", Repo: repo, Sender: sender}
		}
		if push {
			pp := convert.PushPayload{Ref: u.Ref, Before: u.OldID, After: u.NewID, Commits: []*wire.PayloadCommit{},
				Repo: repo, Pusher: sender, Sender: sender}
			if !hooks.IsZeroID(u.OldID) {
				pp.CompareURL = repo.HTMLURL + "/compare/" + u.OldID + "..." + u.NewID
			}
			p.pushCommits(ctx, r, u, &pp)
			rp.Push = pp
		}
		out[i] = rp
	}
	return out
}

// pushCommits fills pp's commits, total_commits and head_commit for the
// update u of r. A failed read leaves the lists empty (the event is still
// worth sending) and is logged.
func (p *HookPayloads) pushCommits(ctx context.Context, r *forge.Repository, u hooks.RefUpdate, pp *convert.PushPayload) {
	if p.Commits == nil || hooks.IsZeroID(u.NewID) {
		return
	}
	limit := MaxPayloadCommits
	if hooks.IsZeroID(u.OldID) {
		limit = MaxNewRefCommits
	}
	list, total, err := p.Commits.PushCommits(ctx, r.ID, u.OldID, u.NewID, limit)
	if err != nil {
		p.log().Warn("webhook payload: pushed commits not read", "repo", r.FullName(), "ref", u.Ref, "err", err)
		return
	}
	if len(list) > MaxPayloadCommits {
		list = list[:MaxPayloadCommits]
	}
	for _, c := range list {
		pp.Commits = append(pp.Commits, convert.PayloadCommit(p.RootURL, r, c))
	}
	pp.TotalCommits = total
	if len(pp.Commits) > 0 {
		pp.HeadCommit = pp.Commits[0]
	}
}

// TestPush is the push payload of a test delivery (Forgejo's TestHook):
// the head commit of rev as before, after and the one commit.
func (p *HookPayloads) TestPush(ctx context.Context, actor forge.Actor, r *forge.Repository, ref, rev string) (any, error) {
	us := p.users(ctx, r.OwnerID)
	sender := p.user(actor.User)
	pp := convert.PushPayload{Ref: ref, Commits: []*wire.PayloadCommit{}, Repo: p.repo(ctx, r, us), Pusher: sender, Sender: sender}
	if p.Commits == nil {
		return pp, nil
	}
	list, _, err := p.Commits.PushCommits(ctx, r.ID, "", rev, 1)
	if errors.Is(err, forge.ErrNotFound) || err == nil && len(list) == 0 {
		return nil, forge.Errorf(forge.ErrNotFound, "hooks: no commit %q in %s", rev, r.FullName())
	} else if err != nil {
		return nil, err
	}
	head := convert.PayloadCommit(p.RootURL, r, list[0])
	pp.Before, pp.After = head.ID, head.ID
	pp.CompareURL = pp.Repo.HTMLURL + "/compare/" + head.ID + "..." + head.ID
	pp.Commits, pp.HeadCommit, pp.TotalCommits = []*wire.PayloadCommit{head}, head, 1
	return pp, nil
}

// Repository is the repository event of r with action ("created",
// "deleted"): organization is r's owner when it is an organisation.
func (p *HookPayloads) Repository(ctx context.Context, actor forge.Actor, r *forge.Repository, action string) convert.RepositoryPayload {
	us := p.users(ctx, r.OwnerID)
	out := convert.RepositoryPayload{Action: action, Repository: p.repo(ctx, r, us), Sender: p.user(actor.User)}
	if o := us[r.OwnerID]; o != nil && o.Type == forge.UserTypeOrganization {
		out.Organization = p.user(o)
	}
	return out
}

// Fork is the fork event of parent forked as fork and, for a fork into an
// organisation, the repository event "created" of the fork (nil
// otherwise), as Forgejo's notifier.
func (p *HookPayloads) Fork(ctx context.Context, actor forge.Actor, parent, fork *forge.Repository) (payload, created any) {
	us := p.users(ctx, parent.OwnerID, fork.OwnerID)
	payload = convert.ForkPayload{Forkee: p.repo(ctx, parent, us), Repo: p.repo(ctx, fork, us), Sender: p.user(actor.User)}
	if o := us[fork.OwnerID]; o != nil && o.Type == forge.UserTypeOrganization {
		created = p.Repository(ctx, actor, fork, "created")
	}
	return payload, created
}

// issueConv converts issues, comments and pull requests for payloads: every
// user as nobody signed in sees them, the repositories of pulls (base and
// head) by id.
func (p *HookPayloads) issueConv(repos map[forge.ID]*wire.Repository) convert.Pulls {
	anon := func(u *forge.User) wire.User { return *p.user(u) }
	pc := convert.Pulls{Issues: convert.Issues{Root: p.RootURL, AsDoer: anon, AsAnon: anon}, Repos: map[forge.ID]wire.Repository{}}
	for id, r := range repos {
		pc.Repos[id] = *r
	}
	return pc
}

// Issue is the issues event of the issue of v with action, changes for an
// edit.
func (p *HookPayloads) Issue(ctx context.Context, actor forge.Actor, v *issues.IssueView, action string, ch *convert.ChangesPayload) convert.IssuePayload {
	us := p.users(ctx, v.Repo.OwnerID)
	is := p.issueConv(nil).Issue(v)
	return convert.IssuePayload{Action: action, Number: v.Issue.Index, Changes: ch, Issue: &is, Repository: p.repo(ctx, v.Repo, us),
		Sender: p.user(actor.User)}
}

// Comment is the issue_comment event of the comment c (its poster among
// the accounts read) on the issue of v with action, changes for an edit.
func (p *HookPayloads) Comment(ctx context.Context, actor forge.Actor, v *issues.IssueView, c *issues.Comment, action string, ch *convert.ChangesPayload) convert.IssueCommentPayload {
	us := p.users(ctx, v.Repo.OwnerID, c.PosterID)
	ic := p.issueConv(nil)
	is := ic.Issue(v)
	cm := ic.Comment(&issues.CommentView{Comment: c, Issue: v.Issue, Repo: v.Repo, Poster: us[c.PosterID]})
	return convert.IssueCommentPayload{Action: action, Issue: &is, Comment: &cm, Changes: ch, Repository: p.repo(ctx, v.Repo, us),
		Sender: p.user(actor.User), IsPull: v.Issue.IsPull}
}

// Pull is the pull_request event of the pull request of v with action,
// changes for an edit; commit_id is the merge commit of a merge.
func (p *HookPayloads) Pull(ctx context.Context, actor forge.Actor, v *issues.PullView, action string, ch *convert.ChangesPayload) convert.PullRequestPayload {
	ids := []forge.ID{v.Repo.OwnerID}
	if v.HeadRepo != nil {
		ids = append(ids, v.HeadRepo.OwnerID)
	}
	us := p.users(ctx, ids...)
	base := p.repo(ctx, v.Repo, us)
	rs := map[forge.ID]*wire.Repository{v.Repo.ID: base}
	if h := v.HeadRepo; h != nil && h.ID != v.Repo.ID {
		rs[h.ID] = p.repo(ctx, h, us)
	}
	pr := p.issueConv(rs).Pull(v)
	out := convert.PullRequestPayload{Action: action, Number: v.Issue.Index, Changes: ch, PullRequest: &pr, Repository: base,
		Sender: p.user(actor.User)}
	if v.Pull.HasMerged && action == hooks.ActionClosed {
		out.CommitID = v.Pull.MergedCommitID
	}
	return out
}

// Release is the release event of rel of r with action.
func (p *HookPayloads) Release(ctx context.Context, actor forge.Actor, r *forge.Repository, rel *repos.Release, action string) convert.ReleasePayload {
	us := p.users(ctx, r.OwnerID, rel.AuthorID)
	out := convert.Release(p.RootURL, r, rel, p.user(us[rel.AuthorID]))
	return convert.ReleasePayload{Action: action, Release: &out, Repository: p.repo(ctx, r, us), Sender: p.user(actor.User)}
}
