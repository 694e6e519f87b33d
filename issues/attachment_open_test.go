package issues_test

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// TestOpenAttachment: the download of an issue or comment attachment by
// uuid needs read access to the issue's unit: a private repository's
// attachments are not found for strangers, as missing ones.
func TestOpenAttachment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	repo := e.repo(alice, "secret", true)
	e.issue(alice, "alice", "secret", "hidden")
	at, err := e.svc.CreateIssueAttachment(e.ctx, alice, "alice", "secret", 1, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("private bytes")})
	require.NoError(t, err)
	c, err := e.svc.CreateComment(e.ctx, alice, "alice", "secret", 1, issues.CreateCommentOption{Body: "c"})
	require.NoError(t, err)
	ca, err := e.svc.CreateCommentAttachment(e.ctx, alice, "alice", "secret", c.Comment.ID, issues.UploadOption{Name: "b.txt", Content: strings.NewReader("comment bytes")})
	require.NoError(t, err)

	for uuid, want := range map[string]string{at.UUID: "private bytes", ca.UUID: "comment bytes"} {
		got, rc, err := e.svc.OpenAttachment(e.ctx, alice, uuid)
		require.NoError(t, err)
		b, _ := io.ReadAll(rc)
		rc.Close()
		assert.Equal(t, want, string(b))
		assert.EqualValues(t, 1, got.DownloadCount, "the download is counted")

		for _, who := range []forge.Actor{bob, forge.Anonymous} {
			_, _, err = e.svc.OpenAttachment(e.ctx, who, uuid)
			assert.ErrorIs(t, err, forge.ErrNotFound, "a stranger")
		}
	}
	_, _, err = e.svc.OpenAttachment(e.ctx, alice, "no-such-uuid")
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// Public again: everyone may read.
	e.setRepo(repo, func(r *forge.Repository) { r.Private = false })
	_, rc, err := e.svc.OpenAttachment(e.ctx, forge.Anonymous, at.UUID)
	require.NoError(t, err)
	rc.Close()
}
