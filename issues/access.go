package issues

import (
	"context"
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// ErrBadRequest marks the forge.ErrInvalid refusals Forgejo answers with
// 400 rather than 422 (`The due_date cannot be empty`).
var ErrBadRequest = errors.New("bad request")

// msgNotFound is Forgejo's default not-found message.
const msgNotFound = "The target couldn't be found."

// access is a repository and the actor's permission on it, as an
// operation on its issues uses them.
type access struct {
	actor forge.Actor
	repo  *forge.Repository
	perm  forge.Permission
	// held is the repository service's resolution of repo for actor, when
	// the operation resolved it through PullRepos (openPulls): the pull
	// request workflows read branches, statuses and record ref moves with
	// it, without resolving the access again. Nil otherwise.
	held *repos.Resolved
}

// enabled reports whether the repository has the unit of issues (or of
// pull requests).
func (a *access) enabled(isPull bool) bool {
	if isPull {
		return a.repo.HasPullRequests
	}
	return a.repo.HasIssues
}

func unitOf(isPull bool) forge.Unit {
	if isPull {
		return forge.UnitPulls
	}
	return forge.UnitIssues
}

// canRead is Forgejo's CanReadIssuesOrPulls(isPull).
func (a *access) canRead(isPull bool) bool {
	return a.enabled(isPull) && a.perm.CanRead(unitOf(isPull))
}

// canWrite is Forgejo's CanWriteIssuesOrPulls(isPull).
func (a *access) canWrite(isPull bool) bool {
	return a.actor.IsSignedIn() && a.enabled(isPull) && a.perm.CanWrite(unitOf(isPull))
}

// canWriteAny is reqRepoWriter(issues, pulls).
func (a *access) canWriteAny() bool { return a.canWrite(false) || a.canWrite(true) }

// isAdmin is repository admin or owner (site administrators are owners).
func (a *access) isAdmin() bool { return a.perm.Mode >= forge.AccessModeAdmin }

func (a *access) isPoster(posterID forge.ID) bool {
	return a.actor.IsSignedIn() && posterID == a.actor.User.ID
}

// notArchived is Forgejo's mustNotBeArchived.
func (a *access) notArchived() error {
	if a.repo.Archived {
		return forge.Errorf(forge.ErrArchived, "<Repository %d:%s> is archived", a.repo.ID, a.repo.FullName())
	}
	return nil
}

// requireWriter is reqRepoWriter(issues, pulls) for labels and milestones.
func (a *access) requireWriter() error {
	if !a.enabled(false) && !a.enabled(true) {
		return notFound()
	}
	if !a.canWriteAny() {
		return forge.Errorf(forge.ErrForbidden, "user should have a permission to write to a repo")
	}
	return nil
}

func notFound() error { return forge.Errorf(forge.ErrNotFound, msgNotFound) }

func tokenRequired() error { return forge.Errorf(forge.ErrUnauthenticated, "token is required") }

// issueNotFound is Forgejo's ErrIssueNotExist text.
func issueNotFound(repoID forge.ID, index int64) error {
	return forge.Reasonf(forge.ErrNotFound, ErrIssueNotFound, "issue does not exist [id: 0, repo_id: %d, index: %d]", repoID, index)
}

// open resolves owner/name for an operation of level on issues: the
// issue token scope (read:issue or write:issue), the repository the actor
// may see (its errors as RepoAccess returns them), and Forgejo's
// mustEnableIssuesOrPulls (not found when neither unit may be read).
// Writes need a signed-in actor (`token is required`).
func (s *Service) open(ctx context.Context, actor forge.Actor, owner, name string, level forge.AccessLevel) (*access, error) {
	if err := actor.Check(level, forge.CategoryIssue); err != nil {
		return nil, err
	}
	repo, perm, err := s.repos.RepoAccess(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	a := &access{actor: actor, repo: repo, perm: perm}
	if !a.canRead(false) && !a.canRead(true) {
		return nil, notFound()
	}
	if level == forge.AccessWrite && !actor.IsSignedIn() {
		return nil, tokenRequired()
	}
	return a, nil
}

// issue loads issue index of a's repository for reading: not found
// (ErrIssueNotFound) when there is none or the actor may not read its unit.
func (a *access) issue(ctx context.Context, tx Tx, index int64) (*Issue, error) {
	is, err := tx.IssueByIndex(ctx, a.repo.ID, index)
	if errors.Is(err, forge.ErrNotFound) || err == nil && !a.canRead(is.IsPull) {
		return nil, issueNotFound(a.repo.ID, index)
	}
	return is, err
}

// comment loads comment id of a's repository with its issue: not found
// when it belongs to another repository or the actor may not read it.
func (a *access) comment(ctx context.Context, tx Tx, id forge.ID) (*Comment, *Issue, error) {
	c, err := tx.CommentByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, nil, commentNotFound(id)
	} else if err != nil {
		return nil, nil, err
	}
	is, err := tx.IssueByID(ctx, c.IssueID)
	if errors.Is(err, forge.ErrNotFound) || err == nil && (is.RepoID != a.repo.ID || !a.canRead(is.IsPull)) {
		return nil, nil, commentNotFound(id)
	}
	return c, is, err
}

func commentNotFound(id forge.ID) error {
	return forge.Reasonf(forge.ErrNotFound, ErrCommentNotFound, "comment does not exist [id: %d]", id)
}

func labelNotFound(what string) error {
	return forge.Reasonf(forge.ErrNotFound, ErrLabelNotFound, "%s", fmt.Sprintf("label does not exist [%s]", what))
}

func milestoneNotFound(repoID forge.ID, what string) error {
	return forge.Reasonf(forge.ErrNotFound, ErrMilestoneNotFound, "milestone does not exist [%s, repo_id: %d]", what, repoID)
}
