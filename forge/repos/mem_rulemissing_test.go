package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// Deleting a branch or tag protection rule needs write:repository in the
// service itself: a read:repository token of the repository's owner is
// forge.ErrForbidden, and the rule stays.
func TestMemDeleteRulesNeedWriteScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	e.repo(t, ann, "tools", false)
	_, err := e.svc.CreateProtection(ctx, ann, "ann", "tools", repos.BranchProtection{RuleName: "main"})
	require.NoError(t, err)
	tp, err := e.svc.CreateTagProtection(ctx, ann, "ann", "tools", repos.TagProtection{NamePattern: "v*", WhitelistUsernames: []string{"ann"}})
	require.NoError(t, err)

	reader := forgetest.TokenActor(ann.User, "read:repository")
	assert.ErrorIs(t, e.svc.DeleteProtection(ctx, reader, "ann", "tools", "main"), forge.ErrForbidden)
	assert.ErrorIs(t, e.svc.DeleteTagProtection(ctx, reader, "ann", "tools", tp.ID), forge.ErrForbidden)
	_, err = e.svc.GetProtection(ctx, ann, "ann", "tools", "main")
	assert.NoError(t, err, "the branch rule stays")
	_, err = e.svc.GetTagProtection(ctx, ann, "ann", "tools", tp.ID)
	assert.NoError(t, err, "the tag rule stays")

	writer := forgetest.TokenActor(ann.User, "write:repository")
	require.NoError(t, e.svc.DeleteProtection(ctx, writer, "ann", "tools", "main"))
	require.NoError(t, e.svc.DeleteTagProtection(ctx, writer, "ann", "tools", tp.ID))
}

// Missing rules, releases and assets are worded by the domain (storage
// answers bare categories) and answer as a missing repository does
// (Forgejo's bare ctx.NotFound()).
func TestMemMissingThingsAreWordedByTheDomain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	e.repo(t, ann, "tools", false)
	_, err := e.svc.GetProtection(ctx, ann, "ann", "tools", "dev")
	for name, c := range map[string]struct {
		err  error
		text string
	}{
		"get branch rule":    {err, "branch protection does not exist [name: dev]"},
		"delete branch rule": {e.svc.DeleteProtection(ctx, ann, "ann", "tools", "dev"), "branch protection does not exist [name: dev]"},
		"delete tag rule":    {e.svc.DeleteTagProtection(ctx, ann, "ann", "tools", 42), "tag protection does not exist [id: 42]"},
		"delete release":     {e.svc.DeleteRelease(ctx, ann, "ann", "tools", 7, ""), "release does not exist [id: 7, tag_name: ]"},
		"delete release tag": {e.svc.DeleteRelease(ctx, ann, "ann", "tools", 0, "v9"), "release does not exist [id: 0, tag_name: v9]"},
	} {
		require.Error(t, c.err, name)
		assert.ErrorIs(t, c.err, forge.ErrNotFound, name)
		assert.ErrorIs(t, c.err, repos.ErrRepoNotFound, name)
		assert.EqualError(t, c.err, c.text, name)
	}
	_, err = e.svc.GetTagProtection(ctx, ann, "ann", "tools", 42)
	assert.ErrorIs(t, err, repos.ErrRepoNotFound)
}
