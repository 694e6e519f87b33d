package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/issues"
)

// testFederationCounts: the NodeInfo usage counts. CountIndividuals
// counts individual accounts (never organisations), all of them for a
// zero since, else those whose last sign-in is at or after since (never
// signed in: never counted); CountIssues counts issues and pull requests
// of every repository; CountComments every comment of every kind.
// UserByID and RepoByID find what exists and are forge.ErrNotFound
// otherwise. The expected numbers are counted here from what was created.
func testFederationCounts(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Federation()
	count := func(read func(context.Context, federation.Tx) (int64, error)) int64 {
		return fedView(t, s, read)
	}
	since := func(at time.Time) int64 {
		return count(func(ctx context.Context, tx federation.Tx) (int64, error) { return tx.CountIndividuals(ctx, at) })
	}
	empty := count(func(ctx context.Context, tx federation.Tx) (int64, error) { return tx.CountIssues(ctx) })
	assert.Zero(t, empty, "no issue yet")

	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// Accounts i = 0..8: i%3 == 0 never signed in, else signed in i days
	// before base; every fourth one an organisation.
	var individuals int
	lastLogins := map[int]time.Time{}
	var owner *forge.User
	for i := range 9 {
		u := newUser(t, b, fmt.Sprintf("fed%d", i), func(u *forge.User) {
			if i%3 != 0 {
				u.LastLogin = base.AddDate(0, 0, -i)
			}
			if i%4 == 3 {
				u.Type = forge.UserTypeOrganization
			}
		})
		if i%4 != 3 {
			individuals++
			if i%3 != 0 {
				lastLogins[i] = u.LastLogin
			}
			if owner == nil {
				owner = u
			}
		}
	}
	within := func(at time.Time) int64 {
		var n int64
		for _, l := range lastLogins {
			if !l.Before(at) {
				n++
			}
		}
		return n
	}
	assert.EqualValues(t, individuals, since(time.Time{}), "a zero since counts every individual account")
	for _, days := range []int{0, 1, 2, 4, 5, 30} {
		at := base.AddDate(0, 0, -days)
		assert.Equal(t, within(at), since(at), "signed in within %d days (at or after)", days)
	}
	assert.Zero(t, since(base.Add(time.Second)), "nobody signed in after base")

	r := newRepo(t, b, owner, "fedrepo")
	i1 := newIssue(t, b.Issues(), r.ID, owner.ID, "one")
	newIssue(t, b.Issues(), r.ID, owner.ID, "two", func(i *issues.Issue) { i.IsPull = true })
	issueUpdate(t, b.Issues(), func(tx issues.Tx) error {
		for _, typ := range []issues.CommentType{issues.CommentPlain, issues.CommentClose, issues.CommentLabel} {
			c := &issues.Comment{IssueID: i1.ID, Type: typ, PosterID: owner.ID, Body: "c", Created: issueAt, Updated: issueAt}
			if err := tx.CreateComment(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	assert.EqualValues(t, 2, count(func(ctx context.Context, tx federation.Tx) (int64, error) { return tx.CountIssues(ctx) }),
		"an issue and a pull request")
	assert.EqualValues(t, 3, count(func(ctx context.Context, tx federation.Tx) (int64, error) { return tx.CountComments(ctx) }),
		"comments of every kind")

	gotRepo := fedView(t, s, func(ctx context.Context, tx federation.Tx) (*forge.Repository, error) { return tx.RepoByID(ctx, r.ID) })
	assert.Equal(t, "fedrepo", gotRepo.Name)
	gotUser := fedView(t, s, func(ctx context.Context, tx federation.Tx) (*forge.User, error) { return tx.UserByID(ctx, owner.ID) })
	assert.Equal(t, owner.Name, gotUser.Name)
	fedView(t, s, func(ctx context.Context, tx federation.Tx) (bool, error) {
		_, errU := tx.UserByID(ctx, owner.ID+1000)
		_, errR := tx.RepoByID(ctx, r.ID+1000)
		assert.ErrorIs(t, errU, forge.ErrNotFound)
		assert.ErrorIs(t, errR, forge.ErrNotFound)
		return true, nil
	})
}

// fedView is viewValue for the read-only federation.Store.
func fedView[V any](t *testing.T, s federation.Store, read func(context.Context, federation.Tx) (V, error)) V {
	t.Helper()
	var v V
	err := s.View(context.Background(), func(tx federation.Tx) (err error) { v, err = read(context.Background(), tx); return err })
	if err != nil {
		t.Fatalf("view: %v", err)
	}
	return v
}
