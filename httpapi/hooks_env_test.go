package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/hooks/hookhttp"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
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
	db, clock, svc, git, blobs := b.db, b.clock, b.auth, b.git, b.blobs
	repoSvc, repoPorts, err := repos.NewWithPorts(repos.Config{Store: db.Repos(), Git: git, Blobs: blobs, Clock: clock})
	require.NoError(t, err)
	orgSvc, err := orgs.New(orgs.Config{Store: db.Orgs(), Clock: clock, Repos: repoSvc, Blobs: blobs})
	require.NoError(t, err)
	policy, err := hooks.ParseAddressPolicy([]string{"loopback"})
	require.NoError(t, err)
	hookSvc, err := hooks.New(hooks.Config{Store: db.Hooks(), Clock: clock, Repos: repoSvc, Orgs: orgSvc,
		Sender: hookhttp.New(policy), Timeout: 5 * time.Second, RootURL: "https://forge.example/",
		Payloads: &site.HookPayloads{RootURL: "https://forge.example/", Accounts: repoPorts}})
	require.NoError(t, err)
	api, err := httpapi.New(httpapi.Config{Auth: svc, Repos: repoSvc, Git: git, Orgs: orgSvc, Hooks: hookSvc})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/", api)
	srv := httptest.NewServer(checked(t, mux))
	t.Cleanup(srv.Close)
	return &hookEnv{env: &env{t: t, srv: srv, auth: svc, clock: clock, repos: repoSvc, api: api}, hooks: hookSvc}
}
