package httpapi_test

// The counting wrappers of every repos.Tx method (one query each), written
// out from repos.Tx; TestCountingTxCountsEveryMethod fails when a method
// of repos.Tx has no wrapper here.

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/quota"
)

func (x countingTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	x.s.queries.Add(1)
	return x.Tx.UserByName(ctx, name)
}

func (x countingTx) UserByID(ctx context.Context, id forge.ID) (*forge.User, error) {
	x.s.queries.Add(1)
	return x.Tx.UserByID(ctx, id)
}

func (x countingTx) UsersByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.User, error) {
	x.s.queries.Add(1)
	return x.Tx.UsersByID(ctx, ids)
}

func (x countingTx) AppendOutbox(ctx context.Context, kind string, data []byte, at time.Time) error {
	x.s.queries.Add(1)
	return x.Tx.AppendOutbox(ctx, kind, data, at)
}

func (x countingTx) Reserve(ctx context.Context, r *quota.Reservation) error {
	x.s.queries.Add(1)
	return x.Tx.Reserve(ctx, r)
}

func (x countingTx) ReleaseReservation(ctx context.Context, id forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.ReleaseReservation(ctx, id)
}

func (x countingTx) CreateRepo(ctx context.Context, r *forge.Repository) error {
	x.s.queries.Add(1)
	return x.Tx.CreateRepo(ctx, r)
}

func (x countingTx) RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error) {
	x.s.queries.Add(1)
	return x.Tx.RepoByName(ctx, ownerID, name)
}

func (x countingTx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	x.s.queries.Add(1)
	return x.Tx.RepoByID(ctx, id)
}

func (x countingTx) ReposByID(ctx context.Context, ids []forge.ID) (map[forge.ID]*forge.Repository, error) {
	x.s.queries.Add(1)
	return x.Tx.ReposByID(ctx, ids)
}

func (x countingTx) UpdateRepo(ctx context.Context, r *forge.Repository) error {
	x.s.queries.Add(1)
	return x.Tx.UpdateRepo(ctx, r)
}

func (x countingTx) DeleteRepo(ctx context.Context, id forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteRepo(ctx, id)
}

func (x countingTx) ListRepos(ctx context.Context, f repos.RepoFilter, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListRepos(ctx, f, o)
}

func (x countingTx) SetCollaborator(ctx context.Context, repoID, userID forge.ID, mode forge.AccessMode) error {
	x.s.queries.Add(1)
	return x.Tx.SetCollaborator(ctx, repoID, userID, mode)
}

func (x countingTx) DeleteCollaborator(ctx context.Context, repoID, userID forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteCollaborator(ctx, repoID, userID)
}

func (x countingTx) CollaboratorMode(ctx context.Context, repoID, userID forge.ID) (forge.AccessMode, error) {
	x.s.queries.Add(1)
	x.s.resolves.Add(1)
	return x.Tx.CollaboratorMode(ctx, repoID, userID)
}

func (x countingTx) CollaboratorModes(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID]forge.AccessMode, error) {
	x.s.queries.Add(1)
	return x.Tx.CollaboratorModes(ctx, userID, repoIDs)
}

func (x countingTx) OrgMemberships(ctx context.Context, userID forge.ID, orgIDs []forge.ID) (map[forge.ID]bool, error) {
	x.s.queries.Add(1)
	return x.Tx.OrgMemberships(ctx, userID, orgIDs)
}

func (x countingTx) TeamGrants(ctx context.Context, userID forge.ID, repoIDs []forge.ID) (map[forge.ID][]forge.TeamGrant, error) {
	x.s.queries.Add(1)
	return x.Tx.TeamGrants(ctx, userID, repoIDs)
}

func (x countingTx) OrgTeams(ctx context.Context, orgID, userID forge.ID) ([]*forge.Team, error) {
	x.s.queries.Add(1)
	return x.Tx.OrgTeams(ctx, orgID, userID)
}

func (x countingTx) AddRepoTeams(ctx context.Context, repoID forge.ID, teamIDs []forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.AddRepoTeams(ctx, repoID, teamIDs)
}

func (x countingTx) DeleteRepoTeams(ctx context.Context, repoID forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteRepoTeams(ctx, repoID)
}

func (x countingTx) ListCollaborators(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]repos.Collaborator, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListCollaborators(ctx, repoID, o)
}

func (x countingTx) SetWatch(ctx context.Context, repoID, userID forge.ID, mode repos.WatchMode, at time.Time) error {
	x.s.queries.Add(1)
	return x.Tx.SetWatch(ctx, repoID, userID, mode, at)
}

func (x countingTx) Watch(ctx context.Context, repoID, userID forge.ID) (repos.WatchMode, time.Time, error) {
	x.s.queries.Add(1)
	return x.Tx.Watch(ctx, repoID, userID)
}

func (x countingTx) ListWatchers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListWatchers(ctx, repoID, o)
}

func (x countingTx) SetStar(ctx context.Context, repoID, userID forge.ID, starred bool, at time.Time) error {
	x.s.queries.Add(1)
	return x.Tx.SetStar(ctx, repoID, userID, starred, at)
}

func (x countingTx) IsStarred(ctx context.Context, repoID, userID forge.ID) (bool, error) {
	x.s.queries.Add(1)
	return x.Tx.IsStarred(ctx, repoID, userID)
}

func (x countingTx) ListStargazers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListStargazers(ctx, repoID, o)
}

func (x countingTx) CreateProtection(ctx context.Context, p *repos.BranchProtection) error {
	x.s.queries.Add(1)
	return x.Tx.CreateProtection(ctx, p)
}

func (x countingTx) Protection(ctx context.Context, repoID forge.ID, rule string) (*repos.BranchProtection, error) {
	x.s.queries.Add(1)
	return x.Tx.Protection(ctx, repoID, rule)
}

func (x countingTx) ListProtections(ctx context.Context, repoID forge.ID) ([]*repos.BranchProtection, error) {
	x.s.queries.Add(1)
	return x.Tx.ListProtections(ctx, repoID)
}

func (x countingTx) UpdateProtection(ctx context.Context, p *repos.BranchProtection) error {
	x.s.queries.Add(1)
	return x.Tx.UpdateProtection(ctx, p)
}

func (x countingTx) DeleteProtection(ctx context.Context, repoID forge.ID, rule string) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteProtection(ctx, repoID, rule)
}

func (x countingTx) SetTransfer(ctx context.Context, t *repos.Transfer) error {
	x.s.queries.Add(1)
	return x.Tx.SetTransfer(ctx, t)
}

func (x countingTx) Transfer(ctx context.Context, repoID forge.ID) (*repos.Transfer, error) {
	x.s.queries.Add(1)
	return x.Tx.Transfer(ctx, repoID)
}

func (x countingTx) Transfers(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]*repos.Transfer, error) {
	x.s.queries.Add(1)
	return x.Tx.Transfers(ctx, repoIDs)
}

func (x countingTx) DeleteTransfer(ctx context.Context, repoID forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteTransfer(ctx, repoID)
}

func (x countingTx) RecountForks(ctx context.Context, repoID forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.RecountForks(ctx, repoID)
}

func (x countingTx) CreateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	x.s.queries.Add(1)
	return x.Tx.CreateTagProtection(ctx, p)
}

func (x countingTx) TagProtection(ctx context.Context, repoID, id forge.ID) (*repos.TagProtection, error) {
	x.s.queries.Add(1)
	return x.Tx.TagProtection(ctx, repoID, id)
}

func (x countingTx) ListTagProtections(ctx context.Context, repoID forge.ID) ([]*repos.TagProtection, error) {
	x.s.queries.Add(1)
	return x.Tx.ListTagProtections(ctx, repoID)
}

func (x countingTx) UpdateTagProtection(ctx context.Context, p *repos.TagProtection) error {
	x.s.queries.Add(1)
	return x.Tx.UpdateTagProtection(ctx, p)
}

func (x countingTx) DeleteTagProtection(ctx context.Context, repoID, id forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteTagProtection(ctx, repoID, id)
}

func (x countingTx) CreateRelease(ctx context.Context, r *repos.Release) error {
	x.s.queries.Add(1)
	return x.Tx.CreateRelease(ctx, r)
}

func (x countingTx) ReleaseByID(ctx context.Context, repoID, id forge.ID) (*repos.Release, error) {
	x.s.queries.Add(1)
	return x.Tx.ReleaseByID(ctx, repoID, id)
}

func (x countingTx) ReleaseByTag(ctx context.Context, repoID forge.ID, tag string) (*repos.Release, error) {
	x.s.queries.Add(1)
	return x.Tx.ReleaseByTag(ctx, repoID, tag)
}

func (x countingTx) ListReleases(ctx context.Context, repoID forge.ID, f repos.ReleaseFilter, o forge.ListOptions) ([]*repos.Release, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListReleases(ctx, repoID, f, o)
}

func (x countingTx) UpdateRelease(ctx context.Context, r *repos.Release) error {
	x.s.queries.Add(1)
	return x.Tx.UpdateRelease(ctx, r)
}

func (x countingTx) DeleteRelease(ctx context.Context, id forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteRelease(ctx, id)
}

func (x countingTx) CreateAttachment(ctx context.Context, a *repos.Attachment) error {
	x.s.queries.Add(1)
	return x.Tx.CreateAttachment(ctx, a)
}

func (x countingTx) Attachment(ctx context.Context, id forge.ID) (*repos.Attachment, error) {
	x.s.queries.Add(1)
	return x.Tx.Attachment(ctx, id)
}

func (x countingTx) AttachmentByUUID(ctx context.Context, uuid string) (*repos.Attachment, error) {
	x.s.queries.Add(1)
	return x.Tx.AttachmentByUUID(ctx, uuid)
}

func (x countingTx) ListAttachments(ctx context.Context, releaseID forge.ID) ([]*repos.Attachment, error) {
	x.s.queries.Add(1)
	return x.Tx.ListAttachments(ctx, releaseID)
}

func (x countingTx) AttachmentsOf(ctx context.Context, releaseIDs []forge.ID) (map[forge.ID][]*repos.Attachment, error) {
	x.s.queries.Add(1)
	return x.Tx.AttachmentsOf(ctx, releaseIDs)
}

func (x countingTx) UpdateAttachment(ctx context.Context, a *repos.Attachment) error {
	x.s.queries.Add(1)
	return x.Tx.UpdateAttachment(ctx, a)
}

func (x countingTx) DeleteAttachment(ctx context.Context, id forge.ID) error {
	x.s.queries.Add(1)
	return x.Tx.DeleteAttachment(ctx, id)
}

func (x countingTx) CreateStatus(ctx context.Context, st *repos.CommitStatus) error {
	x.s.queries.Add(1)
	return x.Tx.CreateStatus(ctx, st)
}

func (x countingTx) ListStatuses(ctx context.Context, repoID forge.ID, sha string, f repos.StatusFilter, o forge.ListOptions) ([]*repos.CommitStatus, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.ListStatuses(ctx, repoID, sha, f, o)
}

// TestCountingTxCountsEveryMethod checks that countingTx declares a
// counting wrapper for every method of repos.Tx: one passed through
// uncounted (the embedded interface's) would make the cost tests blind to
// it.
func TestCountingTxCountsEveryMethod(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "repo_tx_count_test.go", nil, 0)
	require.NoError(t, err)
	declared := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok && id.Name == "countingTx" {
			declared[fn.Name.Name] = true
		}
	}
	typ := reflect.TypeFor[repos.Tx]()
	for i := range typ.NumMethod() {
		if name := typ.Method(i).Name; !declared[name] {
			t.Errorf("countingTx does not count repos.Tx.%s: add its wrapper to repo_tx_count_test.go", name)
		}
	}
}

func (x countingTx) IsBlocked(ctx context.Context, blockerID, userID forge.ID) (bool, error) {
	x.s.queries.Add(1)
	return x.Tx.IsBlocked(ctx, blockerID, userID)
}

func (x countingTx) TeamOrgs(ctx context.Context, teamIDs []forge.ID) (map[forge.ID]forge.ID, error) {
	x.s.queries.Add(1)
	return x.Tx.TeamOrgs(ctx, teamIDs)
}

func (x countingTx) AddUsage(ctx context.Context, owner quota.Owner, b quota.Bucket, delta int64) error {
	x.s.queries.Add(1)
	return x.Tx.AddUsage(ctx, owner, b, delta)
}

func (x countingTx) Usage(ctx context.Context, owner forge.ID) (quota.Used, error) {
	x.s.queries.Add(1)
	return x.Tx.Usage(ctx, owner)
}

func (x countingTx) QuotaGroupsOf(ctx context.Context, owner forge.ID) ([]quota.Group, error) {
	x.s.queries.Add(1)
	return x.Tx.QuotaGroupsOf(ctx, owner)
}

func (x countingTx) QuotaGroupsNamed(ctx context.Context, names []string) ([]quota.Group, error) {
	x.s.queries.Add(1)
	return x.Tx.QuotaGroupsNamed(ctx, names)
}

func (x countingTx) RepoFlags(ctx context.Context, repoID forge.ID) ([]string, error) {
	x.s.queries.Add(1)
	return x.Tx.RepoFlags(ctx, repoID)
}

func (x countingTx) SetRepoFlags(ctx context.Context, repoID forge.ID, flags []string) error {
	x.s.queries.Add(1)
	return x.Tx.SetRepoFlags(ctx, repoID, flags)
}

func (x countingTx) SearchTopics(ctx context.Context, keyword string, o forge.ListOptions) ([]repos.Topic, int64, error) {
	x.s.queries.Add(1)
	return x.Tx.SearchTopics(ctx, keyword, o)
}
