package storetest

// The recording wrappers: every store the suite uses goes through them, so
// the Coverage subtest can tell which store methods the suite called. The
// wrappers themselves are generated (record_gen.go, from the Stores list of
// internal/recgen: `go generate ./storage/storetest`); what is here is what
// the generator cannot read from a domain package: the recorder, and
// recBackend, whose accessors are those of Backend, an interface of this
// package.

//go:generate go run ./internal/recgen/cmd/recgen

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/forge/feeds"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/blob"
)

// recorder is the set of store methods called, by "iface.Method", and the
// optional interfaces the wrappers met, by "pkg.Iface".
type recorder struct {
	mu     sync.Mutex
	called map[string]bool
	seen   map[string]reflect.Type
}

func (r *recorder) hit(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.called == nil {
		r.called = map[string]bool{}
	}
	r.called[name] = true
}

// saw notes that a wrapped value has the optional interface typ, so that
// the suite must cover its methods too.
func (r *recorder) saw(name string, typ reflect.Type) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]reflect.Type{}
	}
	r.seen[name] = typ
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

// storeInterfaces are the interfaces whose every method the suite must
// call: the transactions of each domain, and the optional interfaces the
// wrappers met (auth.TokenFinder, issues.BlockReader, blob.RefTx).
func storeInterfaces(rec *recorder) map[string]reflect.Type {
	m := maps.Clone(requiredInterfaces)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	maps.Copy(m, rec.seen)
	return m
}

// checkCoverage fails t if the suite never called a method of the backend's
// store interfaces.
func checkCoverage(t *testing.T, rec *recorder) {
	t.Helper()
	for _, name := range rec.missing(storeInterfaces(rec)) {
		t.Errorf("storetest never calls %s: add it to the suite", name)
	}
}

type recBackend struct {
	b   Backend
	rec *recorder
}

func (r recBackend) Auth() auth.Store           { return recordAuthStore(r.b.Auth(), r.rec) }
func (r recBackend) Repos() repos.Store         { return recordReposStore(r.b.Repos(), r.rec) }
func (r recBackend) Orgs() orgs.Store           { return recordOrgsStore(r.b.Orgs(), r.rec) }
func (r recBackend) Issues() issues.Store       { return recordIssuesStore(r.b.Issues(), r.rec) }
func (r recBackend) Notify() notify.Store       { return recordNotifyStore(r.b.Notify(), r.rec) }
func (r recBackend) OAuthApps() oauthapps.Store { return recordOauthappsStore(r.b.OAuthApps(), r.rec) }
func (r recBackend) Feeds() feeds.Store         { return recordFeedsStore(r.b.Feeds(), r.rec) }
func (r recBackend) Federation() federation.Store {
	return recordFederationStore(r.b.Federation(), r.rec)
}
func (r recBackend) Actions() actions.Store     { return recordActionsStore(r.b.Actions(), r.rec) }
func (r recBackend) Hooks() hooks.Store         { return recordHooksStore(r.b.Hooks(), r.rec) }
func (r recBackend) LFS() lfs.Store             { return recordLfsStore(r.b.LFS(), r.rec) }
func (r recBackend) Packages() packages.Store   { return recordPackagesStore(r.b.Packages(), r.rec) }
func (r recBackend) Artifacts() artifacts.Store { return recordArtifactsStore(r.b.Artifacts(), r.rec) }
func (r recBackend) Quota() quota.Store         { return recordQuotaStore(r.b.Quota(), r.rec) }
func (r recBackend) Mirrors() mirror.Store      { return recordMirrorStore(r.b.Mirrors(), r.rec) }
func (r recBackend) GPGKeys() gpgkeys.Store     { return recordGpgkeysStore(r.b.GPGKeys(), r.rec) }
func (r recBackend) SSHKeys() sshkeys.Store     { return recordSshkeysStore(r.b.SSHKeys(), r.rec) }

// BlobRefs wraps the backend's blob.RefStore; it panics unless the backend
// is a BlobRefBackend (testBlobRefs checks unwrapped(b) first).
func (r recBackend) BlobRefs() blob.RefStore {
	return recordBlobRefStore(r.b.(BlobRefBackend).BlobRefs(), r.rec)
}

// unwrapped returns the backend under the recording wrapper, whose
// transactions have the optional interfaces the wrapper hides.
func unwrapped(b Backend) Backend {
	if r, ok := b.(recBackend); ok {
		return r.b
	}
	return b
}
