package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/actions"
	"github.com/hearthforge/hearth/forge/orgs"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// targetOf names the Actions level a route acts on, from its path.
type targetOf func(c *call) actions.Target

func repoTarget(c *call) actions.Target { return actions.RepoTarget(c.owner(), c.repo()) }
func orgTarget(c *call) actions.Target  { return actions.OrgTarget(c.org()) }
func userTarget(*call) actions.Target   { return actions.UserTarget() }
func globalTarget(*call) actions.Target { return actions.GlobalTarget() }

// actionsTarget is the level a gated Actions route acts on, from the
// parameters of its path: a repository's, an organisation's, else the
// acting user's (actions.Service.Authorize refuses a level that is not
// its operation's).
func actionsTarget(c *call) actions.Target {
	switch {
	case c.pathValue("repo") != "":
		return repoTarget(c)
	case c.pathValue("org") != "":
		return orgTarget(c)
	}
	return userTarget(c)
}

// actionsError writes the errors of the Actions routes: a rule refusal
// (forge.ErrInvalid: names, data) is Forgejo's 400 (util.ErrInvalidArgument);
// a repository with the Actions unit off is ctx.NotFound's body; unknown
// repositories and organisations as their own routes answer them.
func (c *call) actionsError(err error) {
	bad := on(forge.ErrInvalid, http.StatusBadRequest)
	var org *orgs.NotFoundError
	switch {
	case errors.Is(err, actions.ErrActionsDisabled):
		c.notFound()
	case errors.As(err, &org):
		c.orgError(err)
	default:
		c.repoError(err, bad)
	}
}

// required answers Forgejo's binding error for an empty required field:
// 422 `[Field]: Required`.
func (c *call) required(field string) {
	c.errorStatus(http.StatusUnprocessableEntity, "["+field+"]: Required")
}

// present is Forgejo's binding rule Required on field, whose value is
// there when ok: it answers required(field) when not. It returns ok.
func (c *call) present(field string, ok bool) bool {
	if !ok {
		c.required(field)
	}
	return ok
}

// listSecrets is GET …/actions/secrets: names and creation times, never
// values, with X-Total-Count.
func (a *API) listSecrets(target targetOf) func(*call) {
	return func(c *call) {
		list, total, err := a.cfg.Actions.ListSecrets(c.r.Context(), c.actor, target(c), c.listOptions())
		if err != nil {
			c.actionsError(err)
			return
		}
		out := make([]wire.Secret, len(list))
		for i, s := range list {
			out[i] = wire.Secret{Name: s.Name, Created: s.Created}
		}
		c.setTotalCount(total)
		c.json(http.StatusOK, out)
	}
}

// putSecret is PUT …/actions/secrets/{secretname}: 201 (empty) when
// created, 204 when updated.
func (a *API) putSecret(target targetOf) func(*call) {
	return func(c *call) {
		var o wire.CreateOrUpdateSecretOption
		if !c.decode(&o) || !c.present("Data", o.Data != "") {
			return
		}
		created, err := a.cfg.Actions.PutSecret(c.r.Context(), c.actor, target(c), c.pathValue("secretname"), o.Data)
		status := http.StatusNoContent
		if created {
			status = http.StatusCreated
		}
		c.emptyOr(status, err, c.actionsError)
	}
}

// deleteSecret is DELETE …/actions/secrets/{secretname}: 204.
func (a *API) deleteSecret(target targetOf) func(*call) {
	return func(c *call) {
		c.noContentOr(a.cfg.Actions.DeleteSecret(c.r.Context(), c.actor, target(c), c.pathValue("secretname")), c.actionsError)
	}
}

func toVariable(v *actions.Variable) wire.ActionVariable {
	return wire.ActionVariable{OwnerID: int64(v.Scope.OwnerID), RepoID: int64(v.Scope.RepoID), Name: v.Name, Data: v.Data}
}

// listVariables is GET …/actions/variables, with X-Total-Count.
func (a *API) listVariables(target targetOf) func(*call) {
	return func(c *call) {
		list, total, err := a.cfg.Actions.ListVariables(c.r.Context(), c.actor, target(c), c.listOptions())
		totalAs(c, list, total, err, c.actionsError, each(toVariable))
	}
}

// getVariable is GET …/actions/variables/{variablename}.
func (a *API) getVariable(target targetOf) func(*call) {
	return func(c *call) {
		v, err := a.cfg.Actions.Variable(c.r.Context(), c.actor, target(c), c.pathValue("variablename"))
		jsonAs(c, http.StatusOK, v, err, c.actionsError, toVariable)
	}
}

// createVariable is POST …/actions/variables/{variablename}: 204 (as
// Forgejo answers, though its document also names 201); 409 for a taken
// name.
func (a *API) createVariable(target targetOf) func(*call) {
	return func(c *call) {
		var o wire.CreateVariableOption
		if !c.decode(&o) || !c.present("Value", o.Value != "") {
			return
		}
		if _, err := a.cfg.Actions.CreateVariable(c.r.Context(), c.actor, target(c), c.pathValue("variablename"), o.Value); err != nil {
			c.actionsError(err)
			return
		}
		c.noContent()
	}
}

// updateVariable is PUT …/actions/variables/{variablename}: 204; the
// optional name renames the variable.
func (a *API) updateVariable(target targetOf) func(*call) {
	return func(c *call) {
		var o wire.UpdateVariableOption
		if !c.decode(&o) || !c.present("Value", o.Value != "") {
			return
		}
		_, err := a.cfg.Actions.UpdateVariable(c.r.Context(), c.actor, target(c), c.pathValue("variablename"), valueOf(o.Name), o.Value)
		if err != nil {
			c.actionsError(err)
			return
		}
		c.noContent()
	}
}

// deleteVariable is DELETE …/actions/variables/{variablename}: 204.
func (a *API) deleteVariable(target targetOf) func(*call) {
	return func(c *call) {
		c.noContentOr(a.cfg.Actions.DeleteVariable(c.r.Context(), c.actor, target(c), c.pathValue("variablename")), c.actionsError)
	}
}

// registrationToken is GET …/runners/registration-token: 200
// `{"token": …}`, the same token until it is reset.
func (a *API) registrationToken(target targetOf) func(*call) {
	return func(c *call) {
		tok, err := a.cfg.Actions.RegistrationToken(c.r.Context(), c.actor, target(c))
		if err != nil {
			c.actionsError(err)
			return
		}
		c.json(http.StatusOK, wire.RegistrationToken{Token: tok})
	}
}

func toRunner(r *actions.Runner) wire.ActionRunner {
	labels := r.Labels
	if labels == nil {
		labels = []string{}
	}
	return wire.ActionRunner{ID: int64(r.ID), UUID: r.UUID, Name: r.Name, Description: r.Description,
		Ephemeral: r.Ephemeral, Labels: labels, OwnerID: int64(r.Scope.OwnerID), RepoID: int64(r.Scope.RepoID),
		Status: "offline", Version: r.Version}
}

// listRunners is GET …/runners (`visible` adds the runners the level may
// use), with Link and X-Total-Count.
func (a *API) listRunners(target targetOf) func(*call) {
	return func(c *call) {
		visible, _ := strconv.ParseBool(c.r.URL.Query().Get("visible"))
		o := c.listOptions()
		list, total, err := a.cfg.Actions.ListRunners(c.r.Context(), c.actor, target(c), visible, o)
		pageAs(c, list, total, o, err, c.actionsError, each(toRunner))
	}
}

// runnerID parses {runner_id}; Forgejo reads a malformed one as 0, which
// finds no runner.
func (c *call) runnerID() forge.ID {
	id, _ := strconv.ParseInt(c.pathValue("runner_id"), 10, 64)
	return forge.ID(id)
}

// getRunner is GET …/runners/{runner_id}.
func (a *API) getRunner(target targetOf) func(*call) {
	return func(c *call) {
		r, err := a.cfg.Actions.Runner(c.r.Context(), c.actor, target(c), c.runnerID())
		jsonAs(c, http.StatusOK, r, err, c.actionsError, toRunner)
	}
}

// deleteRunner is DELETE …/runners/{runner_id}: 204.
func (a *API) deleteRunner(target targetOf) func(*call) {
	return func(c *call) {
		c.noContentOr(a.cfg.Actions.DeleteRunner(c.r.Context(), c.actor, target(c), c.runnerID()), c.actionsError)
	}
}

// registerRunner is POST …/runners: 201 with the runner's id, uuid and
// token (shown once).
func (a *API) registerRunner(target targetOf) func(*call) {
	return func(c *call) {
		var o wire.RegisterRunnerOptions
		if !c.decode(&o) || !c.present("Name", o.Name != "") {
			return
		}
		r, tok, err := a.cfg.Actions.RegisterRunner(c.r.Context(), c.actor, target(c), actions.RegisterRunner{
			Name: o.Name, Description: valueOf(o.Description), Ephemeral: valueOf(o.Ephemeral)})
		if err != nil {
			c.actionsError(err)
			return
		}
		c.json(http.StatusCreated, wire.RegisterRunnerResponse{ID: int64(r.ID), UUID: r.UUID, Token: tok})
	}
}

// runnerJobs is GET …/runners/jobs: the waiting and running jobs matching
// `labels` (comma-separated). Forgejo answers an empty list with null;
// Hearth answers [] as the document's array.
func (a *API) runnerJobs(target targetOf) func(*call) {
	return func(c *call) {
		var labels []string
		if l := strings.TrimSpace(c.r.URL.Query().Get("labels")); l != "" {
			labels = strings.Split(l, ",")
		}
		jobs, err := a.cfg.Actions.ListJobs(c.r.Context(), c.actor, target(c), labels)
		if err != nil {
			c.actionsError(err)
			return
		}
		out := make([]wire.ActionRunJob, len(jobs))
		for i, j := range jobs {
			out[i] = wire.ActionRunJob{ID: int64(j.ID), Name: j.Name, OwnerID: int64(j.OwnerID), RepoID: int64(j.RepoID),
				RunsOn: j.RunsOn, Needs: j.Needs, Status: string(j.Status), TaskID: int64(j.TaskID), Attempt: j.Attempt, Handle: j.Handle}
		}
		c.json(http.StatusOK, out)
	}
}

// toRun is the ActionRun JSON of a recorded run. The repository and the
// triggering user are left null (the document allows it; Forgejo fills
// them).
func (c *call) toRun(repo *forge.Repository, r *actions.Run) wire.ActionRun {
	return wire.ActionRun{ID: int64(r.ID), Index: r.Index, Title: r.Title, WorkflowID: r.WorkflowID,
		PrettyRef: prettyRef(r.Ref), CommitSHA: r.CommitSHA, Event: r.Event, TriggerEvent: r.Event,
		Status: string(r.Status), Created: r.Created, Updated: r.Updated,
		HTMLURL: c.repoURL(repo) + "/actions/runs/" + strconv.FormatInt(r.Index, 10), EventPayload: ""}
}

// prettyRef is a ref without refs/heads/ or refs/tags/.
func prettyRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if strings.HasPrefix(ref, p) {
			return strings.TrimPrefix(ref, p)
		}
	}
	return ref
}

// listRuns is GET /repos/{owner}/{repo}/actions/runs with Forgejo's
// filters (event, status, run_number, head_sha, ref, workflow_id).
func (a *API) listRuns(c *call) {
	q := c.r.URL.Query()
	f := actions.RunFilter{Events: q["event"], CommitSHA: q.Get("head_sha"), Ref: q.Get("ref"), WorkflowID: q.Get("workflow_id")}
	for _, s := range q["status"] {
		f.Status = append(f.Status, actions.RunStatus(s))
	}
	if n := q.Get("run_number"); n != "" {
		idx, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			c.errorStatus(http.StatusBadRequest, "invalid run_number")
			return
		}
		f.Index = idx
	}
	o := c.listOptions()
	list, total, repo, err := a.cfg.Actions.ListRuns(c.r.Context(), c.actor, c.owner(), c.repo(), f, o)
	if err != nil {
		c.actionsError(err)
		return
	}
	out := wire.ListActionRunResponse{TotalCount: total, Entries: make([]wire.ActionRun, len(list))}
	for i, r := range list {
		out.Entries[i] = c.toRun(repo, r)
	}
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
}

// getRun is GET /repos/{owner}/{repo}/actions/runs/{run_id}.
func (a *API) getRun(c *call) {
	id, _ := strconv.ParseInt(c.pathValue("run_id"), 10, 64)
	r, repo, err := a.cfg.Actions.Run(c.r.Context(), c.actor, c.owner(), c.repo(), forge.ID(id))
	if err != nil {
		c.actionsError(err)
		return
	}
	c.json(http.StatusOK, c.toRun(repo, r))
}

// listTasks is GET /repos/{owner}/{repo}/actions/tasks: Hearth executes no
// job, so there are none.
func (a *API) listTasks(c *call) {
	o := c.listOptions()
	list, total, err := a.cfg.Actions.ListTasks(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	if err != nil {
		c.actionsError(err)
		return
	}
	out := wire.ActionTaskResponse{TotalCount: total, Entries: make([]wire.ActionTask, len(list))}
	for i, t := range list {
		out.Entries[i] = wire.ActionTask{ID: int64(t.ID), Name: t.Name, Event: t.Event, HeadBranch: t.HeadBranch,
			HeadSHA: t.HeadSHA, RunNumber: t.RunNumber, Status: string(t.Status), WorkflowID: t.WorkflowID}
	}
	c.json(http.StatusOK, out)
}

// dispatchWorkflow is POST …/workflows/{workflowfilename}/dispatches: the
// dispatch is recorded as a waiting run; 204, or 201 with the run when
// return_run_info is set.
func (a *API) dispatchWorkflow(c *call) {
	var o wire.DispatchWorkflowOption
	if !c.decode(&o) || !c.present("Ref", strings.TrimSpace(o.Ref) != "") {
		return
	}
	run, err := a.cfg.Actions.DispatchWorkflow(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("workflowfilename"),
		actions.Dispatch{Ref: o.Ref, Inputs: valueOf(o.Inputs)})
	if err != nil {
		c.actionsError(err)
		return
	}
	if valueOf(o.ReturnRunInfo) {
		c.json(http.StatusCreated, wire.DispatchWorkflowRun{ID: int64(run.ID), RunNumber: run.Index, Jobs: []string{}})
		return
	}
	c.noContent()
}
