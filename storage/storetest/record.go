package storetest

// The recording wrappers: every Tx the suite uses goes through them, so
// TestCoverage-style checks can tell which store methods the suite called.
// The Tx wrappers embed the interface: a method added to auth.Tx or repos.Tx
// later still compiles, passes through unrecorded, and is reported as never
// called until the suite tests it (and a wrapper method is added here).

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
)

// recorder is the set of store methods called, by "iface.Method".
type recorder struct {
	mu     sync.Mutex
	called map[string]bool
}

func (r *recorder) hit(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.called == nil {
		r.called = map[string]bool{}
	}
	r.called[name] = true
}

// missing returns the methods of the interface types (named by prefix) that
// were never called, sorted.
func (r *recorder) missing(ifaces map[string]reflect.Type) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for prefix, typ := range ifaces {
		for i := range typ.NumMethod() {
			if name := prefix + "." + typ.Method(i).Name; !r.called[name] {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// storeInterfaces are the interfaces whose every method the suite must call:
// the transactions of each domain, and the optional store methods a
// backend has.
func storeInterfaces(b Backend) map[string]reflect.Type {
	m := map[string]reflect.Type{
		"auth.Tx":   reflect.TypeFor[auth.Tx](),
		"repos.Tx":  reflect.TypeFor[repos.Tx](),
		"orgs.Tx":   reflect.TypeFor[orgs.Tx](),
		"hooks.Tx":  reflect.TypeFor[hooks.Tx](),
		"notify.Tx": reflect.TypeFor[notify.Tx](),
		"mirror.Tx": reflect.TypeFor[mirror.Tx](),
	}
	m["actions.Tx"] = reflect.TypeFor[actions.Tx]()
	addLFSPackageInterfaces(m)
	addIssueInterfaces(m, b)
	addQuotaInterfaces(m)
	addBlobRefInterfaces(m, b)
	if _, ok := b.Auth().(auth.TokenFinder); ok {
		m["auth.TokenFinder"] = reflect.TypeFor[auth.TokenFinder]()
	}
	return m
}

// checkCoverage fails t if the suite never called a method of the backend's
// store interfaces.
func checkCoverage(t *testing.T, b Backend, rec *recorder) {
	t.Helper()
	for _, name := range rec.missing(storeInterfaces(b)) {
		t.Errorf("storetest never calls %s: add it to the suite", name)
	}
}

type recBackend struct {
	b   Backend
	rec *recorder
}

func (r recBackend) Auth() auth.Store {
	s := recAuthStore{r.b.Auth(), r.rec}
	if f, ok := r.b.Auth().(auth.TokenFinder); ok {
		return recFinderStore{s, f}
	}
	return s
}

func (r recBackend) Repos() repos.Store { return recReposStore{r.b.Repos(), r.rec} }

func (r recBackend) Orgs() orgs.Store     { return recOrgsStore{r.b.Orgs(), r.rec} }
func (r recBackend) Issues() issues.Store { return recIssuesStore{r.b.Issues(), r.rec} }
func (r recBackend) Hooks() hooks.Store   { return recHooksStore{r.b.Hooks(), r.rec} }
func (r recBackend) Notify() notify.Store { return recNotifyStore{r.b.Notify(), r.rec} }

func (r recBackend) Actions() actions.Store { return recActionsStore{r.b.Actions(), r.rec} }

func (r recBackend) Mirrors() mirror.Store { return recMirrorStore{r.b.Mirrors(), r.rec} }

type recAuthStore struct {
	s   auth.Store
	rec *recorder
}

func (r recAuthStore) Update(ctx context.Context, fn func(auth.Tx) error) error {
	return r.s.Update(ctx, func(tx auth.Tx) error { return fn(recAuthTx{tx, r.rec}) })
}

func (r recAuthStore) View(ctx context.Context, fn func(auth.Tx) error) error {
	return r.s.View(ctx, func(tx auth.Tx) error { return fn(recAuthTx{tx, r.rec}) })
}

type recFinderStore struct {
	recAuthStore
	f auth.TokenFinder
}

func (r recFinderStore) FindToken(ctx context.Context, hash string) (*auth.AccessToken, *forge.User, error) {
	r.rec.hit("auth.TokenFinder.FindToken")
	return r.f.FindToken(ctx, hash)
}

type recReposStore struct {
	s   repos.Store
	rec *recorder
}

func (r recReposStore) Update(ctx context.Context, fn func(repos.Tx) error) error {
	return r.s.Update(ctx, func(tx repos.Tx) error { return fn(recReposTx{tx, r.rec}) })
}

func (r recReposStore) View(ctx context.Context, fn func(repos.Tx) error) error {
	return r.s.View(ctx, func(tx repos.Tx) error { return fn(recReposTx{tx, r.rec}) })
}

type recAuthTx struct {
	auth.Tx
	rec *recorder
}

type recReposTx struct {
	repos.Tx
	rec *recorder
}

func (x recAuthTx) CountUsers(ctx context.Context, f auth.UserCount) (int64, error) {
	x.rec.hit("auth.Tx.CountUsers")
	return x.Tx.CountUsers(ctx, f)
}

func (x recAuthTx) CreateLoginSource(ctx context.Context, a1 *auth.LoginSource) error {
	x.rec.hit("auth.Tx.CreateLoginSource")
	return x.Tx.CreateLoginSource(ctx, a1)
}

func (x recAuthTx) CreateToken(ctx context.Context, a1 *auth.AccessToken) error {
	x.rec.hit("auth.Tx.CreateToken")
	return x.Tx.CreateToken(ctx, a1)
}

func (x recAuthTx) CreateUser(ctx context.Context, a1 *forge.User, a2 string) error {
	x.rec.hit("auth.Tx.CreateUser")
	return x.Tx.CreateUser(ctx, a1, a2)
}

func (x recAuthTx) DeleteToken(ctx context.Context, a1 int64, a2 int64) error {
	x.rec.hit("auth.Tx.DeleteToken")
	return x.Tx.DeleteToken(ctx, a1, a2)
}

func (x recAuthTx) DeleteTwoFactor(ctx context.Context, a1 int64) error {
	x.rec.hit("auth.Tx.DeleteTwoFactor")
	return x.Tx.DeleteTwoFactor(ctx, a1)
}

func (x recAuthTx) DeleteUser(ctx context.Context, a1 int64) error {
	x.rec.hit("auth.Tx.DeleteUser")
	return x.Tx.DeleteUser(ctx, a1)
}

func (x recAuthTx) OwnsRepositories(ctx context.Context, a1 int64) (bool, error) {
	x.rec.hit("auth.Tx.OwnsRepositories")
	return x.Tx.OwnsRepositories(ctx, a1)
}

func (x recAuthTx) ListLoginSources(ctx context.Context) ([]*auth.LoginSource, error) {
	x.rec.hit("auth.Tx.ListLoginSources")
	return x.Tx.ListLoginSources(ctx)
}

func (x recAuthTx) ListTokens(ctx context.Context, a1 int64, a2 forge.ListOptions) ([]*auth.AccessToken, int64, error) {
	x.rec.hit("auth.Tx.ListTokens")
	return x.Tx.ListTokens(ctx, a1, a2)
}

func (x recAuthTx) ListUsers(ctx context.Context, a1 auth.UserFilter, a2 forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("auth.Tx.ListUsers")
	return x.Tx.ListUsers(ctx, a1, a2)
}

func (x recAuthTx) LoginSourceByID(ctx context.Context, a1 int64) (*auth.LoginSource, error) {
	x.rec.hit("auth.Tx.LoginSourceByID")
	return x.Tx.LoginSourceByID(ctx, a1)
}

func (x recAuthTx) PasswordHash(ctx context.Context, a1 int64) (string, error) {
	x.rec.hit("auth.Tx.PasswordHash")
	return x.Tx.PasswordHash(ctx, a1)
}

func (x recAuthTx) PutTwoFactor(ctx context.Context, a1 *auth.TwoFactor) error {
	x.rec.hit("auth.Tx.PutTwoFactor")
	return x.Tx.PutTwoFactor(ctx, a1)
}

func (x recAuthTx) SetPasswordHash(ctx context.Context, a1 int64, a2 string) error {
	x.rec.hit("auth.Tx.SetPasswordHash")
	return x.Tx.SetPasswordHash(ctx, a1, a2)
}

func (x recAuthTx) TokenByHash(ctx context.Context, a1 string) (*auth.AccessToken, *forge.User, error) {
	x.rec.hit("auth.Tx.TokenByHash")
	return x.Tx.TokenByHash(ctx, a1)
}

func (x recAuthTx) TokensByName(ctx context.Context, a1 int64, a2 string) ([]*auth.AccessToken, error) {
	x.rec.hit("auth.Tx.TokensByName")
	return x.Tx.TokensByName(ctx, a1, a2)
}

func (x recAuthTx) TouchToken(ctx context.Context, a1 int64, a2 time.Time) error {
	x.rec.hit("auth.Tx.TouchToken")
	return x.Tx.TouchToken(ctx, a1, a2)
}

func (x recAuthTx) TwoFactor(ctx context.Context, a1 int64) (*auth.TwoFactor, error) {
	x.rec.hit("auth.Tx.TwoFactor")
	return x.Tx.TwoFactor(ctx, a1)
}

func (x recAuthTx) UpdateUser(ctx context.Context, a1 *forge.User) error {
	x.rec.hit("auth.Tx.UpdateUser")
	return x.Tx.UpdateUser(ctx, a1)
}

func (x recAuthTx) UserByEmail(ctx context.Context, a1 string) (*forge.User, error) {
	x.rec.hit("auth.Tx.UserByEmail")
	return x.Tx.UserByEmail(ctx, a1)
}

func (x recAuthTx) UserByID(ctx context.Context, a1 int64) (*forge.User, error) {
	x.rec.hit("auth.Tx.UserByID")
	return x.Tx.UserByID(ctx, a1)
}

func (x recAuthTx) UserByName(ctx context.Context, a1 string) (*forge.User, error) {
	x.rec.hit("auth.Tx.UserByName")
	return x.Tx.UserByName(ctx, a1)
}

func (x recReposTx) Attachment(ctx context.Context, a1 int64) (*repos.Attachment, error) {
	x.rec.hit("repos.Tx.Attachment")
	return x.Tx.Attachment(ctx, a1)
}

func (x recReposTx) AttachmentByUUID(ctx context.Context, a1 string) (*repos.Attachment, error) {
	x.rec.hit("repos.Tx.AttachmentByUUID")
	return x.Tx.AttachmentByUUID(ctx, a1)
}

func (x recReposTx) CollaboratorMode(ctx context.Context, a1 int64, a2 int64) (forge.AccessMode, error) {
	x.rec.hit("repos.Tx.CollaboratorMode")
	return x.Tx.CollaboratorMode(ctx, a1, a2)
}

func (x recReposTx) CreateAttachment(ctx context.Context, a1 *repos.Attachment) error {
	x.rec.hit("repos.Tx.CreateAttachment")
	return x.Tx.CreateAttachment(ctx, a1)
}

func (x recReposTx) CreateProtection(ctx context.Context, a1 *repos.BranchProtection) error {
	x.rec.hit("repos.Tx.CreateProtection")
	return x.Tx.CreateProtection(ctx, a1)
}

func (x recReposTx) CreateRelease(ctx context.Context, a1 *repos.Release) error {
	x.rec.hit("repos.Tx.CreateRelease")
	return x.Tx.CreateRelease(ctx, a1)
}

func (x recReposTx) CreateRepo(ctx context.Context, a1 *forge.Repository) error {
	x.rec.hit("repos.Tx.CreateRepo")
	return x.Tx.CreateRepo(ctx, a1)
}

func (x recReposTx) CreateStatus(ctx context.Context, a1 *repos.CommitStatus) error {
	x.rec.hit("repos.Tx.CreateStatus")
	return x.Tx.CreateStatus(ctx, a1)
}

func (x recReposTx) CreateTagProtection(ctx context.Context, a1 *repos.TagProtection) error {
	x.rec.hit("repos.Tx.CreateTagProtection")
	return x.Tx.CreateTagProtection(ctx, a1)
}

func (x recReposTx) DeleteAttachment(ctx context.Context, a1 int64) error {
	x.rec.hit("repos.Tx.DeleteAttachment")
	return x.Tx.DeleteAttachment(ctx, a1)
}

func (x recReposTx) DeleteCollaborator(ctx context.Context, a1 int64, a2 int64) error {
	x.rec.hit("repos.Tx.DeleteCollaborator")
	return x.Tx.DeleteCollaborator(ctx, a1, a2)
}

func (x recReposTx) DeleteProtection(ctx context.Context, a1 int64, a2 string) error {
	x.rec.hit("repos.Tx.DeleteProtection")
	return x.Tx.DeleteProtection(ctx, a1, a2)
}

func (x recReposTx) DeleteRelease(ctx context.Context, a1 int64) error {
	x.rec.hit("repos.Tx.DeleteRelease")
	return x.Tx.DeleteRelease(ctx, a1)
}

func (x recReposTx) DeleteRepo(ctx context.Context, a1 int64) error {
	x.rec.hit("repos.Tx.DeleteRepo")
	return x.Tx.DeleteRepo(ctx, a1)
}

func (x recReposTx) DeleteTagProtection(ctx context.Context, a1 int64, a2 int64) error {
	x.rec.hit("repos.Tx.DeleteTagProtection")
	return x.Tx.DeleteTagProtection(ctx, a1, a2)
}

func (x recReposTx) DeleteTransfer(ctx context.Context, a1 int64) error {
	x.rec.hit("repos.Tx.DeleteTransfer")
	return x.Tx.DeleteTransfer(ctx, a1)
}

func (x recReposTx) IsStarred(ctx context.Context, a1 int64, a2 int64) (bool, error) {
	x.rec.hit("repos.Tx.IsStarred")
	return x.Tx.IsStarred(ctx, a1, a2)
}

func (x recReposTx) ListAttachments(ctx context.Context, a1 int64) ([]*repos.Attachment, error) {
	x.rec.hit("repos.Tx.ListAttachments")
	return x.Tx.ListAttachments(ctx, a1)
}

func (x recReposTx) ListCollaborators(ctx context.Context, a1 int64, a2 forge.ListOptions) ([]repos.Collaborator, int64, error) {
	x.rec.hit("repos.Tx.ListCollaborators")
	return x.Tx.ListCollaborators(ctx, a1, a2)
}

func (x recReposTx) ListProtections(ctx context.Context, a1 int64) ([]*repos.BranchProtection, error) {
	x.rec.hit("repos.Tx.ListProtections")
	return x.Tx.ListProtections(ctx, a1)
}

func (x recReposTx) ListReleases(ctx context.Context, a1 int64, a2 repos.ReleaseFilter, a3 forge.ListOptions) ([]*repos.Release, int64, error) {
	x.rec.hit("repos.Tx.ListReleases")
	return x.Tx.ListReleases(ctx, a1, a2, a3)
}

func (x recReposTx) ListRepos(ctx context.Context, a1 repos.RepoFilter, a2 forge.ListOptions) ([]*forge.Repository, int64, error) {
	x.rec.hit("repos.Tx.ListRepos")
	return x.Tx.ListRepos(ctx, a1, a2)
}

func (x recReposTx) ListStargazers(ctx context.Context, a1 int64, a2 forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("repos.Tx.ListStargazers")
	return x.Tx.ListStargazers(ctx, a1, a2)
}

func (x recReposTx) ListStatuses(ctx context.Context, a1 int64, a2 string, a3 repos.StatusFilter, a4 forge.ListOptions) ([]*repos.CommitStatus, int64, error) {
	x.rec.hit("repos.Tx.ListStatuses")
	return x.Tx.ListStatuses(ctx, a1, a2, a3, a4)
}

func (x recReposTx) ListTagProtections(ctx context.Context, a1 int64) ([]*repos.TagProtection, error) {
	x.rec.hit("repos.Tx.ListTagProtections")
	return x.Tx.ListTagProtections(ctx, a1)
}

func (x recReposTx) ListWatchers(ctx context.Context, a1 int64, a2 forge.ListOptions) ([]*forge.User, int64, error) {
	x.rec.hit("repos.Tx.ListWatchers")
	return x.Tx.ListWatchers(ctx, a1, a2)
}

func (x recReposTx) Protection(ctx context.Context, a1 int64, a2 string) (*repos.BranchProtection, error) {
	x.rec.hit("repos.Tx.Protection")
	return x.Tx.Protection(ctx, a1, a2)
}

func (x recReposTx) RecountForks(ctx context.Context, a1 int64) error {
	x.rec.hit("repos.Tx.RecountForks")
	return x.Tx.RecountForks(ctx, a1)
}

func (x recReposTx) ReleaseByID(ctx context.Context, a1 int64, a2 int64) (*repos.Release, error) {
	x.rec.hit("repos.Tx.ReleaseByID")
	return x.Tx.ReleaseByID(ctx, a1, a2)
}

func (x recReposTx) ReleaseByTag(ctx context.Context, a1 int64, a2 string) (*repos.Release, error) {
	x.rec.hit("repos.Tx.ReleaseByTag")
	return x.Tx.ReleaseByTag(ctx, a1, a2)
}

func (x recReposTx) RepoByID(ctx context.Context, a1 int64) (*forge.Repository, error) {
	x.rec.hit("repos.Tx.RepoByID")
	return x.Tx.RepoByID(ctx, a1)
}

func (x recReposTx) RepoByName(ctx context.Context, a1 int64, a2 string) (*forge.Repository, error) {
	x.rec.hit("repos.Tx.RepoByName")
	return x.Tx.RepoByName(ctx, a1, a2)
}

func (x recReposTx) SetCollaborator(ctx context.Context, a1 int64, a2 int64, a3 forge.AccessMode) error {
	x.rec.hit("repos.Tx.SetCollaborator")
	return x.Tx.SetCollaborator(ctx, a1, a2, a3)
}

func (x recReposTx) SetStar(ctx context.Context, a1 int64, a2 int64, a3 bool, a4 time.Time) error {
	x.rec.hit("repos.Tx.SetStar")
	return x.Tx.SetStar(ctx, a1, a2, a3, a4)
}

func (x recReposTx) SetTransfer(ctx context.Context, a1 *repos.Transfer) error {
	x.rec.hit("repos.Tx.SetTransfer")
	return x.Tx.SetTransfer(ctx, a1)
}

func (x recReposTx) SetWatch(ctx context.Context, a1 int64, a2 int64, a3 repos.WatchMode, a4 time.Time) error {
	x.rec.hit("repos.Tx.SetWatch")
	return x.Tx.SetWatch(ctx, a1, a2, a3, a4)
}

func (x recReposTx) TagProtection(ctx context.Context, a1 int64, a2 int64) (*repos.TagProtection, error) {
	x.rec.hit("repos.Tx.TagProtection")
	return x.Tx.TagProtection(ctx, a1, a2)
}

func (x recReposTx) Transfer(ctx context.Context, a1 int64) (*repos.Transfer, error) {
	x.rec.hit("repos.Tx.Transfer")
	return x.Tx.Transfer(ctx, a1)
}

func (x recReposTx) UpdateAttachment(ctx context.Context, a1 *repos.Attachment) error {
	x.rec.hit("repos.Tx.UpdateAttachment")
	return x.Tx.UpdateAttachment(ctx, a1)
}

func (x recReposTx) UpdateProtection(ctx context.Context, a1 *repos.BranchProtection) error {
	x.rec.hit("repos.Tx.UpdateProtection")
	return x.Tx.UpdateProtection(ctx, a1)
}

func (x recReposTx) UpdateRelease(ctx context.Context, a1 *repos.Release) error {
	x.rec.hit("repos.Tx.UpdateRelease")
	return x.Tx.UpdateRelease(ctx, a1)
}

func (x recReposTx) UpdateRepo(ctx context.Context, a1 *forge.Repository) error {
	x.rec.hit("repos.Tx.UpdateRepo")
	return x.Tx.UpdateRepo(ctx, a1)
}

func (x recReposTx) UpdateTagProtection(ctx context.Context, a1 *repos.TagProtection) error {
	x.rec.hit("repos.Tx.UpdateTagProtection")
	return x.Tx.UpdateTagProtection(ctx, a1)
}

func (x recReposTx) UserByID(ctx context.Context, a1 int64) (*forge.User, error) {
	x.rec.hit("repos.Tx.UserByID")
	return x.Tx.UserByID(ctx, a1)
}

func (x recReposTx) UserByName(ctx context.Context, a1 string) (*forge.User, error) {
	x.rec.hit("repos.Tx.UserByName")
	return x.Tx.UserByName(ctx, a1)
}

func (x recReposTx) Watch(ctx context.Context, a1 int64, a2 int64) (repos.WatchMode, time.Time, error) {
	x.rec.hit("repos.Tx.Watch")
	return x.Tx.Watch(ctx, a1, a2)
}
