package issues_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// orgRoles is a fake forge/orgs: org "acme" owned by alice, with member
// bob; other names are unknown.
type orgRoles struct {
	org          *forge.User
	owner, membr forge.ID
}

func (o orgRoles) MemberRole(_ context.Context, actor forge.Actor, org string) (*forge.User, bool, bool, error) {
	if org != o.org.Name {
		return nil, false, false, forge.Errorf(forge.ErrNotFound, "GetOrgByName")
	}
	id := actor.UserID()
	return o.org, id == o.owner, id == o.owner || id == o.membr, nil
}

func TestOrgLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	org := e.user("acme", func(u *forge.User) { u.Type = forge.UserTypeOrganization })
	svc, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock,
		Orgs: orgRoles{org: org.User, owner: alice.User.ID, membr: bob.User.ID}})
	require.NoError(t, err)

	_, err = svc.CreateOrgLabel(e.ctx, bob, "acme", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrForbidden), "%v", err)
	require.Equal(t, "Must be an organization owner", err.Error())
	_, err = svc.CreateOrgLabel(e.ctx, forge.Anonymous, "acme", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrUnauthenticated), "%v", err)
	_, err = svc.CreateOrgLabel(e.ctx, alice, "nope", issues.CreateLabelOption{Name: "x", Color: "fff"})
	require.True(t, errors.Is(err, forge.ErrNotFound), "%v", err)

	l, err := svc.CreateOrgLabel(e.ctx, alice, "acme", issues.CreateLabelOption{Name: "team/core", Color: "ABC", Exclusive: true})
	require.NoError(t, err)
	require.Equal(t, org.User.ID, l.OrgID)
	require.Equal(t, "#aabbcc", l.Color)
	got, err := svc.GetOrgLabel(e.ctx, bob, "acme", "team/core")
	require.NoError(t, err)
	require.Equal(t, l.ID, got.ID)
	ls, n, err := svc.ListOrgLabels(e.ctx, forge.Anonymous, "acme", "", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.Len(t, ls, 1)

	// an organisation label applies to the issues of the organisation's
	// repositories, by id and by name (here a repository stored with the
	// organisation as owner, alice a collaborator)
	require.NoError(t, e.store.Repos().Update(e.ctx, func(tx repos.Tx) error {
		r := &forge.Repository{OwnerID: org.User.ID, Name: "or", DefaultBranch: "main", ObjectFormat: forge.SHA1, HasIssues: true, HasPullRequests: true}
		if err := tx.CreateRepo(e.ctx, r); err != nil {
			return err
		}
		return tx.SetCollaborator(e.ctx, r.ID, alice.User.ID, forge.AccessModeWrite)
	}))
	_, err = svc.Create(e.ctx, alice, "acme", "or", issues.CreateIssueOption{Title: "t", Labels: []forge.ID{l.ID}})
	require.NoError(t, err)
	got2, err := svc.IssueLabels(e.ctx, alice, "acme", "or", 1)
	require.NoError(t, err)
	require.Equal(t, "team/core", labelNames(got2))
	rm, err := svc.RemoveLabel(e.ctx, alice, "acme", "or", 1, "team/core", nil)
	require.NoError(t, err)
	require.Equal(t, l.ID, rm.ID)
	got2, err = svc.IssueLabels(e.ctx, alice, "acme", "or", 1)
	require.NoError(t, err)
	require.Empty(t, got2)
	got2, err = svc.AddLabels(e.ctx, alice, "acme", "or", 1, issues.LabelsOption{Names: []string{"team/core"}})
	require.NoError(t, err)
	require.Equal(t, "team/core", labelNames(got2))
	name := "renamed"
	_, err = svc.EditOrgLabel(e.ctx, alice, "acme", l.ID, issues.EditLabelOption{Name: &name})
	require.NoError(t, err)
	_, err = svc.EditOrgLabel(e.ctx, bob, "acme", l.ID, issues.EditLabelOption{Name: &name})
	require.True(t, errors.Is(err, forge.ErrForbidden))
	require.NoError(t, svc.DeleteOrgLabel(e.ctx, alice, "acme", l.ID))
	_, err = svc.GetOrgLabel(e.ctx, alice, "acme", "renamed")
	require.True(t, errors.Is(err, issues.ErrLabelNotFound), "%v", err)
	// a repository label is no organisation label
	e.repo(alice, "r", false)
	rl := e.label(alice, "alice", "r", "bug", false)
	_, err = svc.GetOrgLabel(e.ctx, alice, "acme", "bug")
	require.True(t, errors.Is(err, forge.ErrNotFound))
	err = svc.DeleteOrgLabel(e.ctx, alice, "acme", rl.ID)
	require.True(t, errors.Is(err, forge.ErrNotFound))
	// without Config.Orgs organisation labels are not found
	_, _, err = e.svc.ListOrgLabels(e.ctx, alice, "acme", "", forge.ListOptions{})
	require.True(t, errors.Is(err, forge.ErrNotFound))
}
