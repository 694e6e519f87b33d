package issues

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MentionTx records the users an issue's texts mention (Forgejo's
// issue_user.is_mentioned), read by IssueFilter.MentionedID.
type MentionTx interface {
	// AddMentions records that the issue mentions each user of userIDs;
	// recording one twice is no change. Mentions are never removed by an
	// edit (as Forgejo); they go with the issue or the user.
	// forge.ErrNotFound if the issue does not exist.
	AddMentions(ctx context.Context, issueID forge.ID, userIDs []forge.ID) error
}

// mentionPattern is Forgejo's modules/references mentionPattern: `@name`
// (or `@org/team`) after a space, a line start or an opening bracket, and
// before a space, the end, punctuation followed by a space or the end, an
// apostrophe or a closing bracket.
var mentionPattern = regexp.MustCompile(`(?:\s|^|\(|\[)(@[-\w][-.\w]*?|@[-\w][-.\w]*?/[-\w][-.\w]*?)(?:\s|$|[:,;.?!](?:\s|$)|'|\)|\])`)

// ParseMentions returns the user names text mentions (`@name`), in order,
// each once ignoring case, leaving out mentions inside code (fenced blocks
// and inline code spans) and team mentions (`@org/team`), as Forgejo's
// FindAllMentionsMarkdown finds them.
func ParseMentions(text string) []string {
	text = fencePattern.ReplaceAllStringFunc(text, func(s string) string { return strings.Repeat(" ", len(s)) })
	var out []string
	seen := map[string]bool{}
	// A match consumes the separator after it; scanning from the end of
	// each name finds "@a @b".
	for i := 0; i < len(text); {
		m := mentionPattern.FindStringSubmatchIndex(text[i:])
		if m == nil {
			break
		}
		name := text[i+m[2]+1 : i+m[3]]
		i += m[3]
		if strings.Contains(name, "/") {
			continue
		}
		if k := strings.ToLower(name); !seen[k] {
			seen[k] = true
			out = append(out, name)
		}
	}
	return out
}

// mentionTarget is a mentioned user and what they may read of the
// repository.
type mentionTarget struct {
	id                 forge.ID
	readIssue, readPul bool
}

// mentionTargets resolves the users texts mention in a's repository, as
// Forgejo's ResolveIssueMentionsByVisibility: existing individual accounts
// other than the actor, with what each may read (checked per issue kind
// when recorded). It runs before the transaction that records them
// (permissions are the repository service's answer).
func (s *Service) mentionTargets(ctx context.Context, a *access, texts ...string) ([]mentionTarget, error) {
	names := ParseMentions(strings.Join(texts, "\n\n"))
	if len(names) == 0 {
		return nil, nil
	}
	var users []*forge.User
	err := s.store.View(ctx, func(tx Tx) error {
		for _, name := range names {
			if a.actor.IsSignedIn() && strings.EqualFold(name, a.actor.User.Name) {
				continue
			}
			u, err := tx.UserByName(ctx, name)
			if errors.Is(err, forge.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			if !u.IsOrganization() && u.IsActive && !u.ProhibitLogin {
				users = append(users, u)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []mentionTarget
	for _, u := range users {
		as := forge.Actor{User: u, Method: forge.AuthPassword}
		_, perm, err := s.repos.RepoAccess(ctx, as, a.repo.OwnerName, a.repo.Name)
		if errors.Is(err, forge.ErrNotFound) || errors.Is(err, forge.ErrForbidden) || errors.Is(err, forge.ErrUnauthenticated) {
			continue // hidden from the user, or an account that may not act
		} else if err != nil {
			return nil, err
		}
		b := &access{actor: as, repo: a.repo, perm: perm}
		out = append(out, mentionTarget{id: u.ID, readIssue: b.canRead(false), readPul: b.canRead(true)})
	}
	return out, nil
}

// recordMentions records the mentions of targets who may read is.
func recordMentions(ctx context.Context, tx Tx, is *Issue, targets []mentionTarget) error {
	var ids []forge.ID
	for _, t := range targets {
		if is.IsPull && t.readPul || !is.IsPull && t.readIssue {
			ids = append(ids, t.id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return tx.AddMentions(ctx, is.ID, ids)
}
