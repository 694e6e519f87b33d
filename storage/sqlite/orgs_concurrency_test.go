package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/orgs"
)

// Two owners removing each other at once, through every path that takes
// a user out of the Owners team, never leave it empty: the check and the
// removal are one write transaction.
func TestOwnersNeverEmptyUnderConcurrentRemovals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc := orgService(t, filepath.Join(t.TempDir(), "h.db"))
	a := forgetest.User("ann", func(u *forge.User) { u.AllowCreateOrganization = true })
	b := forgetest.User("bob")
	createUsers(t, db, a, b)
	ann, bob := forgetest.ActorFor(a), forgetest.ActorFor(b)
	paths := map[string]func(org string, actor forge.Actor, other string, owners forge.ID) error{
		"remove member": func(org string, actor forge.Actor, other string, _ forge.ID) error {
			return svc.RemoveMember(ctx, actor, org, other)
		},
		"leave": func(org string, actor forge.Actor, _ string, _ forge.ID) error {
			return svc.RemoveMember(ctx, actor, org, actor.User.Name)
		},
		"remove team member": func(_ string, actor forge.Actor, other string, owners forge.ID) error {
			return svc.RemoveTeamMember(ctx, actor, owners, other)
		},
		"block": func(org string, actor forge.Actor, other string, _ forge.ID) error {
			return svc.Block(ctx, actor, org, other)
		},
	}
	for name, remove := range paths {
		for i := range 10 {
			org := fmt.Sprintf("o%d-%s", i, strings.ReplaceAll(name, " ", "-"))
			_, err := svc.Create(ctx, ann, orgs.CreateOptions{Name: org})
			require.NoError(t, err)
			teams, _, err := svc.ListTeams(ctx, ann, org, forge.ListOptions{})
			require.NoError(t, err)
			owners := teams[0].ID
			require.NoError(t, svc.AddTeamMember(ctx, ann, owners, "bob"))
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for j, p := range []struct {
				actor forge.Actor
				other string
			}{{ann, "bob"}, {bob, "ann"}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[j] = remove(org, p.actor, p.other, owners)
				}()
			}
			wg.Wait()
			var n int64
			require.NoError(t, db.Orgs().View(ctx, func(tx orgs.Tx) error {
				_, n, err = tx.ListTeamMembers(ctx, owners, forge.ListOptions{})
				return err
			}))
			require.EqualValues(t, 1, n, "%s: %v", name, errs)
			require.True(t, errs[0] == nil || errs[1] == nil, "%s: one removal goes through: %v", name, errs)
		}
	}
}
