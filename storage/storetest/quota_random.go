package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/quota"
)

var errRollback = errors.New("rolled back")

// testQuotaRandom runs thousands of random writes that change usage
// (attachments added and removed, with their comments, issues and
// releases; repository sizes, visibility changes, transfers; LFS and
// package counters), a fifth of them rolled back, and checks after each
// hundred that every owner's counters equal a recount from the rows, and
// that the domain counters equal the test's own model.
func testQuotaRandom(t *testing.T, b Backend) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(13, 2026))
	var users []*forge.User
	for i := range 3 {
		users = append(users, newUser(t, b, fmt.Sprintf("rnd%d", i)))
	}
	var repoList []*forge.Repository
	for i := range 6 {
		repoList = append(repoList, newRepo(t, b, users[i%3], fmt.Sprintf("r%d", i)))
	}
	var issueAssets, releaseAssets []ref
	var issueList []ref          // issues and comments
	lfs := map[forge.ID]int64{}  // by repository
	pkgs := map[forge.ID]int64{} // by account
	uuid := 0

	ops := 2000
	if testing.Short() {
		ops = 300
	}
	for n := range ops {
		rollback := rng.IntN(5) == 0
		fail := func() error {
			if rollback {
				return errRollback
			}
			return nil
		}
		check := func(err error) {
			if rollback {
				require.ErrorIs(t, err, errRollback)
			} else {
				require.NoError(t, err)
			}
		}
		r := repoList[rng.IntN(len(repoList))]
		switch op := rng.IntN(10); op {
		case 0, 1: // an issue attachment, on a new issue or comment or an existing one
			var added []ref
			err := b.Issues().Update(ctx, func(tx issues.Tx) error {
				at := ref{repo: r.ID}
				if cands := filterRefs(issueList, r.ID); len(cands) > 0 && rng.IntN(2) == 0 {
					at = cands[rng.IntN(len(cands))]
				} else {
					idx, err := tx.NextIssueIndex(ctx, r.ID)
					if err != nil {
						return err
					}
					is := &issues.Issue{RepoID: r.ID, Index: idx, PosterID: users[0].ID, Title: "t", Created: issueAt, Updated: issueAt}
					if err := tx.CreateIssue(ctx, is); err != nil {
						return err
					}
					at.issue = is.ID
					added = append(added, at)
					if rng.IntN(2) == 0 {
						c := &issues.Comment{IssueID: is.ID, PosterID: users[0].ID, Body: "c", Created: issueAt, Updated: issueAt}
						if err := tx.CreateComment(ctx, c); err != nil {
							return err
						}
						at.comment = c.ID
						added = append(added, at)
					}
				}
				uuid++
				a := &issues.Attachment{UUID: fmt.Sprint("rnd-", uuid), RepoID: r.ID, IssueID: at.issue, CommentID: at.comment,
					Name: "f", Size: rng.Int64N(1000), Created: issueAt}
				if err := tx.CreateAttachment(ctx, a); err != nil {
					return err
				}
				at.attachment = a.ID
				added = append(added, at)
				return fail()
			})
			check(err)
			if !rollback {
				for _, a := range added {
					if a.attachment != 0 {
						issueAssets = append(issueAssets, a)
					} else {
						issueList = append(issueList, a)
					}
				}
			}
		case 2: // remove an issue attachment, a comment, or a whole issue
			if len(issueAssets) == 0 {
				continue
			}
			i := rng.IntN(len(issueAssets))
			a := issueAssets[i]
			kind := rng.IntN(3)
			err := b.Issues().Update(ctx, func(tx issues.Tx) error {
				var err error
				switch {
				case kind == 1 && a.comment != 0:
					err = tx.DeleteComment(ctx, a.comment)
				case kind == 2:
					err = tx.DeleteIssue(ctx, a.issue)
				default:
					err = tx.DeleteAttachment(ctx, a.attachment)
				}
				if err != nil {
					return err
				}
				return fail()
			})
			check(err)
			if !rollback {
				issueAssets, issueList = dropRefs(issueAssets, a, kind), dropRefs(issueList, a, kind)
			}
		case 3: // a release asset
			err := b.Repos().Update(ctx, func(tx repos.Tx) error {
				uuid++
				rel := &repos.Release{RepoID: r.ID, TagName: fmt.Sprint("v", uuid), Target: "main", Created: issueAt}
				if err := tx.CreateRelease(ctx, rel); err != nil {
					return err
				}
				a := &repos.Attachment{UUID: fmt.Sprint("rnd-", uuid), RepoID: r.ID, ReleaseID: rel.ID, Name: "b",
					Size: rng.Int64N(5000), Created: issueAt}
				if err := tx.CreateAttachment(ctx, a); err != nil {
					return err
				}
				if !rollback {
					releaseAssets = append(releaseAssets, ref{repo: r.ID, release: rel.ID, attachment: a.ID})
				}
				return fail()
			})
			check(err)
		case 4: // remove a release asset or its release
			if len(releaseAssets) == 0 {
				continue
			}
			i := rng.IntN(len(releaseAssets))
			a := releaseAssets[i]
			err := b.Repos().Update(ctx, func(tx repos.Tx) error {
				var err error
				if rng.IntN(2) == 0 {
					err = tx.DeleteAttachment(ctx, a.attachment)
				} else {
					err = tx.DeleteRelease(ctx, a.release)
				}
				if err != nil {
					return err
				}
				return fail()
			})
			check(err)
			if !rollback {
				releaseAssets = append(releaseAssets[:i:i], releaseAssets[i+1:]...)
			}
		case 5, 6: // size, visibility or owner of a repository
			err := b.Repos().Update(ctx, func(tx repos.Tx) error {
				cur, err := tx.RepoByID(ctx, r.ID)
				if err != nil {
					return err
				}
				switch rng.IntN(3) {
				case 0:
					cur.Size = rng.Int64N(1 << 20)
				case 1:
					cur.Private = !cur.Private
				default:
					cur.OwnerID = users[rng.IntN(len(users))].ID
				}
				if err := tx.UpdateRepo(ctx, cur); err != nil {
					return err
				}
				return fail()
			})
			if errors.Is(err, forge.ErrConflict) {
				continue // a name taken by the new owner
			}
			check(err)
		case 7, 8: // LFS of a repository, packages of an account
			err := b.Issues().Update(ctx, func(tx issues.Tx) error {
				delta := rng.Int64N(300) - 100
				if op == 7 {
					if lfs[r.ID]+delta < 0 {
						delta = -lfs[r.ID]
					}
					if err := tx.AddUsage(ctx, quota.Owner{RepoID: r.ID}, quota.BucketLFS, delta); err != nil {
						return err
					}
					if !rollback {
						lfs[r.ID] += delta
					}
				} else {
					u := users[rng.IntN(len(users))]
					if pkgs[u.ID]+delta < 0 {
						delta = -pkgs[u.ID]
					}
					if err := tx.AddUsage(ctx, quota.OwnerOf(u), quota.BucketPackages, delta); err != nil {
						return err
					}
					if !rollback {
						pkgs[u.ID] += delta
					}
				}
				return fail()
			})
			check(err)
		case 9: // a failing write in the middle of a transaction
			err := b.Issues().Update(ctx, func(tx issues.Tx) error {
				if len(issueAssets) > 0 {
					if err := tx.DeleteAttachment(ctx, issueAssets[0].attachment); err != nil {
						return err
					}
				}
				return tx.CreateAttachment(ctx, &issues.Attachment{UUID: "rnd-1", RepoID: r.ID, IssueID: 1, Name: "dup"})
			})
			require.Error(t, err)
		}
		if n%100 == 99 || n == ops-1 {
			for _, u := range users {
				counted, actual := usage(t, b.Quota(), u.ID), recount(t, b.Quota(), u.ID)
				require.Equal(t, derived(actual), derived(counted), "after %d operations, owner %s", n+1, u.Name)
				var wantLFS int64
				for _, r := range repoList {
					cur, err := repoOwner(ctx, b, r.ID)
					require.NoError(t, err)
					if cur == u.ID {
						wantLFS += lfs[r.ID]
					}
				}
				require.Equal(t, wantLFS, counted.LFS, "LFS of %s", u.Name)
				require.Equal(t, pkgs[u.ID], counted.Packages, "packages of %s", u.Name)
			}
		}
	}
}

func repoOwner(ctx context.Context, b Backend, id forge.ID) (forge.ID, error) {
	var owner forge.ID
	err := b.Repos().View(ctx, func(tx repos.Tx) error {
		r, err := tx.RepoByID(ctx, id)
		if err == nil {
			owner = r.OwnerID
		}
		return err
	})
	return owner, err
}

// ref names an attachment (or an issue or comment, attachment 0) of the
// random test.
type ref struct{ repo, issue, comment, release, attachment forge.ID }

func filterRefs(list []ref, repo forge.ID) []ref {
	var out []ref
	for _, r := range list {
		if r.repo == repo {
			out = append(out, r)
		}
	}
	return out
}

// dropRefs removes from list what deleting a's attachment (kind 0), its
// comment (1, when it has one) or its issue (2) removes.
func dropRefs(list []ref, av ref, kind int) []ref {
	var out []ref
	for _, rv := range list {
		switch {
		case kind == 1 && av.comment != 0 && rv.comment == av.comment:
		case kind == 2 && rv.issue == av.issue:
		case (kind == 0 || kind == 1 && av.comment == 0) && rv.attachment != 0 && rv.attachment == av.attachment:
		default:
			out = append(out, rv)
		}
	}
	return out
}
