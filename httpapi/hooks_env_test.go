package httpapi_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi"
)

// hookEnv is the organisation environment with the webhook service on the
// same SQLite database; its sender may reach loopback receivers.
type hookEnv struct {
	*env
	hooks *hooks.Service
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	b := newBase(t, ":memory:", testSecret)
	db, clock, svc, git := b.db, b.clock, b.auth, b.git
	repoSvc, repoPorts := b.repoService(t)
	orgSvc, _ := b.orgService(t, repoSvc)
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	hookSvc, err := hooks.New(hooks.Config{Store: db.Hooks(), Clock: clock, Repos: repoSvc, Orgs: orgSvc,
		Sender: hookhttp.New(policy), Timeout: 5 * time.Second, RootURL: "https://forge.example/",
		Payloads: &site.HookPayloads{RootURL: "https://forge.example/", Accounts: repoPorts}})
	require.NoError(t, err)
	return &hookEnv{env: b.serve(t, httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc, Hooks: hookSvc}), hooks: hookSvc}
}
