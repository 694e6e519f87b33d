package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestSearchHonoursTopicAndIncludeDesc(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	for _, c := range []struct{ name, desc string }{{"tools", "handy scripts"}, {"gopher", "a go library"}, {"web", "site"}} {
		_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: c.name, Description: c.desc})
		require.NoError(t, err)
	}
	tv, err := w.svc.SetTopics(ctx, alice, "alice", "web", []string{"golang-web", "go", "GO"})
	require.NoError(t, err)
	require.Equal(t, []string{"go", "golang-web"}, tv.Repo.Topics, "the stored state is returned")
	names := func(f repos.RepoFilter) []string {
		list, _, err := w.svc.List(ctx, alice, f, forge.ListOptions{})
		require.NoError(t, err)
		out := []string{}
		for _, v := range list {
			out = append(out, v.Repo.Name)
		}
		return out
	}
	// Names and topics contain the keyword.
	require.Equal(t, []string{"gopher", "web"}, names(repos.RepoFilter{Keyword: "go"}))
	// topic=true: exact topics only.
	require.Equal(t, []string{"web"}, names(repos.RepoFilter{Keyword: "GO", Topic: true}))
	require.Empty(t, names(repos.RepoFilter{Keyword: "gol", Topic: true}))
	// includeDesc: descriptions too.
	require.Empty(t, names(repos.RepoFilter{Keyword: "scripts"}))
	require.Equal(t, []string{"tools"}, names(repos.RepoFilter{Keyword: "scripts", IncludeDesc: true}))
	// Comma-separated words: any.
	require.Equal(t, []string{"tools", "web"}, names(repos.RepoFilter{Keyword: "tool,site", IncludeDesc: true}))

	// Topics survive edits and come back sorted.
	v, err := w.svc.Get(ctx, alice, "alice", "web")
	require.NoError(t, err)
	require.Equal(t, []string{"go", "golang-web"}, v.Repo.Topics)
}
