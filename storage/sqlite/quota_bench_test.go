package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
	"github.com/hearthforge/hearth/storage/sqlite"
)

// BenchmarkQuotaCheck times quota.Check (groups and usage of the owner,
// then the evaluation) for an owner whose repository holds n counted
// attachments, seeded directly through the store. The usage is read from
// counters, so the time per check does not grow with n:
//
//	go test ./storage/sqlite -run '^$' -bench BenchmarkQuotaCheck -benchtime 2000x
func BenchmarkQuotaCheck(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("attachments=%d", n), func(b *testing.B) {
			ctx := context.Background()
			path := filepath.Join(b.TempDir(), "bench.db")
			db, err := sqlite.Open(ctx, path)
			require.NoError(b, err)
			owner, repo := seedAttachments(b, db, n)
			// Reopen: closing checkpoints the seeding's write-ahead log, so
			// every size is timed on the same kind of file.
			require.NoError(b, db.Close())
			db, err = sqlite.Open(ctx, path)
			require.NoError(b, err)
			defer db.Close()
			cfg := quota.Config{Enabled: true}
			require.NoError(b, db.Quota().Update(ctx, func(tx quota.Tx) error {
				if err := tx.CreateRule(ctx, &quota.Rule{Name: "r", Limit: 1 << 40, Subjects: []quota.Subject{quota.SubjectAll}}); err != nil {
					return err
				}
				if err := tx.CreateGroup(ctx, "g"); err != nil {
					return err
				}
				if err := tx.AddGroupRule(ctx, "g", "r"); err != nil {
					return err
				}
				return tx.AddGroupMember(ctx, "g", owner.ID)
			}))
			o := quota.RepoOwner(repo)
			b.ResetTimer()
			for b.Loop() {
				err := db.Issues().View(ctx, func(tx issues.Tx) error {
					return quota.Check(ctx, tx, cfg, o, quota.SubjectAttachmentsIssues, quota.BucketAttachmentsIssues, 1)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			var u quota.Used
			require.NoError(b, db.Quota().View(ctx, func(tx quota.Tx) (err error) { u, err = tx.Usage(ctx, owner.ID); return err }))
			require.EqualValues(b, n, u.AttachmentsIssues, "every attachment counted (1 byte each)")
		})
	}
}

// seedAttachments creates an owner, a repository, an issue and n
// one-byte attachments on it.
func seedAttachments(b *testing.B, db *sqlite.DB, n int) (*forge.User, *forge.Repository) {
	b.Helper()
	ctx := context.Background()
	u := forgetest.User("bench")
	require.NoError(b, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "x") }))
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &forge.Repository{OwnerID: u.ID, OwnerName: u.Name, Name: "r", DefaultBranch: "main", ObjectFormat: forge.SHA1, Topics: []string{}, Created: at, Updated: at}
	require.NoError(b, db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))
	r.OwnerName = u.Name
	is := &issues.Issue{RepoID: r.ID, Index: 1, PosterID: u.ID, Title: "t", Created: at, Updated: at}
	require.NoError(b, db.Issues().Update(ctx, func(tx issues.Tx) error { return tx.CreateIssue(ctx, is) }))
	const batch = 50_000
	for done := 0; done < n; done += batch {
		require.NoError(b, db.Issues().Update(ctx, func(tx issues.Tx) error {
			for i := done; i < min(done+batch, n); i++ {
				a := &issues.Attachment{UUID: fmt.Sprint("u-", i), RepoID: r.ID, IssueID: is.ID, Name: "f", Size: 1, Created: at}
				if err := tx.CreateAttachment(ctx, a); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return u, r
}
