package memstore

import (
	"context"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The cascades DeleteRepo and DeleteUser are to call (see deleteRepoIssues
// and deleteUserIssues) remove what the SQL schema's foreign keys remove.
func TestIssueCascadeHelpers(t *testing.T) {
	t.Parallel()
	s := New()
	ctx := context.Background()
	st := s.cur.Load().clone()
	st.users[1] = userRow{u: forge.User{ID: 1, Name: "ann"}}
	st.users[2] = userRow{u: forge.User{ID: 2, Name: "org", Type: forge.UserTypeOrganization}}
	st.repos[10] = forge.Repository{ID: 10, OwnerID: 2, Name: "r"}
	st.repos[11] = forge.Repository{ID: 11, OwnerID: 2, Name: "keep"}
	s.cur.Store(st)
	var doomed, kept *issues.Issue
	var orgLabel, repoLabel issues.Label
	err := s.Issues().Update(ctx, func(tx issues.Tx) error {
		doomed = &issues.Issue{RepoID: 10, Index: 1, PosterID: 1, Title: "x"}
		kept = &issues.Issue{RepoID: 11, Index: 1, PosterID: 1, Title: "y"}
		for _, i := range []*issues.Issue{doomed, kept} {
			if err := tx.CreateIssue(ctx, i); err != nil {
				return err
			}
			if err := tx.SetAssignees(ctx, i.ID, []forge.ID{1}); err != nil {
				return err
			}
		}
		orgLabel = issues.Label{OrgID: 2, Name: "o", Color: "#000000"}
		repoLabel = issues.Label{RepoID: 10, Name: "r", Color: "#000000"}
		for _, l := range []*issues.Label{&orgLabel, &repoLabel} {
			if err := tx.CreateLabel(ctx, l); err != nil {
				return err
			}
		}
		if err := tx.SetIssueLabels(ctx, kept.ID, []forge.ID{orgLabel.ID}); err != nil {
			return err
		}
		if err := tx.CreateComment(ctx, &issues.Comment{IssueID: doomed.ID, PosterID: 1, Body: "c"}); err != nil {
			return err
		}
		return tx.CreateMilestone(ctx, &issues.Milestone{RepoID: 10, Title: "m"})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.update(ctx, func(t *tx) error {
		t.st.deleteRepoIssues(10)
		t.st.deleteUserIssues(1)
		t.st.deleteUserIssues(2)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st = s.cur.Load()
	if len(st.issues) != 1 || st.issues[kept.ID].Title != "y" {
		t.Errorf("issues left: %v", st.issues)
	}
	if len(st.comments) != 0 || len(st.milestones) != 0 || len(st.labels) != 0 || len(st.issueLabels) != 0 {
		t.Errorf("left: comments %d milestones %d labels %d issue labels %d", len(st.comments), len(st.milestones), len(st.labels), len(st.issueLabels))
	}
	if len(st.assignees) != 0 {
		t.Errorf("assignees of a deleted user left: %v", st.assignees)
	}
	if _, ok := st.issueIndex[10]; ok {
		t.Error("the deleted repository's index reservation is left")
	}
}
