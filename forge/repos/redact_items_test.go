package repos_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestItemUsersVisibleToActor: the release authors and status creators the
// service returns are as the actor may see them (forge.User.VisibleTo):
// the author's hidden e-mail, login and admin flag reach neither an
// anonymous caller nor another user; the author sees herself whole.
func TestItemUsersVisibleToActor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	alice := e.user(t, "alice", func(u *forge.User) { u.HideEmail, u.IsAdmin, u.LoginName = true, true, "alice-login" })
	bob := e.user(t, "bob")
	_, err := e.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "proj", AutoInit: true})
	require.NoError(t, err)
	tag := "v1"
	_, rel, err := e.svc.CreateRelease(ctx, alice, "alice", "proj", repos.ReleaseOptions{TagName: &tag})
	require.NoError(t, err)
	assert.Equal(t, "alice@example.com", rel.Author.Email, "the author sees herself")
	_, st, err := e.svc.CreateStatus(ctx, alice, "alice", "proj", "main", repos.CommitStatus{State: repos.StatusSuccess, Context: "ci"})
	require.NoError(t, err)
	assert.Equal(t, "alice@example.com", st.Creator.Email)

	for name, actor := range map[string]forge.Actor{"anonymous": {}, "another user": bob} {
		var users []*forge.User
		_, list, _, err := e.svc.ListReleases(ctx, actor, "alice", "proj", repos.ReleaseFilter{}, forge.ListOptions{})
		require.NoError(t, err, name)
		require.Len(t, list, 1)
		users = append(users, list[0].Author)
		_, got, err := e.svc.GetRelease(ctx, actor, "alice", "proj", rel.ID, "", false)
		require.NoError(t, err, name)
		users = append(users, got.Author)
		_, _, sts, _, err := e.svc.ListStatuses(ctx, actor, "alice", "proj", "main", repos.StatusFilter{}, forge.ListOptions{})
		require.NoError(t, err, name)
		require.Len(t, sts, 1)
		users = append(users, sts[0].Creator)
		_, _, _, latest, err := e.svc.CombinedStatus(ctx, actor, "alice", "proj", "main")
		require.NoError(t, err, name)
		require.Len(t, latest, 1)
		users = append(users, latest[0].Creator)
		for i, u := range users {
			require.NotNil(t, u, "%s %d", name, i)
			assert.Equal(t, "alice", u.Name)
			assert.True(t, u.Redacted, "%s %d", name, i)
			assert.Empty(t, u.Email, "%s %d", name, i)
			assert.Empty(t, u.LoginName, "%s %d", name, i)
			assert.False(t, u.IsAdmin, "%s %d", name, i)
		}
	}
}
