package site_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/site"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

const (
	zeroID = "0000000000000000000000000000000000000000"
	c1     = "1111111111111111111111111111111111111111"
	c2     = "2222222222222222222222222222222222222222"
)

// fakeCommits answers n commits (or err) and records the limits asked.
type fakeCommits struct {
	n      int
	err    error
	limits []int
}

func (f *fakeCommits) PushCommits(_ context.Context, _ forge.ID, oldID, newID string, limit int) ([]*repos.Commit, int, error) {
	f.limits = append(f.limits, limit)
	if f.err != nil {
		return nil, 0, f.err
	}
	var out []*repos.Commit
	for i := 0; i < f.n && i < limit; i++ {
		out = append(out, &repos.Commit{ID: fmt.Sprintf("%040d", i), Message: "m", Author: repos.Signature{Name: "A", Email: "a@x"},
			Committer: repos.Signature{When: time.Unix(0, 0).UTC()}, Files: []repos.FileChangeStat{{Filename: "f", Status: "added"}}})
	}
	return out, f.n, nil
}

// payloadEnv is a repository alice/proj of a memstore with the accounts
// port the composition root gives HookPayloads.
func payloadEnv(t *testing.T, users ...*forge.User) (*repos.Ports, forge.Actor, *forge.Repository) {
	t.Helper()
	ctx := context.Background()
	store := memstore.New()
	rs, rp, err := repos.NewWithPorts(repos.Config{Store: store.Repos(), Git: memgit.New(), Clock: forgetest.NewClock()})
	require.NoError(t, err)
	alice := forgetest.User("alice")
	for _, u := range append([]*forge.User{alice}, users...) {
		require.NoError(t, store.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	}
	actor := forgetest.ActorFor(alice)
	v, err := rs.Create(ctx, actor, "", repos.CreateOptions{Name: "proj"})
	require.NoError(t, err)
	return rp, actor, v.Repo
}

// TestPushPayloadCommits: a push payload lists at most MaxPayloadCommits
// commits, newest first, and counts them all; a new reference reads
// MaxNewRefCommits; a failed read sends empty lists.
func TestPushPayloadCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rp, alice, repo := payloadEnv(t)
	for _, tc := range []struct {
		name          string
		reader        *fakeCommits
		old           string
		listed, total int
		limit         int
	}{
		{"update lists at most 5, counts all", &fakeCommits{n: 7}, c1, 5, 7, site.MaxPayloadCommits},
		{"new branch reads 10", &fakeCommits{n: 3}, zeroID, 3, 3, site.MaxNewRefCommits},
		{"a failed read sends empty lists", &fakeCommits{err: errors.New("boom")}, c1, 0, 0, site.MaxPayloadCommits},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pay := &site.HookPayloads{RootURL: "https://forge.example/", Accounts: rp, Commits: tc.reader}
			refs := pay.Refs(ctx, alice, repo, []hooks.RefUpdate{{Ref: "refs/heads/main", OldID: tc.old, NewID: c2}})
			require.Len(t, refs, 1)
			assert.Equal(t, []int{tc.limit}, tc.reader.limits)
			p := refs[0].Push.(convert.PushPayload)
			require.NotNil(t, p.Commits)
			assert.Len(t, p.Commits, tc.listed)
			assert.Equal(t, tc.total, p.TotalCommits)
			if tc.listed == 0 {
				assert.Nil(t, p.HeadCommit)
				return
			}
			assert.Equal(t, p.Commits[0], p.HeadCommit)
			assert.Equal(t, "https://forge.example/alice/proj/commit/"+fmt.Sprintf("%040d", 0), p.HeadCommit.URL)
			assert.Equal(t, []string{"f"}, p.HeadCommit.Added)
			assert.Equal(t, []string{}, p.HeadCommit.Removed)
			assert.Equal(t, "A", p.HeadCommit.Author.Name)
			assert.Equal(t, "a@x", p.HeadCommit.Author.Email)
		})
	}
}

// TestWebhookPayloadUsersShowNoPrivateDetails: a webhook's receiver is
// whoever a repository administrator named, nobody signed in; Forgejo's
// payloads convert users with no doer (convert.ToUser(ctx, u, nil)): the
// placeholder address, never the e-mail of a user who keeps it private
// nor whether a user is a site administrator. The repository's owner is
// shown with an access (ToUserWithAccessMode): its e-mail unless hidden.
func TestWebhookPayloadUsersShowNoPrivateDetails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := forgetest.User("Root", forgetest.Admin)
	carol := forgetest.User("carol")
	carol.HideEmail = true
	rp, alice, repo := payloadEnv(t, root, carol)
	pay := &site.HookPayloads{RootURL: "https://forge.example/", Accounts: rp}
	for _, u := range []*forge.User{root, carol} {
		p := pay.Repository(ctx, forgetest.ActorFor(u), repo, "created").Sender
		if p.Email == u.Email || p.IsAdmin || p.LoginName != "" {
			t.Errorf("payload user %s shows e-mail %q, is_admin %v", u.Name, p.Email, p.IsAdmin)
		}
		if want := map[string]string{"Root": "root@noreply.forge.example", "carol": "carol@noreply.forge.example"}[u.Name]; p.Email != want {
			t.Errorf("payload user %s e-mail %q, want the placeholder %q", u.Name, p.Email, want)
		}
	}
	if got := pay.Repository(ctx, alice, repo, "created").Repository.Owner.Email; got != alice.User.Email {
		t.Errorf("owner with a public e-mail shown as %q, want %q", got, alice.User.Email)
	}
	hidden := *repo
	hidden.OwnerID, hidden.OwnerName = carol.ID, carol.Name
	if got := pay.Repository(ctx, alice, &hidden, "created").Repository.Owner.Email; got != "carol@noreply.forge.example" {
		t.Errorf("owner with a hidden e-mail shown as %q", got)
	}
}
