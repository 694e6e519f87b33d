package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// testIssueNames: LabelIDsByNames and MilestoneIDsByNames find labels of
// repositories and organisations, and milestones, by exact name across
// the whole store, in id order.
func testIssueNames(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Issues()
	ann := newUser(t, b, "nmann")
	org := newUser(t, b, "nmorg", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	r1, r2 := newRepo(t, b, ann, "names1"), newRepo(t, b, org, "names2")
	var want []forge.ID
	var ms []forge.ID
	issueUpdate(t, s, func(tx issues.Tx) error {
		for _, l := range []*issues.Label{
			{RepoID: r1.ID, Name: "nm-bug", Color: "#000000"},
			{RepoID: r2.ID, Name: "nm-bug", Color: "#000000"},
			{OrgID: org.ID, Name: "nm-doc", Color: "#000000"},
			{RepoID: r2.ID, Name: "NM-BUG", Color: "#000000"},
		} {
			if err := tx.CreateLabel(ctx, l); err != nil {
				return err
			}
			if l.Name != "NM-BUG" {
				want = append(want, l.ID)
			}
		}
		for _, m := range []*issues.Milestone{
			{RepoID: r1.ID, Title: "nm-v1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
			{RepoID: r2.ID, Title: "nm-v1", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
			{RepoID: r2.ID, Title: "nm-v2", Deadline: issues.NoDeadline, Created: issueAt, Updated: issueAt},
		} {
			if err := tx.CreateMilestone(ctx, m); err != nil {
				return err
			}
			ms = append(ms, m.ID)
		}
		return nil
	})
	issueView(t, s, func(tx issues.Tx) error {
		got, err := tx.LabelIDsByNames(ctx, []string{"nm-doc", "nm-bug", "nm-none"})
		require.NoError(t, err)
		assert.Equal(t, want, got, "labels by exact name, of repositories and organisations")
		got, err = tx.LabelIDsByNames(ctx, []string{"nm-none"})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got)
		got, err = tx.LabelIDsByNames(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got)
		got, err = tx.MilestoneIDsByNames(ctx, []string{"nm-v1", "nm-none"})
		require.NoError(t, err)
		assert.Equal(t, ms[:2], got)
		got, err = tx.MilestoneIDsByNames(ctx, []string{"NM-V2"})
		require.NoError(t, err)
		assert.Equal(t, []forge.ID{}, got, "exact names")
		return nil
	})
}
