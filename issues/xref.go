package issues

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// References to issues written in a text are IssueRefs (dependency.go):
// `#N` (Owner and Repo empty: the same repository) or `owner/name#N` (or
// `!N`), found by scanRefs (textscan.go) as Forgejo's modules/references
// patterns find them: a reference stands alone, after a space, a line
// start or an opening bracket, and before a space, the end, a closing
// bracket or punctuation followed by a space or the end.

// ParseRefs returns the issue references of text in order, each once,
// leaving out those inside code (fenced blocks and inline code spans), as
// Forgejo finds them with FindAllIssueReferencesMarkdown; at most the
// first DefaultMaxTextRefs. Its cost is linear in the length of text.
func ParseRefs(text string) []IssueRef {
	return parseRefs(text, DefaultMaxTextRefs)
}

// refTarget is a referenced issue's repository as the actor may use it.
type refTarget struct {
	ref IssueRef
	a   *access // nil: the repository is unknown or hidden from the actor
}

// refTargets resolves the repositories the references of texts name, for
// an actor writing in a's repository. It runs before the transaction that
// writes the references (repository permissions are the repository
// service's answer); unknown and hidden repositories resolve to nothing.
func (s *Service) refTargets(ctx context.Context, a *access, texts ...string) ([]refTarget, error) {
	var out []refTarget
	repos := map[string]*access{}
	for _, ref := range parseRefs(strings.Join(texts, "\n\n"), s.cfg.MaxTextRefs) {
		if ref.Owner == "" || strings.EqualFold(ref.Owner, a.repo.OwnerName) && strings.EqualFold(ref.Repo, a.repo.Name) {
			out = append(out, refTarget{ref: IssueRef{Index: ref.Index}, a: a})
			continue
		}
		key := strings.ToLower(ref.Owner + "/" + ref.Repo)
		ta, ok := repos[key]
		if !ok {
			repo, perm, err := s.repos.RepoAccess(ctx, a.actor, ref.Owner, ref.Repo)
			if err == nil {
				ta = &access{actor: a.actor, repo: repo, perm: perm}
			} else if !errors.Is(err, forge.ErrNotFound) {
				return nil, err
			}
			repos[key] = ta
		}
		out = append(out, refTarget{ref: ref, a: ta})
	}
	return out, nil
}

// xref writes the cross-references the text of issue src (comment nil) or
// of its comment makes to targets, as Forgejo's createCrossReferences: a
// reference comment (dated stamp, rule 11) in each issue referenced that
// the actor may read and that is not src, once per target; with removeOld
// (an edit), the references src made before and no longer makes are
// neutered. Each target issue's update is dated stamp when the stamp was
// given (rule 7), else now.
func xref(ctx context.Context, tx Tx, actor forge.Actor, src *Issue, comment *Comment, targets []refTarget, removeOld bool, now, stamp time.Time, given bool) error {
	var commentID forge.ID
	typ := CommentIssueRef
	if comment != nil {
		commentID, typ = comment.ID, CommentCommentRef
	} else if src.IsPull {
		typ = CommentPullRef
	}
	issuesOf := map[forge.ID]*Issue{}
	var list []*Issue
	for _, t := range targets {
		if t.a == nil {
			continue
		}
		is, err := tx.IssueByIndex(ctx, t.a.repo.ID, t.ref.Index)
		if errors.Is(err, forge.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if is.ID == src.ID || issuesOf[is.ID] != nil || (is.RepoID != src.RepoID && !t.a.canRead(is.IsPull)) {
			continue
		}
		issuesOf[is.ID] = is
		list = append(list, is)
	}
	touched := map[forge.ID]bool{}
	if removeOld {
		old, err := tx.CrossRefsFrom(ctx, src.ID, commentID)
		if err != nil {
			return err
		}
		for _, r := range old {
			if r.Action == RefActionNeutered {
				continue
			}
			c, err := tx.CommentByID(ctx, r.CommentID)
			if err != nil {
				return err
			}
			if issuesOf[c.IssueID] != nil {
				delete(issuesOf, c.IssueID) // still referenced: kept as it is
				continue
			}
			if err := tx.SetCrossRefAction(ctx, r.CommentID, RefActionNeutered); err != nil {
				return err
			}
			touched[c.IssueID] = true
		}
	}
	for _, is := range list {
		if issuesOf[is.ID] == nil {
			continue
		}
		c := &Comment{IssueID: is.ID, Type: typ, PosterID: actor.UserID(), Created: stamp, Updated: stamp}
		if err := tx.CreateComment(ctx, c); err != nil {
			return err
		}
		if err := tx.CreateCrossRef(ctx, &CrossRef{CommentID: c.ID, RefRepoID: src.RepoID, RefIssueID: src.ID,
			RefCommentID: commentID, RefIsPull: src.IsPull}); err != nil {
			return err
		}
		touched[is.ID] = true
	}
	for id := range touched {
		is, err := tx.IssueByID(ctx, id)
		if err != nil {
			return err
		}
		is.Updated = now
		if given {
			is.Updated = stamp
		}
		if err := tx.UpdateIssue(ctx, is); err != nil {
			return err
		}
	}
	return nil
}

// editRefTargets resolves the references of the issue's title and body
// as an edit leaves them; nil when the edit changes neither.
func (s *Service) editRefTargets(ctx context.Context, a *access, index int64, opt EditIssueOption) ([]refTarget, error) {
	if opt.Title == nil && opt.Body == nil {
		return nil, nil
	}
	var title, body string
	err := s.store.View(ctx, func(tx Tx) error {
		is, err := a.issue(ctx, tx, index)
		if err == nil {
			title, body = is.Title, is.Body
		}
		return nil // the edit reports a missing issue itself
	})
	if err != nil {
		return nil, err
	}
	if opt.Title != nil && *opt.Title != "" {
		title = *opt.Title
	}
	if opt.Body != nil {
		body = *opt.Body
	}
	out, err := s.refTargets(ctx, a, title, body)
	if out == nil && err == nil {
		out = []refTarget{}
	}
	return out, err
}
