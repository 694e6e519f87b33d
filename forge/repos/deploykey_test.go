package repos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestDeployKeyAccess: a deploy key (git over SSH) has its mode on the
// code of the repositories it is deployed to, nothing on the others nor on
// any other unit, private or public.
func TestDeployKeyAccess(t *testing.T) {
	t.Parallel()
	owner := &forge.User{ID: 1, Name: "o"}
	mine := &forge.Repository{ID: 10, OwnerID: 1, Private: true, HasIssues: true}
	other := &forge.Repository{ID: 11, OwnerID: 1, HasIssues: true}
	ro := forge.Actor{Method: forge.AuthSSHKey, DeployKey: &forge.DeployKey{KeyID: 5, Repos: map[forge.ID]forge.AccessMode{10: forge.AccessModeRead}}}
	rw := forge.Actor{Method: forge.AuthSSHKey, DeployKey: &forge.DeployKey{KeyID: 6, Repos: map[forge.ID]forge.AccessMode{10: forge.AccessModeWrite}}}

	p := repos.Access(ro, mine, owner, repos.Grants{})
	assert.True(t, p.CanRead(forge.UnitCode))
	assert.False(t, p.CanWrite(forge.UnitCode))
	assert.False(t, p.CanRead(forge.UnitIssues), "a deploy key reaches the code only")
	p = repos.Access(rw, mine, owner, repos.Grants{})
	assert.True(t, p.CanWrite(forge.UnitCode))
	assert.Equal(t, forge.AccessModeWrite, p.Mode, "never administrator")
	assert.Equal(t, forge.Permission{}, repos.Access(rw, other, owner, repos.Grants{}), "not even a public repository it is not deployed to")
}

// TestDeployKeyBranchPush: a push whitelist lets a deploy key through only
// with PushWhitelistDeployKeys (Forgejo's pre-receive rule); without a
// whitelist a rule that enables pushing lets it through.
func TestDeployKeyBranchPush(t *testing.T) {
	t.Parallel()
	key := repos.Pusher{DeployKey: true}
	assert.True(t, repos.CanPushBranchAs(&repos.BranchProtection{EnablePush: true}, key))
	assert.False(t, repos.CanPushBranchAs(&repos.BranchProtection{EnablePush: false}, key))
	assert.False(t, repos.CanPushBranchAs(&repos.BranchProtection{EnablePush: true, EnablePushWhitelist: true}, key))
	assert.True(t, repos.CanPushBranchAs(&repos.BranchProtection{EnablePush: true, EnablePushWhitelist: true, PushWhitelistDeployKeys: true}, key))
}
