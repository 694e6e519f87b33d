package faulttest_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/hooks"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/blob"
	"github.com/hearthforge/hearth/storage/faulttest"
	"github.com/hearthforge/hearth/storage/gitstore"
	"github.com/hearthforge/hearth/storage/sqlite"
)

type stack struct {
	dir     string
	db      *sqlite.DB
	blobs   *faulttest.Blobs
	repos   *repos.Service
	orgs    *orgs.Service
	issues  *issues.Service
	actions *actions.Service
	hooks   *hooks.Service
	actor   forge.Actor
}

func newStack(t *testing.T) *stack {
	t.Helper()
	ctx := context.Background()
	s := &stack{dir: t.TempDir()}
	var err error
	s.db, err = sqlite.Open(ctx, filepath.Join(s.dir, "hearth.db"))
	require.NoError(t, err)
	t.Cleanup(func() { s.db.Close() })
	git, err := gitstore.Open(filepath.Join(s.dir, "git"))
	require.NoError(t, err)
	t.Cleanup(func() { git.Close() })
	bd, err := blob.OpenDir(filepath.Join(s.dir, "blobs"))
	require.NoError(t, err)
	s.blobs = &faulttest.Blobs{BlobStore: bd}
	clock := forgetest.NewClock()
	s.repos, err = repos.New(repos.Config{Store: s.db.Repos(), Git: git, Blobs: s.blobs, Clock: clock})
	require.NoError(t, err)
	var orgPorts *orgs.Ports
	s.orgs, orgPorts, err = orgs.NewWithPorts(orgs.Config{Store: s.db.Orgs(), Repos: s.repos, Blobs: s.blobs, Clock: clock})
	require.NoError(t, err)
	s.issues, err = issues.New(issues.Config{Store: s.db.Issues(), Repos: s.repos, Orgs: s.orgs, Blobs: s.blobs, Teams: s.orgs,
		TeamLookup: orgPorts, Clock: clock})
	require.NoError(t, err)
	key := []byte("0123456789abcdef0123456789abcdef")
	s.actions, err = actions.New(actions.Config{Store: s.db.Actions(), Key: key, Repos: s.repos, Orgs: s.orgs, Clock: clock})
	require.NoError(t, err)
	s.hooks, err = hooks.New(hooks.Config{Store: s.db.Hooks(), Repos: s.repos, Orgs: s.orgs, SecretKey: key, Clock: clock})
	require.NoError(t, err)
	u := forgetest.User("olive", func(u *forge.User) { u.AllowCreateOrganization = true })
	max := forgetest.User("max")
	require.NoError(t, s.db.Auth().Update(ctx, func(tx auth.Tx) error {
		if err := tx.CreateUser(ctx, max, ""); err != nil {
			return err
		}
		return tx.CreateUser(ctx, u, "")
	}))
	s.actor = forgetest.ActorFor(u)
	return s
}

// snapshot is the whole persistent state: rows, blob files, git refs.
func (s *stack) snapshot(t *testing.T) [3]string {
	t.Helper()
	ctx := context.Background()
	rows, err := faulttest.DumpDB(ctx, filepath.Join(s.dir, "hearth.db"))
	require.NoError(t, err)
	files, err := faulttest.ListFiles(filepath.Join(s.dir, "blobs"))
	require.NoError(t, err)
	refs, err := faulttest.GitRefs(filepath.Join(s.dir, "git"))
	require.NoError(t, err)
	return [3]string{rows, files, refs}
}

// TestFaultInjection runs service operations with the n-th statement of a
// write transaction failing (n = 1, 2, … until the operation succeeds),
// then with the n-th blob write failing: each failure must return an
// error (not panic) and leave the rows, blob files and git refs exactly as
// before.
func TestFaultInjection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStack(t)
	a := s.actor
	type op struct {
		name        string
		run         func(i int) error
		rollForward bool // a failure past the point of no return is finished by Recover
		// bestEffort: the write is to git; the statements after it only
		// refresh cached columns (size, emptiness), and their failure is
		// logged, not returned (repos.ChangeFiles' contract).
		bestEffort bool
		blob       bool // also run with the n-th blob write failing
	}
	var issueIdx int64
	var commentID, releaseID forge.ID
	ops := []op{
		{name: "repo create", run: func(i int) error {
			_, err := s.repos.Create(ctx, a, "olive", repos.CreateOptions{Name: fmt.Sprintf("r%d", i), AutoInit: true})
			return err
		}},
		{name: "repo create (base)", run: func(int) error {
			_, err := s.repos.Create(ctx, a, "olive", repos.CreateOptions{Name: "base", AutoInit: true})
			return err
		}},
		{name: "repo edit", run: func(i int) error {
			d := fmt.Sprintf("description %d", i)
			_, err := s.repos.Edit(ctx, a, "olive", "base", repos.EditOptions{Description: &d})
			return err
		}},
		{name: "contents commit", run: func(i int) error {
			_, _, _, err := s.repos.ChangeFiles(ctx, a, "olive", "base", repos.ChangeFilesOptions{Message: "add",
				Files: []repos.FileChange{{Op: "create", Path: "docs/new.txt", Content: []byte("new")}}})
			return err
		}, bestEffort: true},
		{name: "contents commit on a new branch", run: func(i int) error {
			_, _, _, err := s.repos.ChangeFiles(ctx, a, "olive", "base", repos.ChangeFilesOptions{Message: "add", NewBranch: "topic",
				Files: []repos.FileChange{{Op: "create", Path: "topic.txt", Content: []byte("topic")}}})
			return err
		}, bestEffort: true},
		{name: "release create", run: func(i int) error {
			tag := "v1.0"
			_, rel, err := s.repos.CreateRelease(ctx, a, "olive", "base", repos.ReleaseOptions{TagName: &tag})
			if err == nil {
				releaseID = rel.ID
			}
			return err
		}, bestEffort: true},
		{name: "release asset", run: func(i int) error {
			_, _, err := s.repos.AddAttachment(ctx, a, "olive", "base", releaseID, repos.AttachmentUpload{Name: "asset.bin", Content: strings.NewReader("asset")})
			return err
		}, blob: true},
		{name: "release delete", run: func(i int) error { return s.repos.DeleteRelease(ctx, a, "olive", "base", releaseID, "") }},
		{name: "secret put", run: func(i int) error {
			_, err := s.actions.PutSecret(ctx, a, actions.UserTarget(), "TOKEN", "s3cret")
			return err
		}},
		{name: "variable create", run: func(i int) error {
			_, err := s.actions.CreateVariable(ctx, a, actions.UserTarget(), "VAR", "value")
			return err
		}},
		{name: "webhook create", run: func(i int) error {
			_, err := s.hooks.Create(ctx, a, hooks.RepoHooks("olive", "base"), hooks.CreateOptions{Type: "gitea",
				Config: hooks.Settings{"url": "https://example.com/hook", "content_type": "json"}, Active: true})
			return err
		}},
		{name: "issue create", run: func(i int) error {
			v, err := s.issues.Create(ctx, a, "olive", "base", issues.CreateIssueOption{Title: fmt.Sprintf("issue %d", i)})
			if err == nil {
				issueIdx = v.Issue.Index
			}
			return err
		}},
		{name: "label create", run: func(i int) error {
			_, err := s.issues.CreateLabel(ctx, a, "olive", "base", issues.CreateLabelOption{Name: fmt.Sprintf("l%d", i), Color: "#ff0000"})
			return err
		}},
		{name: "label replace", run: func(i int) error {
			_, err := s.issues.ReplaceLabels(ctx, a, "olive", "base", issueIdx, issues.LabelsOption{Names: []string{"l0"}})
			return err
		}},
		{name: "comment create", run: func(i int) error {
			v, err := s.issues.CreateComment(ctx, a, "olive", "base", issueIdx, issues.CreateCommentOption{Body: fmt.Sprintf("c%d", i)})
			if err == nil {
				commentID = v.Comment.ID
			}
			return err
		}},
		{name: "issue attachment", run: func(i int) error {
			_, err := s.issues.CreateIssueAttachment(ctx, a, "olive", "base", issueIdx, issues.UploadOption{Name: "a.txt", Content: strings.NewReader("bytes")})
			return err
		}, blob: true},
		{name: "comment attachment", run: func(i int) error {
			_, err := s.issues.CreateCommentAttachment(ctx, a, "olive", "base", commentID, issues.UploadOption{Name: "b.txt", Content: strings.NewReader("bytes")})
			return err
		}, blob: true},
		{name: "comment edit", run: func(i int) error {
			_, err := s.issues.EditComment(ctx, a, "olive", "base", commentID, issues.EditCommentOption{Body: "edited"})
			return err
		}},
		{name: "milestone create", run: func(i int) error {
			_, err := s.issues.CreateMilestone(ctx, a, "olive", "base", issues.CreateMilestoneOption{Title: "m1"})
			return err
		}},
		{name: "repo avatar", run: func(i int) error { return s.repos.SetAvatar(ctx, a, "olive", "base", pngImage(t)) }, blob: true},
		{name: "star", run: func(i int) error { return s.repos.Star(ctx, a, "olive", "base", true) }},
		{name: "collaborator add", run: func(i int) error {
			return s.repos.AddCollaborator(ctx, a, "olive", "base", "max", forge.AccessModeWrite)
		}},
		{name: "comment delete", run: func(i int) error { return s.issues.DeleteComment(ctx, a, "olive", "base", issueIdx, commentID) }},
		{name: "issue edit", run: func(i int) error {
			b := fmt.Sprintf("body %d", i)
			_, err := s.issues.Edit(ctx, a, "olive", "base", issueIdx, issues.EditIssueOption{Body: &b})
			return err
		}},
		{name: "org create", run: func(i int) error {
			_, err := s.orgs.Create(ctx, a, orgs.CreateOptions{Name: fmt.Sprintf("org%d", i)})
			return err
		}},
		{name: "org avatar", run: func(i int) error { return s.orgs.SetAvatar(ctx, a, "org0", pngImage(t)) }, blob: true},
		{name: "team create", run: func(i int) error {
			_, err := s.orgs.CreateTeam(ctx, a, "org0", orgs.CreateTeamOptions{Name: fmt.Sprintf("t%d", i), Permission: "write", Units: []string{"repo.code"}})
			return err
		}},
		{name: "org repo create", run: func(i int) error {
			_, err := s.repos.CreateInOrg(ctx, a, "org0", repos.CreateOptions{Name: fmt.Sprintf("or%d", i), AutoInit: true})
			return err
		}},
		{name: "issue delete", run: func(i int) error { return s.issues.Delete(ctx, a, "olive", "base", issueIdx) }},
		{name: "repo delete", run: func(i int) error { return s.repos.Delete(ctx, a, "olive", "r0") }, rollForward: true},
		{name: "org repo delete", run: func(i int) error { return s.repos.Delete(ctx, a, "org0", "or0") }, rollForward: true},
		{name: "org delete", run: func(i int) error { return s.orgs.Delete(ctx, a, "org0") }},
	}
	total, rolledForward := 0, 0
	for _, o := range ops {
		for _, mode := range []string{"statement", "blob"} {
			if mode == "blob" && !o.blob {
				continue
			}
			var err error
			for n := int64(1); ; n++ {
				require.Less(t, n, int64(500), "%s: never succeeds: %v", o.name, err)
				before := s.snapshot(t)
				if mode == "statement" {
					s.db.FailStatement(n)
				} else {
					s.blobs.FailPut(n)
				}
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Errorf("%s, %s fault %d: panic %v", o.name, mode, n, p)
							err = fmt.Errorf("panic")
						}
					}()
					err = o.run(0)
				}()
				fired := s.db.Armed() == false && mode == "statement" || s.blobs.Armed() == false && mode == "blob"
				s.db.FailStatement(0)
				s.blobs.FailPut(0)
				if err == nil {
					assert.False(t, fired && n == 1 && mode == "statement" && !o.bestEffort, "%s: the first statement failed but the operation succeeded", o.name)
					break
				}
				total++
				after := s.snapshot(t)
				if o.rollForward && after != before {
					// Deletion is committed once the row is marked
					// RepoDeleting and the git directory goes: Recover
					// (run by hosts at start) finishes it, and the
					// operation then finds nothing to delete.
					_, rerr := s.repos.Recover(ctx)
					require.NoError(t, rerr)
					assert.ErrorIs(t, o.run(0), forge.ErrNotFound, "%s, %s fault %d (%v): not finished by Recover", o.name, mode, n, err)
					rolledForward++
					break
				}
				assert.Equal(t, before[0], after[0], "%s, %s fault %d (%v): rows changed", o.name, mode, n, err)
				assert.Equal(t, before[1], after[1], "%s, %s fault %d (%v): blob files changed", o.name, mode, n, err)
				assert.Equal(t, before[2], after[2], "%s, %s fault %d (%v): git refs changed", o.name, mode, n, err)
				if t.Failed() {
					t.FailNow()
				}
			}
		}
	}
	t.Logf("%d operations, %d injected failures checked (%d finished by Recover)", len(ops), total, rolledForward)
}

func pngImage(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4))))
	return b.Bytes()
}
