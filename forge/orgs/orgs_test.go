package orgs_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestCreateMakesOwnersTeam(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user(t, "alice")
	o, err := e.svc.Create(ctx, alice, orgs.CreateOptions{Name: "Acme", FullName: "Acme Inc", Email: "hi@acme.example",
		Website: "https://acme.example", RepoAdminChangeTeamAccess: true})
	require.NoError(t, err)
	require.True(t, o.IsOrganization())
	require.Equal(t, forge.VisibilityPublic, o.Visibility)
	require.True(t, o.RepoAdminChangeTeamAccess)
	require.Equal(t, "hi@acme.example", o.Email)

	teams, n, err := e.svc.ListTeams(ctx, alice, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	tm := teams[0]
	require.True(t, tm.IsOwners())
	require.Equal(t, forge.OwnersTeam, tm.Name)
	require.True(t, tm.IncludesAllRepos)
	require.True(t, tm.CanCreateOrgRepo)
	require.Equal(t, orgs.OwnerUnits(), tm.Units)
	require.Equal(t, 1, tm.NumMembers)

	_, owner, member, err := e.svc.MemberRole(ctx, alice, "ACME")
	require.NoError(t, err)
	require.True(t, owner)
	require.True(t, member)
	// The creator's membership is concealed.
	pub, err := e.svc.IsPublicMember(ctx, alice, "acme", "alice")
	require.NoError(t, err)
	require.False(t, pub)
}

func TestCreateRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user(t, "alice")
	bob := e.user(t, "bob", func(u *forge.User) { u.AllowCreateOrganization = false })
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, alice, "taken", "")
	long := "a123456789012345678901234567890123456789x"
	tests := []struct {
		name  string
		actor forge.Actor
		opts  orgs.CreateOptions
		kind  error
		msg   string
	}{
		{"anonymous", forge.Anonymous, orgs.CreateOptions{Name: "x"}, forge.ErrUnauthenticated, "token is required"},
		{"not allowed", bob, orgs.CreateOptions{Name: "x"}, forge.ErrForbidden, "Create organization not allowed"},
		{"read token", forgetest.TokenActor(alice.User, "read:organization"), orgs.CreateOptions{Name: "x"},
			forge.ErrForbidden, "token does not have at least one of required scope(s): [write:organization]"},
		{"taken by an org", alice, orgs.CreateOptions{Name: "TAKEN"}, forge.ErrInvalid, "user already exists [name: TAKEN]"},
		{"taken by a user", alice, orgs.CreateOptions{Name: "Bob"}, forge.ErrInvalid, "user already exists [name: Bob]"},
		{"reserved", alice, orgs.CreateOptions{Name: "Admin"}, forge.ErrInvalid, "name is reserved [name: admin]"},
		{"pattern", alice, orgs.CreateOptions{Name: "x.keys"}, forge.ErrInvalid, "name pattern is not allowed [pattern: *.keys]"},
		{"chars", alice, orgs.CreateOptions{Name: "a b"}, forge.ErrInvalid, "name is invalid [a b]: must be valid alpha or numeric or dash(-_) or dot characters"},
		{"empty", alice, orgs.CreateOptions{}, forge.ErrInvalid, "[UserName]: Required"},
		{"long", alice, orgs.CreateOptions{Name: long}, forge.ErrInvalid, "[UserName]: MaxSize"},
		{"visibility", alice, orgs.CreateOptions{Name: "x", Visibility: "secret"}, forge.ErrInvalid, "[Visibility]: In"},
		{"website", alice, orgs.CreateOptions{Name: "x", Website: "ftp://x"}, forge.ErrInvalid, "[Website]: ValidUrl"},
		{"location", alice, orgs.CreateOptions{Name: "x", Location: string(make([]rune, 51))}, forge.ErrInvalid, "[Location]: MaxSize"},
		{"other owner needs admin", alice, orgs.CreateOptions{Owner: "bob", Name: "x"}, forge.ErrForbidden, "user should be the site admin"},
		{"other owner unknown", root, orgs.CreateOptions{Owner: "nobody", Name: "x"}, forge.ErrNotFound, "user redirect does not exist [name: nobody]"},
		{"other owner may not", root, orgs.CreateOptions{Owner: "bob", Name: "x"}, forge.ErrForbidden, "user is not allowed to create organizations"},
		{"other owner is an org", root, orgs.CreateOptions{Owner: "taken", Name: "x"}, forge.ErrInvalid, "taken is an organization not a user"},
	}
	for _, tt := range tests {
		_, err := e.svc.Create(ctx, tt.actor, tt.opts)
		requireErr(t, err, tt.kind, tt.msg)
	}
	all, n, err := e.svc.ListAll(ctx, root, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 1, n, "nothing stored by a refusal")
	require.Equal(t, "taken", all[0].Name)
}

func TestCreateForOtherOwnerAndRegularCreationOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *orgs.Config) { c.DisableRegularOrgCreation = true })
	alice := e.user(t, "alice")
	root := e.user(t, "root", forgetest.Admin)
	_, err := e.svc.Create(ctx, alice, orgs.CreateOptions{Name: "mine"})
	requireErr(t, err, forge.ErrForbidden, "Create organization not allowed")

	// A site administrator creates for himself, not for alice (who may
	// not any more).
	_, err = e.svc.Create(ctx, root, orgs.CreateOptions{Owner: "alice", Name: "for-alice"})
	requireErr(t, err, forge.ErrForbidden, "user is not allowed to create organizations")
	o, err := e.svc.Create(ctx, root, orgs.CreateOptions{Owner: "root", Name: "rooted"})
	require.NoError(t, err)
	_, owner, _, err := e.svc.MemberRole(ctx, forgetest.ActorFor(forgetest.User("x")), o.Name)
	require.NoError(t, err)
	require.False(t, owner)
	_, owner, member, err := e.svc.MemberRole(ctx, root, o.Name)
	require.NoError(t, err)
	require.True(t, owner && member)
}

// TestVisibilityTable: who sees organisations of each visibility; those
// who may not see one get the same 404 as for a missing one.
func TestVisibilityTable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	actors := map[string]forge.Actor{
		"anonymous":   forge.Anonymous,
		"stranger":    stranger,
		"member":      mem,
		"owner":       own,
		"admin":       root,
		"public-only": forgetest.TokenActor(own.User, "public-only", "read:organization"),
	}
	want := map[string]map[forge.Visibility]bool{
		"anonymous":   {forge.VisibilityPublic: true},
		"stranger":    {forge.VisibilityPublic: true, forge.VisibilityLimited: true},
		"member":      {forge.VisibilityPublic: true, forge.VisibilityLimited: true, forge.VisibilityPrivate: true},
		"owner":       {forge.VisibilityPublic: true, forge.VisibilityLimited: true, forge.VisibilityPrivate: true},
		"admin":       {forge.VisibilityPublic: true, forge.VisibilityLimited: true, forge.VisibilityPrivate: true},
		"public-only": {forge.VisibilityPublic: true},
	}
	for _, vis := range []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate} {
		name := "org-" + string(vis)
		e.org(t, own, name, vis)
		e.member(t, own, name, mem)
	}
	for who, actor := range actors {
		for _, vis := range []forge.Visibility{forge.VisibilityPublic, forge.VisibilityLimited, forge.VisibilityPrivate} {
			name := "org-" + string(vis)
			o, err := e.svc.Get(ctx, actor, name)
			if !want[who][vis] {
				requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: "+name+"]")
				_, _, err = e.svc.ListPublicMembers(ctx, actor, name, forge.ListOptions{})
				require.ErrorIs(t, err, forge.ErrNotFound, "%s lists members of %s", who, vis)
				_, _, _, err = e.svc.MemberRole(ctx, actor, name)
				require.ErrorIs(t, err, forge.ErrNotFound)
				continue
			}
			require.NoError(t, err, "%s on %s", who, vis)
			// The e-mail is shown to signed-in actors only.
			if who == "anonymous" {
				require.Empty(t, o.Email)
			} else {
				require.Equal(t, name+"@org.example", o.Email)
			}
		}
		list, n, err := e.svc.List(ctx, actor, forge.ListOptions{})
		require.NoError(t, err)
		var names []string
		for _, o := range list {
			names = append(names, o.Name)
		}
		wantList := map[string][]string{
			"anonymous": {"org-public"}, "public-only": {"org-public"},
			"stranger": {"org-limited", "org-public"}, "member": {"org-limited", "org-public"}, "owner": {"org-limited", "org-public"},
			"admin": {"org-limited", "org-private", "org-public"},
		}[who]
		require.Equal(t, wantList, names, who)
		require.EqualValues(t, len(wantList), n)
	}
	// A missing organisation and a user that is no organisation answer alike.
	_, err := e.svc.Get(ctx, stranger, "nothing")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: nothing]")
	_, err = e.svc.Get(ctx, stranger, "own")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: own]")
}

func TestEdit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	root := e.user(t, "root", forgetest.Admin)
	e.org(t, own, "acme", forge.VisibilityPublic)
	e.member(t, own, "acme", mem)

	_, err := e.svc.Edit(ctx, mem, "acme", orgs.EditOptions{FullName: ptr("x")})
	requireErr(t, err, forge.ErrForbidden, "Must be an organization owner")
	_, err = e.svc.Edit(ctx, forge.Anonymous, "acme", orgs.EditOptions{FullName: ptr("x")})
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")
	_, err = e.svc.Edit(ctx, forgetest.TokenActor(own.User, "read:organization"), "acme", orgs.EditOptions{})
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [write:organization]")
	_, err = e.svc.Edit(ctx, own, "acme", orgs.EditOptions{Visibility: ptr(forge.Visibility("hidden"))})
	requireErr(t, err, forge.ErrInvalid, "[Visibility]: In")
	_, err = e.svc.Edit(ctx, own, "acme", orgs.EditOptions{Email: ptr("not an address")})
	requireErr(t, err, forge.ErrInvalid, "e-mail invalid [email: not an address]")
	_, err = e.svc.Edit(ctx, own, "acme", orgs.EditOptions{FullName: ptr(string(make([]rune, 101)))})
	requireErr(t, err, forge.ErrInvalid, "[FullName]: MaxSize")

	e.clock.Step(60e9)
	o, err := e.svc.Edit(ctx, own, "acme", orgs.EditOptions{FullName: ptr("Acme"), Description: ptr("d"),
		Visibility: ptr(forge.VisibilityPrivate), RepoAdminChangeTeamAccess: ptr(true), Email: ptr("")})
	require.NoError(t, err)
	require.Equal(t, "Acme", o.FullName)
	require.Equal(t, "d", o.Description)
	require.Equal(t, forge.VisibilityPrivate, o.Visibility)
	require.True(t, o.RepoAdminChangeTeamAccess)
	require.Empty(t, o.Email)
	require.Equal(t, e.clock.Now(), o.Updated)
	// A site administrator edits any organisation; nil fields stay.
	o, err = e.svc.Edit(ctx, root, "acme", orgs.EditOptions{Location: ptr("here")})
	require.NoError(t, err)
	require.Equal(t, "Acme", o.FullName)
	require.Equal(t, "here", o.Location)
}

func ptr[T any](v T) *T { return &v }

// pngImage is the start of a PNG file: enough for IsImage.
var pngImage = []byte("\x89PNG\r\n\x1a\n....")

func TestDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	blocked := e.user(t, "blocked")
	o := e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)
	r := e.repo(t, o, "code")
	require.NoError(t, e.svc.SetAvatar(ctx, own, "acme", pngImage))
	require.NoError(t, e.svc.Block(ctx, own, "acme", "blocked"))
	require.Equal(t, 1, e.blobs.len())

	requireErr(t, e.svc.Delete(ctx, mem, "acme"), forge.ErrForbidden, "Must be an organization owner")
	requireErr(t, e.svc.Delete(ctx, own, "acme"), forge.ErrPrecondition,
		fmt.Sprintf("user still has ownership of repositories [uid: %d]", o.ID))
	require.NoError(t, e.st.Repos().Update(ctx, func(tx repos.Tx) error { return tx.DeleteRepo(ctx, r.ID) }))

	require.NoError(t, e.svc.Delete(ctx, own, "acme"))
	_, err := e.svc.Get(ctx, own, "acme")
	require.ErrorIs(t, err, forge.ErrNotFound)
	require.Zero(t, e.blobs.len(), "the avatar goes with it")
	// Memberships went with it: the members are free to be deleted, the
	// name is free, and no team or block is left.
	for _, u := range []forge.Actor{own, mem, blocked} {
		require.NoError(t, e.st.Auth().View(ctx, func(tx auth.Tx) error {
			in, err := tx.MemberOfOrgs(ctx, u.UserID())
			require.False(t, in)
			return err
		}))
	}
	teams, _, err := e.svc.ListUserTeams(ctx, mem, forge.ListOptions{})
	require.NoError(t, err)
	require.Empty(t, teams)
	o2 := e.org(t, own, "acme", "")
	list, _, err := e.svc.ListBlocked(ctx, own, "acme", forge.ListOptions{})
	require.NoError(t, err)
	require.Empty(t, list)
	require.NotEqual(t, o.ID, o2.ID)
}

func TestRename(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	e.org(t, own, "acme", "")
	e.org(t, own, "other", "")
	e.member(t, own, "acme", mem)

	_, err := e.svc.Rename(ctx, mem, "acme", "x")
	requireErr(t, err, forge.ErrForbidden, "Must be an organization owner")
	for name, msg := range map[string]string{
		"":      "[NewName]: Required",
		"OTHER": "user already exists [name: OTHER]",
		"mem":   "user already exists [name: mem]",
		"api":   "name is reserved [name: api]",
		"x--y":  "name is invalid [x--y]: must be valid alpha or numeric or dash(-_) or dot characters",
		"a.gpg": "name pattern is not allowed [pattern: *.gpg]",
	} {
		_, err := e.svc.Rename(ctx, own, "acme", name)
		requireErr(t, err, forge.ErrInvalid, msg)
	}
	o, err := e.svc.Rename(ctx, own, "acme", "ACME")
	require.NoError(t, err)
	require.Equal(t, "ACME", o.Name)
	o, err = e.svc.Rename(ctx, own, "acme", "acme-2")
	require.NoError(t, err)
	require.Equal(t, "acme-2", o.Name)
	_, err = e.svc.Get(ctx, own, "acme")
	require.ErrorIs(t, err, forge.ErrNotFound)
	// Teams and memberships follow the organisation.
	_, _, member, err := e.svc.MemberRole(ctx, mem, "acme-2")
	require.NoError(t, err)
	require.True(t, member)
}

func TestAvatar(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	e.org(t, own, "acme", "")
	e.member(t, own, "acme", mem)

	requireErr(t, e.svc.SetAvatar(ctx, own, "acme", []byte("text")), forge.ErrInvalid, "avatar is not a PNG, JPEG, GIF or WebP image")
	requireErr(t, e.svc.SetAvatar(ctx, mem, "acme", pngImage), forge.ErrForbidden, "Must be an organization owner")
	require.Zero(t, e.blobs.len())
	require.NoError(t, e.svc.SetAvatar(ctx, own, "acme", pngImage))
	o, err := e.svc.Get(ctx, own, "acme")
	require.NoError(t, err)
	require.NotEmpty(t, o.Avatar)
	rc, err := e.svc.OpenAvatar(ctx, o.Avatar)
	require.NoError(t, err)
	b, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.Equal(t, pngImage, b)
	// A new image replaces the old one, in the same second too.
	require.NoError(t, e.svc.SetAvatar(ctx, own, "acme", pngImage))
	require.Equal(t, 1, e.blobs.len())
	_, err = e.svc.OpenAvatar(ctx, "repo-avatar-1")
	require.ErrorIs(t, err, forge.ErrNotFound)

	require.NoError(t, e.svc.DeleteAvatar(ctx, own, "acme"))
	require.Zero(t, e.blobs.len())
	o, err = e.svc.Get(ctx, own, "acme")
	require.NoError(t, err)
	require.Empty(t, o.Avatar)

	e2 := newEnv(t, func(c *orgs.Config) { c.Blobs = nil })
	own2 := e2.user(t, "own")
	e2.org(t, own2, "acme", "")
	requireErr(t, e2.svc.SetAvatar(ctx, own2, "acme", pngImage), forge.ErrPrecondition, "avatars are disabled")
}

func TestUserOrgLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	stranger := e.user(t, "stranger")
	root := e.user(t, "root", forgetest.Admin)
	for _, n := range []string{"a-pub", "b-pub-concealed", "c-limited", "d-private"} {
		vis := forge.VisibilityPublic
		switch n {
		case "c-limited":
			vis = forge.VisibilityLimited
		case "d-private":
			vis = forge.VisibilityPrivate
		}
		e.org(t, own, n, vis)
		e.member(t, own, n, mem)
		if n != "b-pub-concealed" {
			require.NoError(t, e.svc.Publicize(ctx, mem, n, "mem"))
		}
	}
	names := func(list []*forge.User) []string {
		out := []string{}
		for _, u := range list {
			out = append(out, u.Name)
		}
		return out
	}
	all := []string{"a-pub", "b-pub-concealed", "c-limited", "d-private"}
	for who, want := range map[string][]string{
		"mem": all, "root": all, "stranger": {"a-pub"}, "anonymous": {"a-pub"},
	} {
		actor := map[string]forge.Actor{"mem": mem, "root": root, "stranger": stranger, "anonymous": forge.Anonymous}[who]
		list, n, err := e.svc.ListForUser(ctx, actor, "mem", forge.ListOptions{})
		require.NoError(t, err)
		require.Equal(t, want, names(list), who)
		require.EqualValues(t, len(want), n)
	}
	// A public-only token of the user sees the public side only.
	list, _, err := e.svc.ListForUser(ctx, forgetest.TokenActor(mem.User, "public-only", "read:user", "read:organization"), "mem", forge.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"a-pub"}, names(list))
	_, _, err = e.svc.ListForUser(ctx, forgetest.TokenActor(mem.User, "read:user"), "mem", forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [read:user read:organization]")
	_, _, err = e.svc.ListForUser(ctx, mem, "nobody", forge.ListOptions{})
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: nobody]")

	list, n, err := e.svc.ListMine(ctx, mem, forge.ListOptions{Page: 2, Limit: 3})
	require.NoError(t, err)
	require.EqualValues(t, 4, n)
	require.Equal(t, []string{"d-private"}, names(list))
	_, _, err = e.svc.ListMine(ctx, forge.Anonymous, forge.ListOptions{})
	requireErr(t, err, forge.ErrUnauthenticated, "token is required")

	_, _, err = e.svc.ListAll(ctx, mem, forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "user should be the site admin")
	_, _, err = e.svc.ListAll(ctx, forgetest.TokenActor(root.User, "read:organization"), forge.ListOptions{})
	requireErr(t, err, forge.ErrForbidden, "token does not have at least one of required scope(s): [read:admin]")
	list, n, err = e.svc.ListAll(ctx, root, forge.ListOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 4, n)
	require.Equal(t, all, names(list))
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	mem := e.user(t, "mem")
	writer := e.user(t, "writer")
	stranger := e.user(t, "stranger")
	e.org(t, own, "acme", forge.VisibilityPrivate)
	e.member(t, own, "acme", mem)
	tm := e.team(t, own, "acme", orgs.CreateTeamOptions{Name: "w", Permission: "write", Units: []string{"repo.code"}, CanCreateOrgRepo: true})
	require.NoError(t, e.svc.AddTeamMember(ctx, own, tm.ID, "writer"))

	for who, want := range map[string]orgs.Permissions{
		"own":    {IsOwner: true, IsAdmin: true, CanWrite: true, CanRead: true, CanCreateRepository: true},
		"mem":    {CanRead: true},
		"writer": {CanRead: true, CanWrite: true, CanCreateRepository: true},
	} {
		p, err := e.svc.Permissions(ctx, own, who, "acme")
		require.NoError(t, err)
		require.Equal(t, want, p, who)
	}
	// The private organisation is hidden from strangers, asked by or about.
	_, err := e.svc.Permissions(ctx, own, "stranger", "acme")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: acme]")
	_, err = e.svc.Permissions(ctx, stranger, "mem", "acme")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: acme]")
	_, err = e.svc.Permissions(ctx, writer, "nobody", "acme")
	requireErr(t, err, forge.ErrNotFound, "user redirect does not exist [name: nobody]")
}

// TestAccountState: accounts that may not act are refused by every
// method, reads included.
func TestAccountState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := e.user(t, "own")
	e.org(t, own, "acme", "")
	inactive := own
	u := *own.User
	u.IsActive = false
	inactive.User = &u
	_, err := e.svc.Get(ctx, inactive, "acme")
	var state *forge.AccountStateError
	require.ErrorAs(t, err, &state)
	_, _, err = e.svc.List(ctx, inactive, forge.ListOptions{})
	require.ErrorAs(t, err, &state)
	_, _, _, err = e.svc.MemberRole(ctx, inactive, "acme")
	require.ErrorAs(t, err, &state)
	_, err = e.svc.CreateTeam(ctx, inactive, "acme", orgs.CreateTeamOptions{Name: "x", Permission: "admin"})
	require.ErrorAs(t, err, &state)
}
