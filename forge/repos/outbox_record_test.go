package repos_test

import (
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestStoredRepoEvents: the repository events already stored in outboxes,
// one fixture of each kind (testdata/outbox/*.v1.json), still decode
// strictly to the same values (a Go field renamed fails here), and so
// does the bare JSON of a push stored before the versioned record
// (push.v0.json, Go field names).
func TestStoredRepoEvents(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	alice := &forge.User{ID: 1, Name: "alice", Email: "alice@example.com", Visibility: forge.VisibilityPublic,
		IsActive: true, MaxRepoCreation: -1, Created: at}
	actor := forge.Actor{User: alice, Method: forge.AuthPassword}
	repo := &forge.Repository{ID: 3, OwnerID: 1, OwnerName: "alice", Name: "proj", Description: "a project",
		DefaultBranch: "main", Created: at, Updated: at}
	fork := &forge.Repository{ID: 4, OwnerID: 2, OwnerName: "bob", Name: "proj", ForkID: 3,
		DefaultBranch: "main", Created: at, Updated: at}
	push := repos.OutboxEvent{Actor: actor, Repo: repo, Updates: []repos.RefUpdate{
		{Ref: "refs/heads/main", OldID: "1111111111111111111111111111111111111111", NewID: "2222222222222222222222222222222222222222"},
		{Ref: "refs/heads/old", OldID: "2222222222222222222222222222222222222222", NewID: ""},
		{Ref: "refs/heads/new", OldID: "", NewID: "2222222222222222222222222222222222222222"},
	}, Rename: &repos.BranchRename{From: "old", To: "new"}}
	cases := map[string]repos.OutboxEvent{
		repos.OutboxRepoCreated: {Actor: actor, Repo: repo},
		repos.OutboxRepoDeleted: {Actor: actor, Repo: repo},
		repos.OutboxRepoForked:  {Actor: actor, Repo: fork, Parent: repo},
		repos.OutboxRelease: {Actor: actor, Repo: repo, Release: &repos.ReleaseEvent{Op: repos.ReleaseCreated,
			Release: &repos.Release{ID: 5, RepoID: 3, AuthorID: 1, Author: alice, TagName: "v1", Target: "main", Name: "One",
				Body: "notes", Prerelease: true, Created: at, Assets: []*repos.Attachment{{ID: 6, UUID: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
					RepoID: 3, ReleaseID: 5, UploaderID: 1, Name: "bin.tar.gz", Size: 42, Created: at}}},
			WasDraft: true}},
		repos.OutboxPush: push,
		repos.OutboxStatus: {Actor: actor, Repo: repo, Status: &repos.StatusEvent{
			SHA: "2222222222222222222222222222222222222222", Context: "ci/build", State: repos.StatusSuccess}},
	}
	for kind, want := range cases {
		forgetest.EventFixture(t, "testdata/outbox/"+kind+".v1.json", want, repos.MarshalOutbox, repos.UnmarshalOutbox)
	}
	forgetest.LegacyEventFixture(t, "testdata/outbox/push.v0.json", push, repos.UnmarshalOutbox)
}
