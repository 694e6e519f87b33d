package issues_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// listingSearch is the wiring's RepoSearch without RepoViews:
// repos.Service.IssueRepos, every searchable repository listed with its
// permission (the path before the store condition).
type listingSearch struct{ e *env }

func (l listingSearch) SearchRepos(ctx context.Context, actor forge.Actor, owner, team string) ([]issues.RepoPermission, error) {
	views, err := l.e.repos.IssueRepos(ctx, actor, owner, team)
	if err != nil {
		return nil, err
	}
	out := []issues.RepoPermission{}
	for _, v := range views {
		out = append(out, issues.RepoPermission{Repo: v.Repo, Permission: v.Perm})
	}
	return out, nil
}

// viewsSearch is the wiring's RepoSearch with RepoViews: the search takes
// its repositories from the store's condition.
type viewsSearch struct{ listingSearch }

func (v viewsSearch) ReposByID(ctx context.Context, actor forge.Actor, ids []forge.ID) ([]issues.RepoPermission, error) {
	views, err := v.e.repos.ViewsByID(ctx, actor, ids)
	if err != nil {
		return nil, err
	}
	out := []issues.RepoPermission{}
	for _, view := range views {
		out = append(out, issues.RepoPermission{Repo: view.Repo, Permission: view.Perm})
	}
	return out, nil
}

// sameSearch runs opt with both services and requires the same page,
// total and error.
func sameSearch(t *testing.T, listing, store *issues.Service, actor forge.Actor, opt issues.SearchOption, name string) {
	t.Helper()
	wantList, wantN, wantErr := listing.Search(context.Background(), actor, opt)
	gotList, gotN, gotErr := store.Search(context.Background(), actor, opt)
	if wantErr != nil {
		require.Error(t, gotErr, name)
		require.Equal(t, wantErr.Error(), gotErr.Error(), name)
		return
	}
	require.NoError(t, gotErr, name)
	require.Equal(t, wantN, gotN, name)
	require.Equal(t, pageOf(wantList), pageOf(gotList), name)
}

func pageOf(vs []*issues.IssueView) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s/%s#%d %s labels=%d", v.Repo.OwnerName, v.Repo.Name, v.Issue.Index, v.Issue.Title, len(v.Labels)))
	}
	return out
}

// The store's repository condition finds what the listing of the
// searchable repositories found, for every actor and filter: a private
// repository of another user, a collaborator, a repository whose issues
// are off, an external tracker, an unknown owner, a restricted user, a
// public-only token, anonymous.
func TestSearchStoreConditionMatchesListing(t *testing.T) {
	t.Parallel()
	e, _, _, _ := searchEnv(t)
	alice, bob := forgetestActor(e, "alice"), forgetestActor(e, "bob")
	e.user("rita", func(u *forge.User) { u.Restricted = true })
	e.collab(alice, "a", forgetestActor(e, "rita"), forge.AccessModeRead)
	off := e.repo(bob, "off", false)
	e.issue(bob, "bob", "off", "off0")
	e.setRepo(off, func(r *forge.Repository) { r.HasIssues = false })
	ext := e.repo(bob, "ext", false)
	e.issue(bob, "bob", "ext", "ext0")
	e.setRepo(ext, func(r *forge.Repository) { r.ExternalTracker = &forge.ExternalTracker{URL: "https://t.example/"} })
	la := e.label(alice, "alice", "a", "bug", false)
	_, err := e.svc.AddLabels(e.ctx, alice, "alice", "a", 1, issues.LabelsOption{IDs: []forge.ID{la.ID}})
	require.NoError(t, err)
	svc := func(s issues.RepoSearch) *issues.Service {
		out, err := issues.New(issues.Config{Store: e.store.Issues(), Repos: e.repos, Clock: e.clock, Search: s})
		require.NoError(t, err)
		return out
	}
	listing, store := svc(listingSearch{e}), svc(viewsSearch{listingSearch{e}})
	actors := map[string]forge.Actor{
		"anonymous": forge.Anonymous, "alice": alice, "bob": bob, "carol (collaborator)": forgetestActor(e, "carol"),
		"dan": forgetestActor(e, "dan"), "rita (restricted)": forgetestActor(e, "rita"),
		"carol public-only": {User: forgetestActor(e, "carol").User, Scoped: true, Scope: forge.Scope{PublicOnly: true}},
	}
	opts := map[string]issues.SearchOption{
		"default": {}, "all": {State: issues.StateAll}, "owner alice": {Owner: "alice"}, "owner bob": {Owner: "bob"},
		"unknown owner": {Owner: "Nobody"}, "issues": {Type: issues.TypeIssues}, "pulls": {Type: issues.TypePulls},
		"label": {Labels: []string{"bug"}}, "keyword": {Keyword: "secret"}, "created": {Created: true},
		"page 2 of 2": {ListOptions: forge.ListOptions{Page: 2, Limit: 2}},
	}
	for an, actor := range actors {
		for on, opt := range opts {
			sameSearch(t, listing, store, actor, opt, an+", "+on)
		}
	}
	// The edges by name.
	_, n, err := store.Search(e.ctx, forgetestActor(e, "dan"), issues.SearchOption{Keyword: "secret"})
	require.NoError(t, err)
	require.Zero(t, n, "a private repository of another user")
	vs, n, err := store.Search(e.ctx, forgetestActor(e, "carol"), issues.SearchOption{Keyword: "secret"})
	require.NoError(t, err)
	require.EqualValues(t, 3, n, "a collaborator")
	require.Len(t, vs, 3)
	_, n, err = store.Search(e.ctx, forgetestActor(e, "rita"), issues.SearchOption{})
	require.NoError(t, err)
	require.EqualValues(t, 3, n, "restricted: alice/a only, where it collaborates")
	_, n, err = store.Search(e.ctx, bob, issues.SearchOption{Owner: "bob", State: issues.StateAll, Type: issues.TypeIssues})
	require.NoError(t, err)
	require.EqualValues(t, 3, n, "issues off and an external tracker hide those repositories' issues")
	vs, _, err = store.Search(e.ctx, bob, issues.SearchOption{Owner: "bob", State: issues.StateAll})
	require.NoError(t, err)
	require.Len(t, vs, 3, "the page holds no issue of a unit the actor may not read")
	require.False(t, titles(vs)["off0"] || titles(vs)["ext0"])
}
