package actions

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// ErrRunNotFound answers a run that does not exist in the repository.
var ErrRunNotFound = forge.Errorf(forge.ErrNotFound, "run not found")

// Dispatch is a workflow_dispatch request.
type Dispatch struct {
	// Ref is the branch or tag the workflow runs on. Required.
	Ref string
	// Inputs are the workflow's inputs (recorded nowhere yet: Hearth runs
	// no workflow).
	Inputs map[string]string
}

// DispatchWorkflow records a workflow_dispatch of the workflow file of the
// repository owner/repo as a waiting run, and returns it. Hearth executes
// nothing: the run stays waiting until something else records progress.
// It needs write access to the repository's Actions unit. Errors:
// forge.ErrInvalid `ref is required parameter` and for an empty workflow
// name; forge.ErrNotFound for a repository the actor may not see or
// without the Actions unit.
func (s *Service) DispatchWorkflow(ctx context.Context, actor forge.Actor, owner, repo, workflow string, d Dispatch) (*Run, error) {
	t := RepoTarget(owner, repo)
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needWrite)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(d.Ref) == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "ref is required parameter")
	}
	if workflow == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "workflow name is required")
	}
	now := s.clock.Now()
	run := &Run{RepoID: r.repo.ID, OwnerID: r.repo.OwnerID, Title: workflow, WorkflowID: workflow,
		Ref: d.Ref, Event: "workflow_dispatch", TriggerUserID: actor.User.ID, Status: StatusWaiting,
		Created: now, Updated: now}
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.CreateRun(ctx, run) }); err != nil {
		return nil, err
	}
	return run, nil
}

// ListRuns returns a page of the runs of the repository owner/repo
// matching f (its RepoID is ignored), newest first, their number, and the
// repository. It needs read access to the Actions unit.
func (s *Service) ListRuns(ctx context.Context, actor forge.Actor, owner, repo string, f RunFilter, o forge.ListOptions) ([]*Run, int64, *forge.Repository, error) {
	r, err := s.resolve(ctx, actor, RepoTarget(owner, repo), forge.AccessRead, needRead)
	if err != nil {
		return nil, 0, nil, err
	}
	f.RepoID = r.repo.ID
	var list []*Run
	var total int64
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListRuns(ctx, f, o.Normalize())
		return err
	})
	return list, total, r.repo, err
}

// Run returns a run of the repository owner/repo by id, with the
// repository; ErrRunNotFound if none.
func (s *Service) Run(ctx context.Context, actor forge.Actor, owner, repo string, id forge.ID) (*Run, *forge.Repository, error) {
	r, err := s.resolve(ctx, actor, RepoTarget(owner, repo), forge.AccessRead, needRead)
	if err != nil {
		return nil, nil, err
	}
	var run *Run
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		run, err = tx.RunByID(ctx, r.repo.ID, id)
		if errors.Is(err, forge.ErrNotFound) {
			return ErrRunNotFound
		}
		return err
	})
	return run, r.repo, err
}

// Job is a job of a run waiting for or held by a runner.
type Job struct {
	ID      forge.ID
	RunID   forge.ID
	RepoID  forge.ID
	OwnerID forge.ID
	Name    string
	RunsOn  []string
	Needs   []string
	Status  RunStatus
	TaskID  forge.ID
	Attempt int64
	Handle  string
}

// Task is one execution of a job by a runner.
type Task struct {
	ID         forge.ID
	Name       string
	Event      string
	HeadBranch string
	HeadSHA    string
	RunNumber  int64
	Status     RunStatus
	WorkflowID string
}

// ListJobs returns the jobs waiting or running at the level of t whose
// runs-on labels match labels (all when empty). Hearth parses no workflow,
// so no run has jobs and the list is empty; the level's access rules
// apply.
func (s *Service) ListJobs(ctx context.Context, actor forge.Actor, t Target, labels []string) ([]*Job, error) {
	if _, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner); err != nil {
		return nil, err
	}
	return []*Job{}, nil
}

// ListTasks returns a page of the tasks of the repository owner/repo and
// their number. Hearth executes no job, so there are none; reading needs
// read access to the Actions unit.
func (s *Service) ListTasks(ctx context.Context, actor forge.Actor, owner, repo string, o forge.ListOptions) ([]*Task, int64, error) {
	if _, err := s.resolve(ctx, actor, RepoTarget(owner, repo), forge.AccessRead, needRead); err != nil {
		return nil, 0, err
	}
	return []*Task{}, 0, nil
}
