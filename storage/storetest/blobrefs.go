package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions/artifacts"
	"github.com/hearthforge/hearth/forge/lfs"
	"github.com/hearthforge/hearth/forge/packages"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
	"github.com/hearthforge/hearth/storage/blob"
)

// BlobRefBackend is a Backend whose rows the blob sweeper can read
// (storage/blob.Sweeper). Both backends have it; the BlobRefs case runs
// when the backend has it.
type BlobRefBackend interface {
	BlobRefs() blob.RefStore
}

// testBlobRefs: the referenced keys are exactly the blob keys of issue
// and comment attachments, uploaded (not external) release assets,
// repository and user/organisation avatars, LFS objects (under their
// "lfs-" key), package files and artifacts, each once; a deleted row's
// key is gone.
func testBlobRefs(t *testing.T, b Backend) {
	if _, ok := unwrapped(b).(BlobRefBackend); !ok {
		t.Skip("backend has no BlobRefs")
	}
	rs := b.(BlobRefBackend).BlobRefs()
	ctx := context.Background()
	keys := func() []string {
		t.Helper()
		var out []string
		require.NoError(t, rs.View(ctx, func(tx blob.RefTx) error {
			var err error
			out, err = tx.ReferencedBlobKeys(ctx)
			return err
		}))
		return out
	}
	assert.Empty(t, keys(), "an empty store references nothing")

	at := time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)
	owner := newUser(t, b, "blobowner", func(u *forge.User) { u.Avatar = "org-avatar-1" })
	repo := newRepo(t, b, owner, "blobs")
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		r, err := tx.RepoByID(ctx, repo.ID)
		if err != nil {
			return err
		}
		r.Avatar = "repo-avatar-1"
		return tx.UpdateRepo(ctx, r)
	})
	issue := newIssue(t, b.Issues(), repo.ID, owner.ID, "with files")
	var issueAtt *issues.Attachment
	for _, k := range []string{"issue-att-1", "issue-att-2"} {
		a := &issues.Attachment{UUID: k, RepoID: repo.ID, IssueID: issue.ID, UploaderID: owner.ID, Name: k, Created: at}
		issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.CreateAttachment(ctx, a) })
		issueAtt = a
	}
	rel := &repos.Release{RepoID: repo.ID, AuthorID: owner.ID, TagName: "v1", Target: "main", Created: at}
	repoUpdate(t, b.Repos(), func(tx repos.Tx) error {
		if err := tx.CreateRelease(ctx, rel); err != nil {
			return err
		}
		if err := tx.CreateAttachment(ctx, &repos.Attachment{UUID: "release-asset", RepoID: repo.ID, ReleaseID: rel.ID,
			UploaderID: owner.ID, Name: "a.tar", Created: at}); err != nil {
			return err
		}
		return tx.CreateAttachment(ctx, &repos.Attachment{UUID: "release-link", RepoID: repo.ID, ReleaseID: rel.ID,
			UploaderID: owner.ID, Name: "link", ExternalURL: "https://example.com/x", Created: at})
	})
	other := newRepo(t, b, owner, "blobs2")
	oid := strings.Repeat("d", 64)
	require.NoError(t, b.LFS().Update(ctx, func(tx lfs.Tx) error {
		for _, r := range []forge.ID{repo.ID, other.ID} { // one blob shared by two repositories
			if err := tx.CreateMetaObject(ctx, &lfs.MetaObject{Pointer: lfs.Pointer{Oid: oid, Size: 1}, RepoID: r, Created: at}); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, b.Packages().Update(ctx, func(tx packages.Tx) error {
		p := &packages.Package{OwnerID: owner.ID, Type: packages.TypeGeneric, Name: "tool", Created: at}
		if err := tx.CreatePackage(ctx, p); err != nil {
			return err
		}
		v := &packages.Version{PackageID: p.ID, Version: "1", Created: at}
		if err := tx.CreateVersion(ctx, v); err != nil {
			return err
		}
		return tx.CreateFile(ctx, &packages.File{VersionID: v.ID, Name: "f", BlobKey: "pkg-1", Created: at})
	}))
	require.NoError(t, b.Artifacts().Update(ctx, func(tx artifacts.Tx) error {
		return tx.CreateArtifact(ctx, &artifacts.Artifact{RepoID: repo.ID, RunID: 1, Name: "a", BlobKey: "art-1",
			Status: artifacts.StatusConfirmed, Created: at, Expires: at})
	}))

	assert.ElementsMatch(t, []string{"org-avatar-1", "repo-avatar-1", "issue-att-1", "issue-att-2", "release-asset",
		"lfs-" + oid, "pkg-1", "art-1"}, keys())

	issueUpdate(t, b.Issues(), func(tx issues.Tx) error { return tx.DeleteAttachment(ctx, issueAtt.ID) })
	assert.NotContains(t, keys(), "issue-att-2", "a deleted row no longer references its blob")
}
