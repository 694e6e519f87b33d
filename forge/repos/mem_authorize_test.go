package repos_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestAuthorize: the probe answers each need as the operations do (the
// same errors, in the same order), and changes nothing.
func TestAuthorize(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newMemEnv(t)
	ann := e.user(t, "ann")
	e.repo(t, ann, "pub", false)
	e.repo(t, ann, "priv", true)
	actors := map[string]forge.Actor{"ann": ann, "stranger": e.user(t, "stranger")}
	for name, mode := range map[string]forge.AccessMode{"reader": forge.AccessModeRead, "writer": forge.AccessModeWrite, "admin": forge.AccessModeAdmin} {
		actors[name] = e.user(t, name)
		require.NoError(t, e.svc.AddCollaborator(ctx, ann, "ann", "pub", name, mode))
	}
	const (
		writeMsg = "user should have a permission to write to a repo"
		adminMsg = "user should be an owner or a collaborator with admin write of a repository"
		ownerMsg = "user should be the owner of the repo"
	)
	for _, c := range []struct {
		who, repo string
		op        string // a gated operation: createFork needs visibility, repoCreateBranch write on the code,
		// repoCreateRelease write on the releases, repoEdit administration, repoTransfer ownership
		want string // "" for nil, "404" for ErrRepoNotFound, "invalid" for forge.ErrInvalid, else the message
	}{
		{"ann", "pub", "repoTransfer", ""},
		{"stranger", "priv", "createFork", "404"},
		{"stranger", "pub", "createFork", ""},
		{"stranger", "pub", "repoCreateBranch", writeMsg},
		{"reader", "pub", "repoCreateRelease", writeMsg},
		{"writer", "pub", "repoCreateBranch", ""},
		{"writer", "pub", "repoEdit", adminMsg},
		{"admin", "pub", "repoEdit", ""},
		{"admin", "pub", "repoTransfer", ownerMsg},
		{"ann", "pub", "repoGet", "invalid"},
		{"ann", "pub", "createOrgRepo", "invalid"},
	} {
		err := e.svc.Authorize(ctx, actors[c.who], c.op, "ann", c.repo)
		switch c.want {
		case "":
			require.NoError(t, err, "%s on %s", c.who, c.repo)
		case "404":
			require.ErrorIs(t, err, repos.ErrRepoNotFound, "%s on %s", c.who, c.repo)
		case "invalid":
			require.ErrorIs(t, err, forge.ErrInvalid, "%s: %s", c.who, c.op)
		default:
			require.True(t, errors.Is(err, forge.ErrForbidden), "%s on %s: %v", c.who, c.repo, err)
			require.EqualError(t, err, c.want)
		}
	}
}
