package site

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// FeedConsumers are the outbox consumers that write the activity feeds
// (forge/feeds): register Issues for issues.OutboxKind and Repos for the
// repository kinds (Register does both). Each
// turns an event into its feed actions (Forgejo's services/feed notifier)
// and records them with feeds.Ports.Record, keyed by the outbox event it
// handles (hooks.HandledEvent), so that a consumer retried after a crash
// writes nothing twice. A store failure leaves the event pending
// (hooks.Transient); the rest is logged and done with.
type FeedConsumers struct {
	Issues, Repos hooks.OutboxHandler
}

// feedRepoKinds are the repository event kinds the feeds consume.
var feedRepoKinds = []string{repos.OutboxRepoCreated, repos.OutboxRepoForked, repos.OutboxRelease, repos.OutboxPush}

// Register registers the consumers with d, as the consumer "feeds" of
// issues.OutboxKind and of the repository kinds they read.
func (f FeedConsumers) Register(d *hooks.Dispatcher) {
	d.Consume(issues.OutboxKind, "feeds", f.Issues)
	for _, kind := range feedRepoKinds {
		d.Consume(kind, "feeds", f.Repos)
	}
}

// ActivityFeeds returns the feed consumers writing through p; commits
// (nil: none) reads the commits of a push for the content of its
// commit_repo actions. New wires them; they are exported for hosts and
// tests that run their own dispatcher.
func ActivityFeeds(p *feeds.Ports, commits PushCommitReader, log *slog.Logger) FeedConsumers {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	record := func(ctx context.Context, actor forge.Actor, repo *forge.Repository, at time.Time, acts []feeds.Act) error {
		if len(acts) == 0 {
			return nil
		}
		handled, _ := hooks.HandledEvent(ctx)
		if at.IsZero() {
			at = handled.Created
		}
		err := p.Record(ctx, feeds.Event{EventID: handled.ID, Doer: actor.UserID(), Repo: repo, Acts: acts, At: at})
		if err != nil {
			log.WarnContext(ctx, "outbox: activity feeds", "repo", repo.ID, "err", err)
		}
		return hooks.Transient(err)
	}
	return FeedConsumers{
		Issues: issueHandler(log, "activity feeds", func(ctx context.Context, e issues.Event) error {
			return record(ctx, e.Actor, e.Repo, e.At, IssueActs(e))
		}),
		Repos: repoHandler(log, "activity feeds", func(ctx context.Context, e repos.OutboxEvent) error {
			acts := RepoActs(e)
			for i, a := range acts {
				if a.OpType != feeds.OpCommitRepo || commits == nil {
					continue
				}
				content, err := pushContent(ctx, commits, e.Repo, e.Updates[a.Update])
				if err != nil {
					log.WarnContext(ctx, "outbox: activity feeds: push commits", "repo", e.Repo.ID, "err", err)
					continue // the action without its commits rather than none
				}
				acts[i].Content = content
			}
			return record(ctx, e.Actor, e.Repo, time.Time{}, acts)
		}),
	}
}

// issueContent is the content of an issue action, as Forgejo writes it:
// the issue's index and a text, separated by "|".
func issueContent(index int64, text string) string {
	return fmt.Sprintf("%d|%s", index, text)
}

// IssueActs are the feed actions of an issue event (Forgejo's feed
// notifier: NewIssue, NewPullRequest, CreateIssueComment,
// IssueChangeStatus, MergePullRequest, PullRequestReview); none for the
// kinds that make no action (edits, labels, assignments...).
func IssueActs(e issues.Event) []feeds.Act {
	is := e.Issue
	pick := func(issue, pull feeds.OpType) feeds.OpType {
		if is.IsPull {
			return pull
		}
		return issue
	}
	var comment forge.ID
	if e.Comment != nil {
		comment = e.Comment.ID
	}
	switch e.Kind {
	case issues.EventCreate:
		return []feeds.Act{{OpType: pick(feeds.OpCreateIssue, feeds.OpCreatePullRequest), Content: issueContent(is.Index, is.Title)}}
	case issues.EventComment:
		body := ""
		if e.Comment != nil {
			body = truncateBytes(e.Comment.Body, 200)
		}
		return []feeds.Act{{OpType: pick(feeds.OpCommentIssue, feeds.OpCommentPull), CommentID: comment, Content: issueContent(is.Index, body)}}
	case issues.EventClose:
		return []feeds.Act{{OpType: pick(feeds.OpCloseIssue, feeds.OpClosePullRequest), CommentID: comment, Content: issueContent(is.Index, "")}}
	case issues.EventReopen:
		return []feeds.Act{{OpType: pick(feeds.OpReopenIssue, feeds.OpReopenPullRequest), CommentID: comment, Content: issueContent(is.Index, "")}}
	case issues.EventPullMerge:
		return []feeds.Act{{OpType: feeds.OpMergePullRequest, Content: issueContent(is.Index, is.Title)}}
	case issues.EventPullReview:
		if e.Review == nil {
			return nil
		}
		switch e.Review.Type {
		case issues.ReviewApprove:
			return []feeds.Act{{OpType: feeds.OpApprovePullRequest, CommentID: comment, Content: issueContent(is.Index, truncateBytes(e.Review.Content, 200))}}
		case issues.ReviewReject:
			return []feeds.Act{{OpType: feeds.OpRejectPullRequest, CommentID: comment, Content: issueContent(is.Index, truncateBytes(e.Review.Content, 200))}}
		}
	}
	return nil
}

// RepoActs are the feed actions of a repository event: a repository
// created or forked (create_repo), a release published (publish_release:
// created, or a draft made public), and each branch or tag a push moved
// (commit_repo, delete_branch, push_tag, delete_tag; other references,
// and a branch renamed, make none).
func RepoActs(e repos.OutboxEvent) []feeds.Act {
	switch {
	case e.Release != nil:
		r := e.Release
		if r.Release == nil || r.Release.Draft {
			return nil
		}
		if r.Op == repos.ReleaseCreated || r.Op == repos.ReleaseEdited && r.WasDraft {
			return []feeds.Act{{OpType: feeds.OpPublishRelease, RefName: r.Release.TagName, Content: r.Release.Name}}
		}
		return nil
	case e.Rename != nil:
		return nil
	case e.Updates != nil:
		var out []feeds.Act
		for i, u := range e.Updates {
			gone := strings.Trim(u.NewID, "0") == ""
			switch {
			case strings.HasPrefix(u.Ref, "refs/heads/") && gone:
				out = append(out, feeds.Act{OpType: feeds.OpDeleteBranch, RefName: u.Ref})
			case strings.HasPrefix(u.Ref, "refs/heads/"):
				out = append(out, feeds.Act{OpType: feeds.OpCommitRepo, RefName: u.Ref, Update: i})
			case strings.HasPrefix(u.Ref, "refs/tags/") && gone:
				out = append(out, feeds.Act{OpType: feeds.OpDeleteTag, RefName: u.Ref})
			case strings.HasPrefix(u.Ref, "refs/tags/"):
				out = append(out, feeds.Act{OpType: feeds.OpPushTag, RefName: u.Ref})
			}
		}
		return out
	case e.Status != nil:
		return nil
	}
	return []feeds.Act{{OpType: feeds.OpCreateRepo}}
}

// feedMaxCommits is how many commits a commit_repo action lists
// (Forgejo's [ui] FEED_MAX_COMMIT_NUM).
const feedMaxCommits = 5

// pushCommit and pushCommitList are the JSON of a commit_repo action's
// content: Forgejo's repository.PushCommit and PushCommits, marshalled
// with their Go field names as Forgejo does.
type pushCommit struct {
	Sha1           string
	Message        string
	AuthorEmail    string
	AuthorName     string
	CommitterEmail string
	CommitterName  string
	Timestamp      time.Time
}

type pushCommitList struct {
	Commits    []*pushCommit
	HeadCommit *pushCommit
	CompareURL string
	Len        int
}

// pushContent is the content of the commit_repo action of u, as
// Forgejo's push handling makes it: the newest feedMaxCommits commits it
// brings (of a new branch: of its last MaxNewRefCommits), its head
// commit, the compare path of an update of an existing branch, and how
// many commits it brings (of a new branch, at most MaxNewRefCommits).
func pushContent(ctx context.Context, commits PushCommitReader, repo *forge.Repository, u repos.RefUpdate) (string, error) {
	limit := feedMaxCommits
	if hooks.IsZeroID(u.OldID) {
		limit = MaxNewRefCommits // Forgejo reads the last 10 commits of a new reference
	}
	list, total, err := commits.PushCommits(ctx, repo.ID, u.OldID, u.NewID, limit)
	if err != nil {
		return "", err
	}
	if hooks.IsZeroID(u.OldID) {
		total = len(list)
	}
	list = list[:min(len(list), feedMaxCommits)]
	out := pushCommitList{Commits: []*pushCommit{}, Len: total}
	for _, c := range list {
		out.Commits = append(out.Commits, &pushCommit{Sha1: c.ID, Message: c.Message, AuthorEmail: c.Author.Email,
			AuthorName: c.Author.Name, CommitterEmail: c.Committer.Email, CommitterName: c.Committer.Name, Timestamp: c.Author.When})
	}
	if len(out.Commits) > 0 && out.Commits[0].Sha1 == u.NewID {
		out.HeadCommit = out.Commits[0]
	}
	if !hooks.IsZeroID(u.OldID) {
		out.CompareURL = repo.OwnerName + "/" + repo.Name + "/compare/" + u.OldID + "..." + u.NewID
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// truncateBytes is s cut to at most n bytes on a rune boundary (Forgejo's
// util.SplitStringAtByteN for the feed's comment text).
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TeamRepos lists a team's repositories for forge/feeds (feeds.Teams)
// through orgs.Service.ListTeamRepos, which checks the team membership
// (Forgejo's reqTeamMembership) and read:organization. New wires it; it
// is exported for hosts and tests that build the feed service.
type TeamRepos struct{ Orgs *orgs.Service }

// TeamRepoIDs implements feeds.Teams.
func (t TeamRepos) TeamRepoIDs(ctx context.Context, actor forge.Actor, team forge.ID) (*forge.User, []forge.ID, error) {
	var org *forge.User
	ids := []forge.ID{}
	for page := 1; ; page++ {
		got, err := t.Orgs.ListTeamRepos(ctx, actor, team, forge.ListOptions{Page: page, Limit: forge.MaxPageSize})
		if err != nil {
			return nil, nil, err
		}
		org = got.Org
		for _, r := range got.Repos {
			ids = append(ids, r.ID)
		}
		if len(got.Repos) < forge.MaxPageSize || int64(len(ids)) >= got.Total {
			return org, ids, nil
		}
	}
}
