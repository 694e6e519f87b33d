package issues

import (
	"context"
	"slices"

	"github.com/hearthforge/hearth/forge"
)

// Ports are the issue service's trusted operations: they take no actor
// and check nothing, so they are not on the published Service. Only the
// composition root (forge/site) receives them, from NewWithPorts, and
// hands each to the service that needs it.
type Ports struct{ s *Service }

// NewWithPorts is New, also returning the service's Ports.
func NewWithPorts(cfg Config) (*Service, *Ports, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, &Ports{s: s}, nil
}

// Participants returns the ids of the users who take part in issue
// issueID: its poster, the posters of its comments and its assignees,
// ascending, each once. It does no authorisation (notify asks it whom to
// tell of an event, and checks each user's permission itself).
// forge.ErrNotFound if there is no such issue.
func (p *Ports) Participants(ctx context.Context, issueID forge.ID) ([]forge.ID, error) {
	var ids []forge.ID
	err := p.s.store.View(ctx, func(tx Tx) error {
		is, err := tx.IssueByID(ctx, issueID)
		if err != nil {
			return err
		}
		ids = append(ids, is.PosterID)
		comments, _, err := tx.ListComments(ctx, CommentFilter{IssueID: issueID, Types: []CommentType{CommentPlain}},
			forge.ListOptions{Page: 1, Limit: -1})
		if err != nil {
			return err
		}
		for _, c := range comments {
			ids = append(ids, c.PosterID)
		}
		as, err := tx.Assignees(ctx, []forge.ID{issueID})
		if err != nil {
			return err
		}
		ids = append(ids, as[issueID]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return slices.Compact(slices.DeleteFunc(ids, func(id forge.ID) bool { return id == 0 })), nil
}
