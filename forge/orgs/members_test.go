package orgs_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

func memberNames(list []*forge.User) []string {
	out := []string{}
	for _, u := range list {
		out = append(out, u.Name)
	}
	return out
}

func TestMembersLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	shy := e.user(t, "shy")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)
	e.member(t, own, "acme", shy)
	require.NoError(t, e.svc.Publicize(ctx, mem, "acme", "mem"))

	for who, want := range map[string][]string{
		"own": {"mem", "own", "shy"}, "mem": {"mem", "own", "shy"}, "root": {"mem", "own", "shy"},
		"stranger": {"mem"},
	} {
		actor := map[string]forge.Actor{"own": own, "mem": mem, "root": root, "stranger": stranger}[who]
		list, n, err := e.svc.ListMembers(ctx, actor, "acme", forge.ListOptions{})
		require.NoError(t, err)
		require.Equal(t, want, memberNames(list), who)
		require.EqualValues(t, len(want), n)
		list, _, err = e.svc.ListPublicMembers(ctx, actor, "acme", forge.ListOptions{})
		require.NoError(t, err)
		require.Equal(t, []string{"mem"}, memberNames(list))
	}
	_, _, err := e.svc.ListMembers(ctx, forge.Anonymous, "acme", forge.ListOptions{})
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")
	list, _, err := e.svc.ListPublicMembers(ctx, forge.Anonymous, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"mem"}, memberNames(list))
	// Users are redacted for the actor: e-mails of others are hidden from
	// anonymous readers.
	require.Empty(t, list[0].Email)
	list, _, err = e.svc.ListMembers(ctx, own, "acme", forge.ListOptions{Page: 2, Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"shy"}, memberNames(list))
	_, _, err = e.svc.ListMembers(ctx, forgetest.TokenActor(own.User, "read:user"), "acme", forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [read:organization]")
}

func TestIsMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, own, "Acme", "")
	e.member(t, own, "acme", mem)

	for _, tt := range []struct {
		actor forge.Actor
		user  string
		want  orgs.MemberAnswer
	}{
		{own, "mem", orgs.IsAMember},
		{mem, "stranger", orgs.NotAMember},
		{root, "MEM", orgs.IsAMember},
		{stranger, "stranger", orgs.NotAMember},
		{stranger, "mem", orgs.AskPublic},
	} {
		got, err := e.svc.IsMember(ctx, tt.actor, "acme", tt.user)
		require.NoError(t, err)
		require.Equal(t, tt.want, got.Answer, "%s asks of %s", tt.actor.User.Name, tt.user)
		require.Equal(t, "Acme", got.Org)
	}
	got, err := e.svc.IsMember(ctx, stranger, "acme", "MEM")
	require.NoError(t, err)
	require.Equal(t, orgs.MemberCheck{Answer: orgs.AskPublic, Org: "Acme", User: "mem"}, got)
	_, err = e.svc.IsMember(ctx, own, "acme", "nobody")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: nobody]")
	_, err = e.svc.IsMember(ctx, forge.Anonymous, "acme", "mem")
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")
}

func TestPublicizeConceal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)

	requireErr(t, e.svc.Publicize(ctx, own, "acme", "mem"), forge.ErrForbidden, "Cannot publicize another member")
	requireErr(t, e.svc.Conceal(ctx, own, "acme", "mem"), forge.ErrForbidden, "Cannot conceal another member")
	requireErr(t, e.svc.Publicize(ctx, stranger, "acme", "stranger"), forge.ErrForbidden, "Must be an organization member")
	requireErr(t, e.svc.Publicize(ctx, forge.Anonymous, "acme", "mem"), forge.ErrUnauthenticated, "token is required")
	requireErr(t, e.svc.Publicize(ctx, mem, "acme", "nobody"), forge.ErrNotFound, "user redirect does not exist [name: nobody]")

	require.NoError(t, e.svc.Publicize(ctx, mem, "acme", "mem"))
	pub, err := e.svc.IsPublicMember(ctx, forge.Anonymous, "acme", "mem")
	require.NoError(t, err)
	require.True(t, pub)
	require.NoError(t, e.svc.Conceal(ctx, mem, "acme", "mem"))
	pub, err = e.svc.IsPublicMember(ctx, forge.Anonymous, "acme", "mem")
	require.NoError(t, err)
	require.False(t, pub)
	pub, err = e.svc.IsPublicMember(ctx, forge.Anonymous, "acme", "stranger")
	require.NoError(t, err)
	require.False(t, pub)
}

func TestRemoveMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	e.user(t, "stranger")
	e.org(t, own, "acme", "")
	tm := e.member(t, own, "acme", mem)
	tm2 := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "two", Permission: "write", Units: []string{"repo.issues"}})
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm2.ID, "mem"))

	requireErr(t, e.svc.RemoveMember(ctx, mem, "acme", "own"), forge.ErrForbidden, "Must be an organization owner")
	requireErr(t, e.svc.RemoveMember(ctx, own, "acme", "own"), forge.ErrPrecondition,
		fmt.Sprintf("user is the last member of owner team [uid: %d]", own.UserID()))
	require.NoError(t, e.svc.RemoveMember(ctx, own, "acme", "stranger"), "no member: nothing to do")
	require.NoError(t, e.svc.RemoveMember(ctx, own, "acme", "mem"))
	_, _, member, err := e.svc.MemberRole(ctx, mem, "acme")
	require.NoError(t, err)
	require.False(t, member)
	for _, id := range []forge.ID{tm.ID, tm2.ID} {
		members, n, err := e.svc.ListTeamMembers(ctx, own, id, forge.ListOptions{})
		require.NoError(t, err)
		require.Zero(t, n)
		require.Empty(t, members)
	}
	// With a second owner, the first may go.
	two := e.user(t, "two")
	owners, _, err := e.svc.SearchTeams(ctx, own, "acme", "owners", false, forge.ListOptions{})
	require.NoError(t, err)
	require.NoError(t, e.svc.AddTeamMember(ctx, own, owners[0].ID, "two"))
	require.NoError(t, e.svc.RemoveMember(ctx, two, "acme", "own"))
	_, owner, member, err := e.svc.MemberRole(ctx, own, "acme")
	require.NoError(t, err)
	require.False(t, owner || member)
}

func TestBlocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	troll := e.user(t, "troll")
	e.org(t, own, "acme", "")
	e.org(t, own, "other", "")
	tm := e.member(t, own, "acme", troll)
	e.member(t, own, "acme", mem)

	requireErr(t, e.svc.Block(ctx, mem, "acme", "troll"), forge.ErrForbidden, "Must be an organization owner")
	_, _, err := e.svc.ListBlocked(ctx, mem, "acme", forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "Must be an organization owner")
	requireErr(t, e.svc.Block(ctx, own, "acme", "other"), forge.ErrInvalid, "other is an organization not a user")
	requireErr(t, e.svc.Unblock(ctx, own, "acme", "other"), forge.ErrInvalid, "other is an organization not a user")
	requireErr(t, e.svc.Block(ctx, own, "acme", "nobody"), forge.ErrNotFound, "user redirect does not exist [name: nobody]")
	requireErr(t, e.svc.Block(ctx, own, "acme", "own"), forge.ErrPrecondition,
		fmt.Sprintf("user is the last member of owner team [uid: %d]", own.UserID()))

	require.NoError(t, e.svc.Block(ctx, own, "acme", "troll"))
	e.clock.Step(5e9)
	require.NoError(t, e.svc.Block(ctx, own, "acme", "mem"))
	require.NoError(t, e.svc.Block(ctx, own, "acme", "troll"), "blocking again changes nothing")
	list, n, err := e.svc.ListBlocked(ctx, own, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 2, n)
	require.Equal(t, "mem", list[0].User.Name, "newest first")
	require.Equal(t, forgetest.Epoch, list[1].Created)

	// The blocked users left the teams and the organisation, and may not
	// be added again.
	_, _, member, err := e.svc.MemberRole(ctx, troll, "acme")
	require.NoError(t, err)
	require.False(t, member)
	requireErr(t, e.svc.AddTeamMember(ctx, own, tm.ID, "troll"), forge.ErrInvalid, "user is blocked")

	require.NoError(t, e.svc.Unblock(ctx, own, "acme", "troll"))
	require.NoError(t, e.svc.Unblock(ctx, own, "acme", "troll"), "unblocking again changes nothing")
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm.ID, "troll"))
	list, _, err = e.svc.ListBlocked(ctx, own, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list, 1)
}
