package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/orgs"
)

// testListOrgsViewer: ListOrgs keeps, with ViewerMemberID, only the
// organisations that user is a member of, on top of the other filters.
func testListOrgsViewer(t *testing.T, b Backend) {
	ctx := context.Background()
	one, two, three := newOrg(t, b, "One"), newOrg(t, b, "Two"), newOrg(t, b, "Three")
	rita, sam := newUser(t, b, "rita"), newUser(t, b, "sam")
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		for _, m := range []forge.Membership{
			{OrgID: one.ID, UserID: rita.ID}, {OrgID: two.ID, UserID: rita.ID, Public: true},
			{OrgID: two.ID, UserID: sam.ID, Public: true}, {OrgID: three.ID, UserID: sam.ID, Public: true},
		} {
			if err := tx.SetMember(ctx, m); err != nil {
				return err
			}
		}
		return nil
	})
	names, total := listOrgs(t, b, orgs.OrgFilter{ViewerMemberID: rita.ID}, forge.ListOptions{Page: 1, Limit: 1})
	assert.Equal(t, []string{"One"}, names)
	assert.EqualValues(t, 2, total, "the total counts what the filter keeps")
	names, total = listOrgs(t, b, orgs.OrgFilter{MemberID: sam.ID, PublicMember: true, ViewerMemberID: rita.ID}, forge.ListOptions{})
	assert.Equal(t, []string{"Two"}, names, "sam's public organisations that rita is in")
	assert.EqualValues(t, 1, total)
}
