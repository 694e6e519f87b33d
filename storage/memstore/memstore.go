// Package memstore is an in-memory storage backend: every domain Store
// (auth.Store, repos.Store) over Go maps, with real transactions. It exists
// so the rule engine runs with no database: Hearth's own tests, and
// products' tests of their own logic against Hearth's rules. It is not for
// production: nothing is persisted, and every write transaction copies the
// whole state.
//
// Semantics follow storage/sqlite method by method (both run
// storage/storetest): names and e-mails compare ignoring case, uniqueness
// violations are forge.ErrConflict, missing rows and missing referenced rows
// are forge.ErrNotFound, deletes cascade as the SQL schema's foreign keys do,
// timestamps are kept to the second in UTC, and values returned are copies
// the caller may change freely.
//
// Transactions: Update runs fn on a private copy of the committed state and
// publishes it iff fn returns nil, so a failing fn (or a panic) leaves
// nothing changed. Writers are serialised by one mutex; View reads the last
// committed state, which is never modified, so readers never wait and always
// see one consistent snapshot.
package memstore

import (
	"context"
	"errors"
	"github.com/hearthforge/hearth/auth/oauthapps"
	"github.com/hearthforge/hearth/forge/feeds"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/gpgkeys"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/notify"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/mirror"
	"github.com/hearthforge/hearth/storage/internal/domainstore"
)

// Store is an in-memory backend. The zero value is not ready: use New.
type Store struct {
	writer sync.Mutex // held by the one running Update
	cur    atomic.Pointer[state]
}

// New returns an empty store.
func New() *Store {
	s := &Store{}
	s.cur.Store(newState())
	return s
}

// Store is not itself an auth.Store or a repos.Store (their Update methods
// differ in the Tx they pass): Auth, Repos and the other domain methods
// return views of it (storeOf), as storage/sqlite does.

// Auth returns the store package auth consumes.
func (s *Store) Auth() auth.Store {
	return authStore{storeOf(s, func(t *tx) auth.Tx { return t }), s}
}

// Repos returns the store package forge/repos consumes.
func (s *Store) Repos() repos.Store { return storeOf(s, func(t *tx) repos.Tx { return t }) }

// pair keys the rows that join a repository and a user.
type pair struct{ repo, user forge.ID }

type userRow struct {
	u    forge.User
	hash string
}

type watchRow struct {
	mode repos.WatchMode
	at   time.Time
}

type starRow struct{ at time.Time }

type transferRow struct {
	doer, recipient forge.ID
	created         time.Time
	teams           []forge.ID // never modified in place
}

// state is one version of the whole database. A committed state is never
// modified; Update works on a clone. Rows are stored as values whose slices
// and pointers are owned by the state (copied in and out).
type state struct {
	seq         map[string]int64 // last id per table
	users       map[forge.ID]userRow
	tokens      map[forge.ID]auth.AccessToken
	sources     map[forge.ID]auth.LoginSource
	twoFactor   map[forge.ID]auth.TwoFactor
	repos       map[forge.ID]forge.Repository
	collabs     map[pair]forge.AccessMode
	watches     map[pair]watchRow
	stars       map[pair]starRow
	protections map[forge.ID]repos.BranchProtection
	transfers   map[forge.ID]transferRow
	tagProts    map[forge.ID]repos.TagProtection
	releases    map[forge.ID]repos.Release
	attachments map[forge.ID]repos.Attachment
	statuses    map[forge.ID]repos.CommitStatus
	// Organisations (forge/orgs): memberships by {org, user} (the value
	// tells a public one), teams, their members and repositories, blocks.
	orgMembers map[orgUser]bool
	teams      map[forge.ID]forge.Team
	teamUsers  map[teamUser]struct{}
	teamRepos  map[teamRepo]struct{}
	blocks     map[blockKey]time.Time
	// Issues (package issues): issues, the last index reserved per
	// repository, assignees per issue, comments, labels, issue labels,
	// milestones and issue attachments.
	issues      map[forge.ID]issues.Issue
	issueIndex  map[forge.ID]int64
	assignees   map[forge.ID][]forge.ID
	mentions    map[mentionKey]bool
	comments    map[forge.ID]issues.Comment
	labels      map[forge.ID]issues.Label
	issueLabels map[issueLabel]struct{}
	milestones  map[forge.ID]issues.Milestone
	issueAssets map[forge.ID]issues.Attachment

	// Actions (actions.go).
	actSecrets map[forge.ID]actions.Secret
	actVars    map[forge.ID]actions.Variable
	actTokens  map[forge.ID]actions.RunnerToken
	actRunners map[forge.ID]actions.Runner
	actRuns    map[forge.ID]actions.Run
	// Dependencies, tracked times and stopwatches (issues_tracking.go).
	deps        map[depKey]issues.Dependency
	times       map[forge.ID]issues.TrackedTime
	stopwatches map[forge.ID]issues.Stopwatch
	// Reactions, issue watches and cross-references (issues.SocialTx).
	reactions  map[forge.ID]issues.Reaction
	issueWatch map[forge.ID]issues.IssueWatch
	crossRefs  map[forge.ID]issues.CrossRef // by comment id
	hooks      map[forge.ID]hooks.Hook
	hookTasks  map[forge.ID]hooks.Task
	// Notifications (forge/notify): threads by id.
	threads map[forge.ID]notify.Thread
	// Pull requests, reviews, scheduled merges by pull id (pulls.go).
	pulls      map[forge.ID]issues.PullRequest
	reviews    map[forge.ID]issues.Review
	autoMerges map[forge.ID]issues.AutoMerge
	// LFS objects, packages and artifacts (lfs.go, packages.go, artifacts.go).
	lfsMeta     map[lfsKey]lfs.MetaObject
	packages    map[forge.ID]packages.Package
	pkgVersions map[forge.ID]packages.Version
	pkgFiles    map[forge.ID]packages.File
	artifacts   map[forge.ID]artifacts.Artifact
	quota       quotaState // quota.go
	// Mirrors (package mirror): pull and push mirrors by id, leases by key.
	pullMirrors map[forge.ID]mirror.PullMirror
	pushMirrors map[forge.ID]mirror.PushMirror
	leases      map[mirror.Key]mirror.Lease
	outbox      map[forge.ID]hooks.OutboxEvent // outbox.go
	gpgKeys     map[forge.ID]gpgkeys.Key       // gpgkeys.go
	oauthApps   map[forge.ID]oauthapps.App     // oauthapps.go
	feedActions map[forge.ID]feeds.Action      // feeds.go
	// Public keys and deploy keys (sshkeys.go).
	sshKeys    map[forge.ID]sshkeys.Key
	deployKeys map[forge.ID]sshkeys.DeployKey
}

// issueLabel keys a label on an issue.
type issueLabel struct{ issue, label forge.ID }

// orgUser keys a membership of an organisation.
type orgUser struct{ org, user forge.ID }

// teamUser keys a team's member.
type teamUser struct{ team, user forge.ID }

// teamRepo keys a team's repository.
type teamRepo struct{ team, repo forge.ID }

// blockKey keys a block: blocker blocks user.
type blockKey struct{ blocker, user forge.ID }

// newState returns the empty state: the zero state's clone (clone makes
// every table).
func newState() *state { return (&state{}).clone() }

// clone copies the maps; the row values are immutable once stored, so a
// shallow copy of each map is a full copy of the state. A nil map (the
// zero state's) is copied as an empty one.
func (s *state) clone() *state {
	return &state{
		seq:         cloneMap(s.seq),
		users:       cloneMap(s.users),
		tokens:      cloneMap(s.tokens),
		sources:     cloneMap(s.sources),
		twoFactor:   cloneMap(s.twoFactor),
		repos:       cloneMap(s.repos),
		collabs:     cloneMap(s.collabs),
		watches:     cloneMap(s.watches),
		stars:       cloneMap(s.stars),
		protections: cloneMap(s.protections),
		transfers:   cloneMap(s.transfers),
		tagProts:    cloneMap(s.tagProts),
		releases:    cloneMap(s.releases),
		attachments: cloneMap(s.attachments),
		statuses:    cloneMap(s.statuses),
		orgMembers:  cloneMap(s.orgMembers),
		teams:       cloneMap(s.teams),
		teamUsers:   cloneMap(s.teamUsers),
		teamRepos:   cloneMap(s.teamRepos),
		blocks:      cloneMap(s.blocks),
		issues:      cloneMap(s.issues),
		issueIndex:  cloneMap(s.issueIndex),
		assignees:   cloneMap(s.assignees),
		mentions:    cloneMap(s.mentions),
		comments:    cloneMap(s.comments),
		labels:      cloneMap(s.labels),
		issueLabels: cloneMap(s.issueLabels),
		milestones:  cloneMap(s.milestones),
		issueAssets: cloneMap(s.issueAssets),
		actSecrets:  cloneMap(s.actSecrets),
		actVars:     cloneMap(s.actVars),
		actTokens:   cloneMap(s.actTokens),
		actRunners:  cloneMap(s.actRunners),
		actRuns:     cloneMap(s.actRuns),
		deps:        cloneMap(s.deps),
		times:       cloneMap(s.times),
		stopwatches: cloneMap(s.stopwatches),
		reactions:   cloneMap(s.reactions),
		issueWatch:  cloneMap(s.issueWatch),
		crossRefs:   cloneMap(s.crossRefs),
		hooks:       cloneMap(s.hooks),
		hookTasks:   cloneMap(s.hookTasks),
		threads:     cloneMap(s.threads),
		pulls:       cloneMap(s.pulls),
		reviews:     cloneMap(s.reviews),
		autoMerges:  cloneMap(s.autoMerges),
		lfsMeta:     cloneMap(s.lfsMeta),
		packages:    cloneMap(s.packages),
		pkgVersions: cloneMap(s.pkgVersions),
		pkgFiles:    cloneMap(s.pkgFiles),
		artifacts:   cloneMap(s.artifacts),
		quota:       s.quota.clone(),
		pullMirrors: cloneMap(s.pullMirrors),
		pushMirrors: cloneMap(s.pushMirrors),
		leases:      cloneMap(s.leases),
		outbox:      cloneMap(s.outbox),
		gpgKeys:     cloneMap(s.gpgKeys),
		oauthApps:   cloneMap(s.oauthApps),
		feedActions: cloneMap(s.feedActions),
		sshKeys:     cloneMap(s.sshKeys),
		deployKeys:  cloneMap(s.deployKeys),
	}
}

// cloneMap returns a copy of m, never nil.
func cloneMap[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return M{}
	}
	return maps.Clone(m)
}

// nextID returns the next id of a table (ids start at 1 and are never
// reused, as SQLite's AUTOINCREMENT).
func (s *state) nextID(table string) forge.ID {
	s.seq[table]++
	return s.seq[table]
}

// tx is one transaction. Its methods implement auth.Tx and repos.Tx.
type tx struct {
	st       *state
	writable bool
	done     *atomic.Bool // set when the transaction has ended
}

var errReadOnly = errors.New("memstore: write in a read-only transaction")
var errDone = errors.New("memstore: transaction has already ended")

// read checks that the transaction may still be used.
func (t *tx) read(ctx context.Context) error {
	if t.done.Load() {
		return errDone
	}
	return ctx.Err()
}

// write checks that the transaction may still be used to write.
func (t *tx) write(ctx context.Context) error {
	if err := t.read(ctx); err != nil {
		return err
	}
	if !t.writable {
		return errReadOnly
	}
	return nil
}

func (s *Store) update(ctx context.Context, fn func(*tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.writer.Lock()
	defer s.writer.Unlock()
	t := &tx{st: s.cur.Load().clone(), writable: true, done: new(atomic.Bool)}
	defer t.done.Store(true)
	if err := fn(t); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err // as a database does: a cancelled context does not commit
	}
	s.cur.Store(t.st)
	return nil
}

func (s *Store) view(ctx context.Context, fn func(*tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := &tx{st: s.cur.Load(), done: new(atomic.Bool)}
	defer t.done.Store(true)
	return fn(t)
}

// storeOf returns the domain Store over s whose transactions are seen
// through as.
func storeOf[T any](s *Store, as func(*tx) T) domainstore.Store[*tx, T] {
	return domainstore.Of(s.update, s.view, as)
}

// ts keeps a time as the SQL backends do: to the second, in UTC, the zero
// time staying zero.
func ts(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return time.Unix(t.Unix(), 0).UTC()
}

func notFound(what string) error { return forge.Errorf(forge.ErrNotFound, "%s: not found", what) }
func conflict(what string) error { return forge.Errorf(forge.ErrConflict, "%s: already exists", what) }
func missingRef(what string) error {
	return forge.Errorf(forge.ErrNotFound, "%s: missing referenced row", what)
}

// reader is a transaction that checks it may still be read (*tx, and the
// domain Tx types embedding it).
type reader interface{ read(context.Context) error }

// writer is a transaction that checks it may still write.
type writer interface{ write(context.Context) error }

// readRow returns a copy of the row of table at key, or forge.ErrNotFound
// naming what.
func readRow[K comparable, V any](ctx context.Context, t reader, table map[K]V, key K, what string) (*V, error) {
	return readAs(ctx, t, table, key, what, func(v V) *V { return &v })
}

// readAs returns out of the row of table at key (a copy the caller owns),
// or forge.ErrNotFound naming what.
func readAs[K comparable, V, W any](ctx context.Context, t reader, table map[K]V, key K, what string, out func(V) *W) (*W, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	v, ok := table[key]
	if !ok {
		return nil, notFound(what)
	}
	return out(v), nil
}

// writeRow checks that t may write and that table has a row at key
// (forge.ErrNotFound naming what otherwise), and returns that row as it
// is before the write.
func writeRow[K comparable, V any](ctx context.Context, t writer, table map[K]V, key K, what string) (V, error) {
	if err := t.write(ctx); err != nil {
		var zero V
		return zero, err
	}
	v, ok := table[key]
	if !ok {
		return v, notFound(what)
	}
	return v, nil
}

// findRow returns a copy of the row of table that match accepts (the
// callers' conditions name one row at most), or forge.ErrNotFound naming
// what.
func findRow[K comparable, V any](ctx context.Context, t reader, table map[K]V, match func(V) bool, what string) (*V, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, v := range table {
		if match(v) {
			return &v, nil
		}
	}
	return nil, notFound(what)
}

// countRows counts the rows of table that match accepts.
func countRows[K comparable, V any](ctx context.Context, t reader, table map[K]V, match func(V) bool) (int64, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	var n int64
	for _, v := range table {
		if match(v) {
			n++
		}
	}
	return n, nil
}

// listRows returns copies of the rows of table that match accepts, sorted
// by order; never nil.
func listRows[K comparable, V any](ctx context.Context, t reader, table map[K]V, match func(V) bool, order func(a, b *V) int) ([]*V, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []*V{}
	for _, v := range table {
		if match(v) {
			out = append(out, &v)
		}
	}
	slices.SortFunc(out, order)
	return out, nil
}

// pageRows returns one page of the rows of table that match accepts,
// sorted by order and copied, and how many match in all.
func pageRows[K comparable, V any](ctx context.Context, t reader, table map[K]V, match func(V) bool, order func(a, b *V) int, o forge.ListOptions) ([]*V, int64, error) {
	all, err := listRows(ctx, t, table, match, order)
	if err != nil {
		return nil, 0, err
	}
	lo, hi := o.Normalize().Bounds(len(all))
	return all[lo:hi], int64(len(all)), nil
}

// writeRef checks that t may write and that table has the row at key a
// new row refers to (forge.ErrNotFound, a missing referenced row naming
// what, otherwise).
func writeRef[K comparable, V any](ctx context.Context, t writer, table map[K]V, key K, what string) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if _, ok := table[key]; !ok {
		return missingRef(what)
	}
	return nil
}

// sortPage sorts all by order and returns a copy of the page o.Bounds
// selects, and len(all).
func sortPage[T any](all []T, order func(a, b T) int, o forge.ListOptions) ([]T, int64) {
	slices.SortFunc(all, order)
	lo, hi := o.Bounds(len(all))
	return append([]T{}, all[lo:hi]...), int64(len(all))
}

// sortedPage is sortPage with the page as pointers to copies.
func sortedPage[V any](all []V, order func(a, b V) int, o forge.ListOptions) ([]*V, int64) {
	page, n := sortPage(all, order, o)
	out := make([]*V, len(page))
	for k := range page {
		out[k] = &page[k]
	}
	return out, n
}

// rowsWhere returns the rows of table that match accepts, in no order
// (nil for none).
func rowsWhere[K comparable, V any](table map[K]V, match func(V) bool) []V {
	var out []V
	for _, v := range table {
		if match(v) {
			out = append(out, v)
		}
	}
	return out
}

// deleteRow checks that t may write and that table has a row at key
// (forge.ErrNotFound naming what otherwise), then deletes it: with del,
// which deletes what goes with it too, or else from table alone.
func deleteRow[K comparable, V any](ctx context.Context, t writer, table map[K]V, key K, what string, del func(K)) error {
	if _, err := writeRow(ctx, t, table, key, what); err != nil {
		return err
	}
	if del == nil {
		delete(table, key)
	} else {
		del(key)
	}
	return nil
}

// updateRow checks that t may write and that table has a row at key
// (forge.ErrNotFound naming what otherwise), and replaces it with next of
// the row as it was.
func updateRow[K comparable, V any](ctx context.Context, t writer, table map[K]V, key K, what string, next func(old V) V) error {
	old, err := writeRow(ctx, t, table, key, what)
	if err != nil {
		return err
	}
	table[key] = next(old)
	return nil
}

// conflictIf returns forge.ErrConflict naming what if a row of table
// matches (a uniqueness rule the SQL schema states as an index).
func conflictIf[K comparable, V any](table map[K]V, match func(V) bool, what string) error {
	for _, v := range table {
		if match(v) {
			return conflict(what)
		}
	}
	return nil
}

// idsWhere returns the ids pick takes from the rows of table it accepts,
// sorted; never nil.
func idsWhere[K comparable, V any](table map[K]V, pick func(K, V) (forge.ID, bool)) []forge.ID {
	ids := []forge.ID{}
	for k, v := range table {
		if id, ok := pick(k, v); ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}
