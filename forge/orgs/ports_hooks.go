package orgs

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// TeamMemberIDs returns the ids of the members of team, whoever asks (a
// team review request is told to each member, as Forgejo's
// teamReviewRequestNotify).
func (p *Ports) TeamMemberIDs(ctx context.Context, team forge.ID) ([]forge.ID, error) {
	var ids []forge.ID
	err := p.s.store.View(ctx, func(tx Tx) error {
		list, _, err := tx.ListTeamMembers(ctx, team, forge.ListOptions{Page: 1, Limit: -1})
		for _, u := range list {
			ids = append(ids, u.ID)
		}
		return err
	})
	return ids, err
}
