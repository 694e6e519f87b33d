package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// testIssueSearchRepos: SearchableRepos is the repository condition of
// the issue search, the repositories forge/repos.Service.IssueRepos lists
// (ListRepos's VisibleTo rule) judged by repos.Access on the issues and
// pull-request units: checked against that rule computed from the
// backend's own repository reads for every actor, and on the edges by
// name (a private repository of another user, team access per unit, a
// limited owner, a private organisation, restricted users, public-only
// tokens, site administrators, anonymous).
func testIssueSearchRepos(t *testing.T, b Backend) {
	ctx := context.Background()
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	user := func(name string, opts ...func(*forge.User)) *forge.User { return newUser(t, b, name, opts...) }
	owner, stranger, collab, member, outsider := user("sr-owner"), user("sr-stranger"), user("sr-collab"), user("sr-member"), user("sr-outsider")
	rita := user("sr-rita", func(u *forge.User) { u.Restricted = true })
	admin := user("sr-admin", func(u *forge.User) { u.IsAdmin = true })
	org := newOrg(t, b, "sr-org")
	lim := newOrg(t, b, "sr-lim", func(u *forge.User) { u.Visibility = forge.VisibilityLimited })
	hid := newOrg(t, b, "sr-hid", func(u *forge.User) { u.Visibility = forge.VisibilityPrivate })
	mk := func(o *forge.User, name string, private bool, fn ...func(*forge.Repository)) *forge.Repository {
		r := &forge.Repository{OwnerID: o.ID, Name: name, Private: private, DefaultBranch: "main", ObjectFormat: forge.SHA1,
			Empty: true, Topics: []string{}, HasIssues: true, HasPullRequests: true, Created: at, Updated: at}
		for _, f := range fn {
			f(r)
		}
		repoUpdate(t, b.Repos(), func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) })
		return r
	}
	ownPub, ownPriv := mk(owner, "pub", false), mk(owner, "priv", true)
	noIssues := mk(owner, "nopulls", false, func(r *forge.Repository) { r.HasIssues, r.HasPullRequests = false, false })
	ext := mk(owner, "ext", false, func(r *forge.Repository) { r.ExternalTracker = &forge.ExternalTracker{URL: "https://t.example/"} })
	orgPub, orgPriv, orgAll := mk(org, "pub", false), mk(org, "priv", true), mk(org, "all", true)
	limPub, hidPub := mk(lim, "pub", false), mk(hid, "pub", false)
	mk(owner, "creating", false, func(r *forge.Repository) { r.Status = forge.RepoCreating })
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		if err := tx.SetCollaborator(ctx, ownPriv.ID, collab.ID, forge.AccessModeRead); err != nil {
			return err
		}
		if err := tx.SetCollaborator(ctx, orgPriv.ID, outsider.ID, forge.AccessModeRead); err != nil {
			return err
		}
		return tx.SetCollaborator(ctx, ownPub.ID, rita.ID, forge.AccessModeRead)
	})
	issuesOnly := &forge.Team{OrgID: org.ID, Name: "issues-only", Mode: forge.AccessModeRead,
		Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeRead, forge.UnitPulls: forge.AccessNone}}
	admins := &forge.Team{OrgID: org.ID, Name: "admins", Mode: forge.AccessModeAdmin, Units: map[forge.Unit]forge.AccessMode{}}
	orgUpdate(t, b.Orgs(), func(tx orgs.Tx) error {
		for _, tm := range []*forge.Team{issuesOnly, admins} {
			if err := tx.CreateTeam(ctx, tm); err != nil {
				return err
			}
		}
		for _, m := range []forge.Membership{{OrgID: org.ID, UserID: member.ID}, {OrgID: org.ID, UserID: rita.ID},
			{OrgID: hid.ID, UserID: member.ID}, {OrgID: org.ID, UserID: collab.ID}} {
			if err := tx.SetMember(ctx, m); err != nil {
				return err
			}
		}
		for _, tm := range [][2]forge.ID{{issuesOnly.ID, member.ID}, {issuesOnly.ID, rita.ID}, {admins.ID, collab.ID}} {
			if err := tx.AddTeamMember(ctx, tm[0], tm[1]); err != nil {
				return err
			}
		}
		for _, tr := range [][2]forge.ID{{issuesOnly.ID, orgPriv.ID}, {admins.ID, orgAll.ID}} {
			if err := tx.AddTeamRepo(ctx, tr[0], tr[1]); err != nil {
				return err
			}
		}
		return nil
	})
	token := func(u *forge.User) forge.Actor {
		return forge.Actor{User: u, Scoped: true, Scope: forge.Scope{PublicOnly: true}}
	}
	searchable := func(actor forge.Actor, ownerID forge.ID) (is, ps []forge.ID) {
		t.Helper()
		issueView(t, b.Issues(), func(tx issues.Tx) error {
			var err error
			is, ps, err = tx.SearchableRepos(ctx, actor, ownerID)
			return err
		})
		require.NotNil(t, is)
		require.NotNil(t, ps)
		return is, ps
	}
	// The rule, from the backend's repository reads and repos.Access.
	reference := func(actor forge.Actor, ownerID forge.ID) (is, ps []forge.ID) {
		t.Helper()
		is, ps = []forge.ID{}, []forge.ID{}
		f := repos.RepoFilter{OwnerID: ownerID, VisibleTo: actor.UserID(), AllVisible: actor.IsSiteAdmin(),
			Restricted: actor.IsSignedIn() && actor.User.Restricted}
		if actor.Scoped && actor.Scope.PublicOnly {
			f.VisibleTo, f.AllVisible = 0, false
		}
		require.NoError(t, b.Repos().View(ctx, func(tx repos.Tx) error {
			list, _, err := tx.ListRepos(ctx, f, forge.ListOptions{Page: 1, Limit: 1000})
			if err != nil {
				return err
			}
			for _, r := range list {
				o, err := tx.UserByID(ctx, r.OwnerID)
				if err != nil {
					return err
				}
				var g repos.Grants
				if actor.IsSignedIn() {
					g.Collab, err = tx.CollaboratorMode(ctx, r.ID, actor.User.ID)
					if err != nil {
						return err
					}
					m, err := tx.OrgMemberships(ctx, actor.User.ID, []forge.ID{r.OwnerID})
					if err != nil {
						return err
					}
					tg, err := tx.TeamGrants(ctx, actor.User.ID, []forge.ID{r.ID})
					if err != nil {
						return err
					}
					g.Member, g.Teams = m[r.OwnerID], tg[r.ID]
				}
				p := repos.Access(actor, r, o, g)
				if r.HasIssues && p.CanRead(forge.UnitIssues) {
					is = append(is, r.ID)
				}
				if r.HasPullRequests && p.CanRead(forge.UnitPulls) {
					ps = append(ps, r.ID)
				}
			}
			return nil
		}))
		return is, ps
	}
	actors := map[string]forge.Actor{
		"anonymous": forge.Anonymous, "owner": forgetest.ActorFor(owner), "stranger": forgetest.ActorFor(stranger),
		"collaborator": forgetest.ActorFor(collab), "member": forgetest.ActorFor(member), "outsider": forgetest.ActorFor(outsider),
		"restricted": forgetest.ActorFor(rita), "admin": forgetest.ActorFor(admin),
		"public-only owner": token(owner), "public-only member": token(member), "public-only admin": token(admin),
	}
	for name, actor := range actors {
		for _, ownerID := range []forge.ID{0, owner.ID, org.ID, lim.ID, hid.ID} {
			gotI, gotP := searchable(actor, ownerID)
			wantI, wantP := reference(actor, ownerID)
			assert.ElementsMatch(t, wantI, gotI, "%s, owner %d: issue repositories", name, ownerID)
			assert.ElementsMatch(t, wantP, gotP, "%s, owner %d: pull repositories", name, ownerID)
			assert.IsIncreasing(t, append([]forge.ID{0}, gotI...), "%s: ascending", name)
		}
	}
	pub := []forge.ID{ownPub.ID, ext.ID, orgPub.ID}
	check := func(actor forge.Actor, wantI, wantP []forge.ID, msg string) {
		t.Helper()
		gotI, gotP := searchable(actor, 0)
		assert.ElementsMatch(t, wantI, gotI, "%s: issues", msg)
		assert.ElementsMatch(t, wantP, gotP, "%s: pulls", msg)
	}
	// ext has an external tracker: its pulls only.
	check(forge.Anonymous, []forge.ID{ownPub.ID, orgPub.ID}, pub, "anonymous: public repositories of public owners")
	check(forgetest.ActorFor(stranger), []forge.ID{ownPub.ID, orgPub.ID, limPub.ID}, append(pub, limPub.ID),
		"a stranger: no private repository of another user, a limited owner's public one")
	check(forgetest.ActorFor(member), []forge.ID{ownPub.ID, orgPub.ID, orgPriv.ID, limPub.ID, hidPub.ID}, append(pub, limPub.ID, hidPub.ID),
		"a team of the issues unit only: the private repository's issues, not its pulls; the private organisation's public one")
	check(forgetest.ActorFor(rita), []forge.ID{ownPub.ID, orgPriv.ID}, []forge.ID{ownPub.ID},
		"restricted: what it collaborates on or has through a team, nothing public")
	check(forgetest.ActorFor(collab), []forge.ID{ownPub.ID, ownPriv.ID, orgPub.ID, orgAll.ID, limPub.ID},
		[]forge.ID{ownPub.ID, ownPriv.ID, ext.ID, orgPub.ID, orgAll.ID, limPub.ID}, "a collaborator and an admin team")
	check(token(member), []forge.ID{ownPub.ID, orgPub.ID}, pub, "a public-only token: public repositories of public owners")
	all := []forge.ID{ownPub.ID, ownPriv.ID, orgPub.ID, orgPriv.ID, orgAll.ID, limPub.ID, hidPub.ID}
	check(forgetest.ActorFor(admin), all, append(all, ext.ID), "a site administrator: every ready repository with the unit")
	_ = noIssues
}
