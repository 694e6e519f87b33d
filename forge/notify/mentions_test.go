package notify_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/issues"
)

// TestNotifyMentioned: the users an event mentions get a thread besides
// the watchers and participants, under the same rules: never the doer,
// only those who may read the issue; being mentioned again brings the
// thread up to date rather than adding one.
func TestNotifyMentioned(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann, bob, cat := e.user("mann"), e.user("mbob"), e.user("mcat")
	r := e.repo(ann, "secret", true)
	require.NoError(t, e.repos.AddCollaborator(e.ctx, ann, "mann", "secret", "mbob", forge.AccessModeRead))
	// bob reads the repository but does not watch it.
	require.NoError(t, e.repos.Unwatch(e.ctx, bob, "mann", "secret"))
	v, err := e.issues.Create(e.ctx, ann, "mann", "secret", issues.CreateIssueOption{Title: "quiet"})
	require.NoError(t, err)
	require.Empty(t, e.list(bob, notify.Query{}), "not a watcher, not mentioned")

	ev := notify.Event{Doer: ann.UserID(), RepoID: r.ID, IssueID: v.Issue.ID,
		Mentioned: []forge.ID{bob.UserID(), cat.UserID(), ann.UserID()}}
	require.NoError(t, e.ports.Notify(e.ctx, ev))
	assert.Len(t, e.list(bob, notify.Query{}), 1, "a mentioned reader gets a thread")
	assert.Empty(t, e.list(cat, notify.Query{}), "cat may not read the private repository")
	assert.Empty(t, e.list(ann, notify.Query{}), "never the doer")
	require.NoError(t, e.ports.Notify(e.ctx, ev))
	assert.Len(t, e.list(bob, notify.Query{}), 1, "one thread per issue")
}
