package issues_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/issues"
)

// TestReviewRequestRefusal is Forgejo's IsValidReviewRequest, case by case.
func TestReviewRequestRefusal(t *testing.T) {
	t.Parallel()
	type c = issues.ReviewRequestCheck
	for _, tc := range []struct {
		name string
		in   c
		want string
	}{
		{"a writer asks a reader", c{Add: true, ReviewerCanRead: true, DoerCanWrite: true}, ""},
		{"the poster asks a reader", c{Add: true, ReviewerCanRead: true, DoerIsPoster: true}, ""},
		{"an official reviewer asks", c{Add: true, ReviewerCanRead: true, DoerIsOfficial: true}, ""},
		{"a reader asks", c{Add: true, ReviewerCanRead: true}, "Doer can't choose reviewer"},
		{"an organisation as reviewer", c{Add: true, ReviewerIsOrg: true, ReviewerCanRead: true, DoerCanWrite: true}, "Organization can't be added as reviewer"},
		{"an organisation as doer", c{Add: true, DoerIsOrg: true, ReviewerCanRead: true, DoerCanWrite: true, DoerIsAdmin: true}, "Organization can't be doer to add reviewer"},
		{"an organisation as doer removes", c{DoerIsOrg: true, DoerIsAdmin: true}, "Organization can't be doer to add reviewer"},
		{"the reviewer cannot read", c{Add: true, DoerCanWrite: true}, "Reviewer can't read"},
		{"the poster as reviewer", c{Add: true, ReviewerCanRead: true, DoerCanWrite: true, ReviewerIsPoster: true}, "poster of pr can't be reviewer"},
		{"a reader asking the poster is refused as doer first", c{Add: true, ReviewerCanRead: true, ReviewerIsPoster: true}, "Doer can't choose reviewer"},
		{"the poster asks again a reviewer who reviewed", c{Add: true, ReviewerCanRead: true, DoerIsPoster: true, LastReview: true, LastReviewType: issues.ReviewApprove}, ""},
		{"the poster asks again, reviewer cannot read", c{Add: true, DoerIsPoster: true, LastReview: true, LastReviewType: issues.ReviewApprove}, "Reviewer can't read"},
		{"an admin removes", c{DoerIsAdmin: true}, ""},
		{"a writer removes", c{DoerCanWrite: true, DoerIsPoster: true}, "Doer is not admin"},
		{"a reviewer withdraws their request", c{DoerIsReviewer: true, LastReview: true, LastReviewType: issues.ReviewRequest}, ""},
		{"a reviewer removes their approval", c{DoerIsReviewer: true, LastReview: true, LastReviewType: issues.ReviewApprove}, "Doer is not admin"},
	} {
		assert.Equal(t, tc.want, issues.ReviewRequestRefusal(tc.in), tc.name)
	}
}

// TestTeamReviewRequestRefusal is Forgejo's IsValidTeamReviewRequest.
func TestTeamReviewRequestRefusal(t *testing.T) {
	t.Parallel()
	type c = issues.TeamReviewRequestCheck
	for _, tc := range []struct {
		name string
		in   c
		want string
	}{
		{"a writer asks a team", c{Add: true, DoerCanWrite: true}, ""},
		{"the poster asks a team", c{Add: true, DoerIsPoster: true}, ""},
		{"a reader asks a team", c{Add: true}, "Doer can't choose reviewer"},
		{"a team without the private repository", c{Add: true, DoerCanWrite: true, PrivateRepo: true}, "Reviewing team can't read repo"},
		{"a team with the private repository", c{Add: true, DoerCanWrite: true, PrivateRepo: true, TeamHasRepo: true}, ""},
		{"an organisation as doer", c{Add: true, DoerIsOrg: true, DoerCanWrite: true}, "Organization can't be doer to add reviewer"},
		{"a writer removes", c{DoerCanWrite: true}, "Only admin users can remove team requests. Doer is not admin"},
		{"an admin removes", c{DoerIsAdmin: true}, ""},
	} {
		assert.Equal(t, tc.want, issues.TeamReviewRequestRefusal(tc.in), tc.name)
	}
}

// TestPullOrgDoerRefused: no sign-in gives an organisation's identity, but
// a service call made as one (even a site administrator's) is refused:
// review requests with Forgejo's 422 reason, every other pull write with
// forge.ErrForbidden.
func TestPullOrgDoerRefused(t *testing.T) {
	t.Parallel()
	e := newPullEnv(t)
	ann, bob := e.user("ann"), e.user("bob")
	u := forgetest.User("orgx")
	u.Type, u.IsAdmin = forge.UserTypeOrganization, true
	require.NoError(t, e.store.Auth().Update(e.ctx, func(tx auth.Tx) error { return tx.CreateUser(e.ctx, u, "") }))
	org := forgetest.ActorFor(u)
	r := e.repo(ann, "proj", forge.SHA1)
	e.commit(ann, r, "main", "feat", "feat\n", op("update", "a.txt", "x\n"))
	e.pull(ann, r, "feat", "main", "x")

	_, err := e.svc.RequestReviews(e.ctx, org, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"bob"}})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, fmt.Sprintf("Organization can't be doer to add reviewer [user_id: %d, repo_id: %d]", u.ID, r.ID), err.Error())
	_, err = e.svc.RequestReviews(e.ctx, ann, "ann", "proj", 1, issues.ReviewRequestOption{Reviewers: []string{"orgx"}})
	require.ErrorIs(t, err, forge.ErrInvalid)
	assert.Equal(t, fmt.Sprintf("Organization can't be added as reviewer [user_id: %d, repo_id: %d]", ann.UserID(), r.ID), err.Error())

	_, err = e.svc.CreateReview(e.ctx, org, "ann", "proj", 1, issues.CreateReviewOption{Event: issues.ReviewStateApproved})
	require.ErrorIs(t, err, forge.ErrForbidden)
	require.ErrorIs(t, e.svc.MergePull(e.ctx, org, "ann", "proj", 1, issues.MergePullOption{Do: issues.MergeStyleMerge}), forge.ErrForbidden)
	e.commit(ann, r, "main", "feat2", "feat2\n", op("update", "b.txt", "y\n"))
	_, err = e.svc.CreatePull(e.ctx, org, "ann", "proj", issues.CreatePullOption{Head: "feat2", Base: "main", Title: "t"})
	require.ErrorIs(t, err, forge.ErrForbidden)
	assert.False(t, e.get(bob, r, 1).Pull.HasMerged)
	_, err = e.svc.GetPull(e.ctx, org, "ann", "proj", 1)
	require.NoError(t, err, "reading is not refused")
}
