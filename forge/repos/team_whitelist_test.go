package repos_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestTeamWhitelistRules: a member of a whitelisted team passes the push,
// merge, approvals and tag whitelists; names compare ignoring case.
func TestTeamWhitelistRules(t *testing.T) {
	t.Parallel()
	dev := repos.Pusher{UserID: 7, Teams: []string{"Devs"}}
	other := repos.Pusher{UserID: 8, Teams: []string{"docs"}}
	nobody := repos.Pusher{Teams: []string{"devs"}} // no user: never listed
	rule := &repos.BranchProtection{RuleName: "main", EnablePush: true, EnablePushWhitelist: true,
		PushWhitelistTeams: []string{"devs"}, EnableMergeWhitelist: true, MergeWhitelistTeams: []string{"DEVS"},
		EnableApprovalsWhitelist: true, ApprovalsWhitelistTeams: []string{"devs"}, ApprovalsWhitelistUserIDs: []forge.ID{8}}
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"push: team member", repos.CanPushBranchAs(rule, dev), true},
		{"push: other team", repos.CanPushBranchAs(rule, other), false},
		{"push: no user", repos.CanPushBranchAs(rule, nobody), false},
		{"push: no team, by id", repos.CanPushBranch(rule, 7), false},
		{"merge: team member without write", repos.CanMergeBranch(rule, dev, false), true},
		{"merge: writer off the list", repos.CanMergeBranch(rule, other, true), false},
		{"merge: no whitelist, writer", repos.CanMergeBranch(&repos.BranchProtection{}, other, true), true},
		{"merge: no rule, reader", repos.CanMergeBranch(nil, other, false), false},
		{"approval: team member", repos.IsOfficialReviewer(rule, dev, false), true},
		{"approval: listed user", repos.IsOfficialReviewer(rule, other, false), true},
		{"approval: no whitelist, writer", repos.IsOfficialReviewer(&repos.BranchProtection{}, dev, true), true},
		{"approval: no whitelist, reader", repos.IsOfficialReviewer(nil, dev, false), false},
	} {
		assert.Equal(t, c.want, c.got, c.name)
	}
	tags := []*repos.TagProtection{{NamePattern: "v*", WhitelistTeams: []string{"devs"}}}
	assert.True(t, repos.CanChangeTagAs(tags, dev, "v1"))
	assert.False(t, repos.CanChangeTagAs(tags, other, "v1"))
	assert.True(t, repos.CanChangeTagAs(tags, other, "x1"), "uncovered tag")
	_, why := repos.CheckRefUpdateAs(repos.RefRules{Branches: []*repos.BranchProtection{rule}, Tags: tags}, dev,
		repos.RefUpdate{Ref: "refs/heads/main", OldID: "1", NewID: "2"})
	assert.Equal(t, repos.RefAllowed, why)
	_, why = repos.CheckRefUpdateAs(repos.RefRules{Branches: []*repos.BranchProtection{rule}, Tags: tags}, other,
		repos.RefUpdate{Ref: "refs/heads/main", OldID: "1", NewID: "2"})
	assert.Equal(t, repos.RefBranchPush, why)
}

// TestTeamWhitelistsInOrgRepos: rules of an organisation's repository name
// its teams, their members push and tag through the service, and unknown
// teams are refused with Forgejo's message.
func TestTeamWhitelistsInOrgRepos(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newOrgEnv(t)
	owner := e.user(t, "owner")
	dev := e.user(t, "dev")
	writer := e.user(t, "writer")
	acme := e.org(t, "acme", forge.VisibilityPublic, owner)
	v, err := e.svc.CreateInOrg(ctx, owner, "acme", repos.CreateOptions{Name: "app", AutoInit: true, Readme: "Default"})
	require.NoError(t, err)
	devs := e.team(t, acme, &forge.Team{Name: "Devs", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite)}, dev)
	e.give(t, devs, v.Repo.ID)
	writers := e.team(t, acme, &forge.Team{Name: "writers", Mode: forge.AccessModeWrite, Units: allUnits(forge.AccessModeWrite)}, writer)
	e.give(t, writers, v.Repo.ID)

	_, err = e.svc.CreateProtection(ctx, owner, "acme", "app", repos.BranchProtection{RuleName: "main", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistTeams: []string{"nope"}})
	assert.ErrorIs(t, err, forge.ErrInvalid)
	assert.EqualError(t, err, "team does not exist [org_id "+itoa(acme.ID)+", team_id 0, name: nope]")

	p, err := e.svc.CreateProtection(ctx, owner, "acme", "app", repos.BranchProtection{RuleName: "main", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistTeams: []string{"devs", "DEVS"}, MergeWhitelistTeams: []string{}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Devs"}, p.PushWhitelistTeams, "the team's own spelling, once")

	push := []repos.RefUpdate{{Ref: "refs/heads/main", OldID: "1111111111111111111111111111111111111111", NewID: "2222222222222222222222222222222222222222"}}
	_, err = e.svc.CheckPush(ctx, dev, "acme", "app", push)
	assert.NoError(t, err, "a member of a whitelisted team pushes")
	_, err = e.svc.CheckPush(ctx, writer, "acme", "app", push)
	assert.ErrorIs(t, err, forge.ErrForbidden, "a writer off the whitelist does not")
	_, br, err := e.svc.GetBranch(ctx, dev, "acme", "app", "main")
	require.NoError(t, err)
	assert.True(t, br.CanPush)
	_, br, err = e.svc.GetBranch(ctx, writer, "acme", "app", "main")
	require.NoError(t, err)
	assert.False(t, br.CanPush)

	_, err = e.svc.CreateTagProtection(ctx, owner, "acme", "app", repos.TagProtection{NamePattern: "v*", WhitelistTeams: []string{"devs"}})
	require.NoError(t, err)
	_, _, err = e.svc.CreateTag(ctx, writer, "acme", "app", "v1", "main", "")
	assert.ErrorIs(t, err, forge.ErrInvalid)
	_, _, err = e.svc.CreateTag(ctx, dev, "acme", "app", "v1", "main", "")
	assert.NoError(t, err, "a member of a whitelisted team tags")

	// A user's repository has no teams: branch rules drop them, tag
	// rules refuse them.
	mine, err := e.svc.Create(ctx, owner, "", repos.CreateOptions{Name: "mine"})
	require.NoError(t, err)
	p, err = e.svc.CreateProtection(ctx, owner, "owner", "mine", repos.BranchProtection{RuleName: "main", PushWhitelistTeams: []string{"devs"}})
	require.NoError(t, err)
	assert.Empty(t, p.PushWhitelistTeams)
	_, err = e.svc.CreateTagProtection(ctx, owner, "owner", "mine", repos.TagProtection{NamePattern: "v*", WhitelistTeams: []string{"devs"}})
	assert.EqualError(t, err, "team does not exist [org_id "+itoa(mine.Repo.OwnerID)+", team_id 0, name: devs]")
}

func itoa(id forge.ID) string { return strconv.FormatInt(int64(id), 10) }
