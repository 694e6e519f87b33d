package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// unsigned is Forgejo's PayloadCommitVerification of an unsigned commit.
// Converters return a fresh copy so no response shares it.
func unsigned() *wire.PayloadCommitVerification {
	return &wire.PayloadCommitVerification{Reason: "gpg.error.not_signed_commit"}
}

// commitUser is Forgejo's CommitUser of a signature (the date in RFC 3339).
func commitUser(s repos.Signature) *wire.CommitUser {
	return &wire.CommitUser{Name: s.Name, Email: s.Email, Date: s.When.Format(time.RFC3339)}
}

// commitMeta is Forgejo's CommitMeta of the object sha (kind is "commits",
// "trees" or "tags") under the repository API URL api.
func commitMeta(api, kind, sha string, created time.Time) wire.CommitMeta {
	return wire.CommitMeta{URL: api + "/git/" + kind + "/" + sha, SHA: sha, Created: created}
}

// toCommit converts a commit as Forgejo's convert.ToCommit; files and stats
// only when asked (and known). Author and committer are null: Hearth does
// not map commit e-mails to accounts.
func toCommit(api, html string, cm *repos.Commit, files, stats bool) wire.Commit {
	when := cm.Committer.When.UTC()
	tree := commitMeta(api, "trees", cm.Tree, when)
	out := wire.Commit{
		URL: api + "/git/commits/" + cm.ID, SHA: cm.ID, Created: when,
		HTMLURL: html + "/commit/" + cm.ID,
		Commit: &wire.RepoCommit{URL: api + "/git/commits/" + cm.ID, Author: commitUser(cm.Author), Committer: commitUser(cm.Committer),
			Message: cm.Message, Tree: &tree, Verification: unsigned()},
		Parents: []wire.CommitMeta{},
	}
	for _, p := range cm.Parents {
		out.Parents = append(out.Parents, commitMeta(api, "commits", p, when))
	}
	if files && cm.Files != nil {
		out.Files = []wire.CommitAffectedFiles{}
		for _, f := range cm.Files {
			out.Files = append(out.Files, wire.CommitAffectedFiles{Filename: f.Filename, Status: f.Status})
		}
	}
	if stats && cm.Files != nil {
		st := &wire.CommitStats{}
		for _, f := range cm.Files {
			st.Additions += int64(f.Additions)
			st.Deletions += int64(f.Deletions)
		}
		st.Total = st.Additions + st.Deletions
		out.Stats = st
	}
	return out
}

// boolParam reads a boolean query parameter that defaults to true.
func (c *call) boolParam(name string) bool {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return true
	}
	b, err := strconv.ParseBool(v)
	return err != nil || b
}

// listCommits is GET /repos/{owner}/{repo}/commits.
func (a *API) listCommits(c *call) {
	q := c.r.URL.Query()
	o := c.listOptions()
	stat, files := c.boolParam("stat"), c.boolParam("files")
	v, list, total, err := a.cfg.Repos.Commits(c.r.Context(), c.actor, c.owner(), c.repo(), repos.LogOptions{
		Rev: q.Get("sha"), Path: q.Get("path"), Skip: o.Offset(), Limit: o.Limit, Files: stat || files})
	if err != nil {
		c.repoError(err)
		return
	}
	api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
	out := make([]wire.Commit, len(list))
	for i, cm := range list {
		out[i] = toCommit(api, html, cm, files, stat)
	}
	pages := (total + o.Limit - 1) / o.Limit
	h := c.w.Header()
	h.Set("X-Page", strconv.Itoa(o.Page))
	h.Set("X-PerPage", strconv.Itoa(o.Limit))
	h.Set("X-PageCount", strconv.Itoa(pages))
	h.Set("X-HasMore", strconv.FormatBool(o.Page < pages))
	c.writePage(int64(total), o, out)
}

// getCommit is GET /repos/{owner}/{repo}/git/commits/{sha}.
func (a *API) getCommit(c *call) {
	a.getCommitOf(c, c.pathValue("sha"))
}

// getCommitOf answers GET git/commits/{sha} for sha: a name that is no ref
// pattern is 422 `no valid ref or sha: <sha>` (Forgejo's GetSingleCommit),
// once the repository is found.
func (a *API) getCommitOf(c *call, sha string) {
	if !repos.ValidRefPattern(sha) {
		if _, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo()); err != nil {
			c.repoError(err)
			return
		}
		c.errorStatus(http.StatusUnprocessableEntity, "no valid ref or sha: "+sha)
		return
	}
	stat, files := c.boolParam("stat"), c.boolParam("files")
	v, cm, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), sha, stat || files)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toCommit(c.repoAPIURL(v.Repo), c.repoURL(v.Repo), cm, files, stat))
}

// downloadDiff is GET /repos/{owner}/{repo}/git/commits/{sha}.{diffType}:
// git's output streamed to the response, never held whole in memory.
func (a *API) downloadDiff(c *call) {
	// Forgejo's route takes only .diff and .patch: any other suffix is
	// part of the sha of GET git/commits/{sha}.
	if dt := c.pathValue("diffType"); dt != "diff" && dt != "patch" {
		a.getCommitOf(c, c.pathValue("sha")+"."+dt)
		return
	}
	if _, _, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), false); err != nil {
		c.repoError(err)
		return
	}
	w := newStreamWriter(c, map[string]string{"Content-Type": "text/plain;charset=utf-8"})
	w.finish("diff", a.cfg.Repos.Patch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), c.pathValue("diffType"), w))
}
