package repos_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// presentationPorts answers the presentation's ports from fixed values and
// records the ids each call was asked for.
type presentationPorts struct {
	mu      sync.Mutex
	counts  map[forge.ID]repos.IssueCounts
	mirrors map[forge.ID]repos.MirrorFields
	asked   [][]forge.ID // one entry per call, of either port
	err     error
}

func (p *presentationPorts) RepoIssueCounts(_ context.Context, ids []forge.ID) (map[forge.ID]repos.IssueCounts, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, slices.Clone(ids))
	return entriesOf(p.counts, ids), p.err
}

func (p *presentationPorts) PullMirrorFields(_ context.Context, ids []forge.ID) (map[forge.ID]repos.MirrorFields, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked = append(p.asked, slices.Clone(ids))
	return entriesOf(p.mirrors, ids), p.err
}

// entriesOf is the entries of m whose keys are in ids.
func entriesOf[T any](m map[forge.ID]T, ids []forge.ID) map[forge.ID]T {
	out := map[forge.ID]T{}
	for _, id := range ids {
		if v, ok := m[id]; ok {
			out[id] = v
		}
	}
	return out
}

func (p *presentationPorts) reset() (asked [][]forge.ID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	asked, p.asked = p.asked, nil
	return asked
}

// TestPresentationTrustsOnlyIDs: PresentAll shows the counters, the mirror
// fields and what a repository relates to only for the repositories the
// actor may read, whatever views the caller passes (the ports, which check
// nothing, are never asked about the others); a fork shows its parent's
// counters; a read:user credential sees the counters but nothing related;
// the ports are called once each whatever the page's length; Present
// answers what PresentAll answers for the one repository.
func TestPresentationTrustsOnlyIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ports := &presentationPorts{}
	e := newMemEnv(t, func(c *repos.Config) { c.IssueCounts, c.PullMirrors = ports, ports })
	alice := e.user(t, "alice")
	bob := e.user(t, "bob")
	mallory := e.user(t, "mallory")
	secret := e.repo(t, alice, "secret", true)
	pub := e.repo(t, alice, "pub", false)
	fork, err := e.svc.Fork(ctx, bob, "alice", "pub", "")
	require.NoError(t, err)
	ports.counts = map[forge.ID]repos.IssueCounts{
		secret.Repo.ID: {OpenIssues: 7}, pub.Repo.ID: {OpenIssues: 2, OpenPulls: 1}, fork.Repo.ID: {OpenIssues: 3},
	}
	updated := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ports.mirrors = map[forge.ID]repos.MirrorFields{
		secret.Repo.ID: {Interval: time.Hour, OriginalURL: "https://secret.example/x.git"},
		pub.Repo.ID:    {Interval: 8 * time.Hour, Updated: updated, OriginalURL: "https://example.com/pub.git"},
	}
	views := []*repos.View{secret, pub, fork}
	ports.reset()

	for name, actor := range map[string]forge.Actor{"stranger": mallory, "anonymous": {}} {
		ps, err := e.svc.PresentAll(ctx, actor, views)
		require.NoError(t, err, name)
		require.Len(t, ps, 3, name)
		assert.Same(t, secret, ps[0].View, name)
		assert.Equal(t, repos.Presentation{View: secret}, ps[0], "%s: nothing of a private repository it cannot read", name)
		assert.Equal(t, repos.IssueCounts{OpenIssues: 2, OpenPulls: 1}, ps[1].Counts, name)
		require.NotNil(t, ps[1].Mirror, name)
		assert.Equal(t, repos.MirrorFields{Interval: 8 * time.Hour, Updated: updated, OriginalURL: "https://example.com/pub.git"}, *ps[1].Mirror, name)
		assert.Equal(t, repos.IssueCounts{OpenIssues: 3}, ps[2].Counts, name)
		assert.Nil(t, ps[2].Mirror, name)
		require.NotNil(t, ps[2].Related.Parent, "%s: the fork's parent", name)
		assert.Equal(t, pub.Repo.ID, ps[2].Related.Parent.Repo.ID, name)
		assert.Equal(t, repos.IssueCounts{OpenIssues: 2, OpenPulls: 1}, ps[2].ParentCounts, "%s: the parent's counters", name)
		asked := ports.reset()
		require.Len(t, asked, 2, "%s: one call of each port", name)
		for _, ids := range asked {
			assert.NotContains(t, ids, secret.Repo.ID, "%s: a port asked about an unreadable repository", name)
		}
	}

	// The owner sees its private repository's counters and mirror fields.
	ps, err := e.svc.PresentAll(ctx, alice, views)
	require.NoError(t, err)
	assert.Equal(t, repos.IssueCounts{OpenIssues: 7}, ps[0].Counts)
	require.NotNil(t, ps[0].Mirror)
	ports.reset()

	// read:user (starred lists): counters and mirror fields of what it may
	// read, nothing related.
	ps, err = e.svc.PresentAll(ctx, token(t, mallory, "read:user"), views)
	require.NoError(t, err)
	assert.Equal(t, repos.Presentation{View: secret}, ps[0])
	assert.Equal(t, repos.IssueCounts{OpenIssues: 3}, ps[2].Counts)
	assert.Nil(t, ps[2].Related.Parent, "read:user sees no parent")
	assert.Equal(t, repos.IssueCounts{}, ps[2].ParentCounts)
	ports.reset()

	// Present is PresentAll of the repository as the actor gets it.
	for _, v := range []*repos.View{pub, fork} {
		got, err := e.svc.Present(ctx, mallory, v.Repo.OwnerName, v.Repo.Name)
		require.NoError(t, err)
		mine, err := e.svc.Get(ctx, mallory, v.Repo.OwnerName, v.Repo.Name)
		require.NoError(t, err)
		want, err := e.svc.PresentAll(ctx, mallory, []*repos.View{mine})
		require.NoError(t, err)
		assert.Equal(t, want[0], *got, v.Repo.FullName())
	}
	_, err = e.svc.Present(ctx, mallory, "alice", "secret")
	assert.ErrorIs(t, err, forge.ErrNotFound)

	// An account that may not act is refused; a port's failure is the
	// read's.
	_, err = e.svc.PresentAll(ctx, deactivated(alice), views)
	assert.ErrorIs(t, err, forge.ErrForbidden)
	ports.err = errors.New("counts unavailable")
	_, err = e.svc.PresentAll(ctx, alice, views)
	assert.ErrorIs(t, err, ports.err)
	_, err = e.svc.Present(ctx, alice, "alice", "pub")
	assert.ErrorIs(t, err, ports.err)
}
