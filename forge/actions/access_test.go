package actions

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
)

func TestCheckRepoAccess(t *testing.T) {
	t.Parallel()
	off := map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeOwner}
	for _, tc := range []struct {
		name  string
		perm  forge.Permission
		admin bool
		n     need
		want  error
	}{
		{"owner manages", forge.Permission{Mode: forge.AccessModeOwner}, false, needOwner, nil},
		{"repo admin is not owner", forge.Permission{Mode: forge.AccessModeAdmin}, false, needOwner, ErrNotRepoOwner},
		{"writer is not owner", forge.Permission{Mode: forge.AccessModeWrite}, false, needOwner, ErrNotRepoOwner},
		{"site admin manages", forge.Permission{Mode: forge.AccessModeRead}, true, needOwner, nil},
		{"reader reads", forge.Permission{Mode: forge.AccessModeRead}, false, needRead, nil},
		{"none is not found", forge.Permission{}, false, needRead, ErrActionsDisabled},
		{"disabled unit is not found for owners", forge.Permission{Mode: forge.AccessModeOwner, Units: off}, false, needOwner, ErrActionsDisabled},
		{"disabled unit is not found for admins", forge.Permission{Mode: forge.AccessModeOwner, Units: off}, true, needOwner, ErrActionsDisabled},
		{"reader may not dispatch", forge.Permission{Mode: forge.AccessModeRead}, false, needWrite, ErrNoActionsWrite},
		{"writer dispatches", forge.Permission{Mode: forge.AccessModeWrite}, false, needWrite, nil},
	} {
		assert.Equal(t, tc.want, checkRepoAccess(tc.perm, tc.admin, tc.n), tc.name)
	}
}

func TestRunnerVisibility(t *testing.T) {
	t.Parallel()
	repo := Scope{RepoID: 7}
	owner := Scope{OwnerID: 3}
	other := Scope{OwnerID: 4}
	for _, tc := range []struct {
		name             string
		runner, level    Scope
		repoOwner        forge.ID
		visible, editing bool
	}{
		{"own", repo, repo, 3, true, true},
		{"global seen by a repo", Global, repo, 3, true, false},
		{"owner's seen by its repo", owner, repo, 3, true, false},
		{"another owner's unseen", other, repo, 3, false, false},
		{"repo's unseen by its owner", repo, owner, 0, false, false},
		{"global level sees and edits all", repo, Global, 0, true, true},
	} {
		r := &Runner{Scope: tc.runner}
		assert.Equal(t, tc.visible, RunnerVisible(r, tc.level, tc.repoOwner), tc.name)
		assert.Equal(t, tc.editing, RunnerEditable(r, tc.level), tc.name)
	}
}
