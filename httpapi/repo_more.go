package httpapi

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// getLanguages is GET /repos/{owner}/{repo}/languages: bytes per language.
func (a *API) getLanguages(c *call) {
	langs, err := a.cfg.Repos.Languages(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, langs)
}

type downloadCount struct {
	Zip   int64 `json:"zip"`
	TarGz int64 `json:"tar_gz"`
}

func (c *call) toTag(r *forge.Repository, t *repos.Tag) tagJSON {
	api, html := c.repoAPIURL(r), c.repoURL(r)
	return tagJSON{Name: t.Name, Message: t.Message, ID: t.ID,
		Commit:     commitMeta{URL: api + "/git/commits/" + t.Commit, SHA: t.Commit},
		ZipballURL: html + "/archive/" + t.Name + ".zip", TarballURL: html + "/archive/" + t.Name + ".tar.gz"}
}

// getTag is GET /repos/{owner}/{repo}/tags/{tag}.
func (a *API) getTag(c *call) {
	v, t, err := a.cfg.Repos.GetTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("tag"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toTag(v.Repo, t))
}

// createTag is POST /repos/{owner}/{repo}/tags: 201; 409 when it exists.
func (a *API) createTag(c *call) {
	var o struct {
		TagName string `json:"tag_name"`
		Target  string `json:"target"`
		Message string `json:"message"`
	}
	if !c.decode(&o) {
		return
	}
	v, t, err := a.cfg.Repos.CreateTag(c.r.Context(), c.actor, c.owner(), c.repo(), o.TagName, o.Target, o.Message)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, c.toTag(v.Repo, t))
}

// deleteTag is DELETE /repos/{owner}/{repo}/tags/{tag}.
func (a *API) deleteTag(c *call) {
	if err := a.cfg.Repos.DeleteTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("tag")); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// getAnnotatedTag is GET /repos/{owner}/{repo}/git/tags/{sha}.
func (a *API) getAnnotatedTag(c *call) {
	v, t, err := a.cfg.Repos.AnnotatedTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"))
	if err != nil {
		c.repoError(err)
		return
	}
	api := c.repoAPIURL(v.Repo)
	kind := "commits"
	if t.ObjectType == "tag" {
		kind = "tags"
	}
	c.json(http.StatusOK, struct {
		Tag          string        `json:"tag"`
		SHA          string        `json:"sha"`
		URL          string        `json:"url"`
		Message      string        `json:"message"`
		Tagger       commitUser    `json:"tagger"`
		Object       gitObject     `json:"object"`
		Verification *verification `json:"verification"`
		Downloads    downloadCount `json:"archive_download_count"`
	}{t.Name, t.ID, api + "/git/tags/" + t.ID, t.Message, sigJSON(t.Tagger),
		gitObject{Type: t.ObjectType, SHA: t.Object, URL: api + "/git/" + kind + "/" + t.Object}, unsigned, downloadCount{}})
}

// commitStatusJSON is Forgejo's CommitStatus.
type commitStatusJSON struct {
	ID          int64     `json:"id"`
	State       string    `json:"status"`
	TargetURL   string    `json:"target_url"`
	Description string    `json:"description"`
	URL         string    `json:"url"`
	Context     string    `json:"context"`
	Creator     *userJSON `json:"creator"`
	Created     time.Time `json:"created_at"`
	Updated     time.Time `json:"updated_at"`
}

func (c *call) toStatus(r *forge.Repository, st *repos.CommitStatus) commitStatusJSON {
	out := commitStatusJSON{ID: st.ID, State: string(st.State), TargetURL: st.TargetURL, Description: st.Description,
		URL: c.repoAPIURL(r) + "/statuses/" + st.SHA, Context: st.Context, Created: apiTime(st.Created), Updated: apiTime(st.Updated)}
	if st.Creator != nil {
		u := c.toUser(st.Creator)
		out.Creator = &u
	}
	return out
}

// createStatus is POST /repos/{owner}/{repo}/statuses/{sha}: 201.
func (a *API) createStatus(c *call) {
	var o struct {
		State       string `json:"state"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if !c.decode(&o) {
		return
	}
	v, st, err := a.cfg.Repos.CreateStatus(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), repos.CommitStatus{
		State: repos.StatusState(o.State), TargetURL: o.TargetURL, Description: o.Description, Context: o.Context})
	if err != nil {
		c.repoError(err, on(forge.ErrInvalid, http.StatusBadRequest))
		return
	}
	c.json(http.StatusCreated, c.toStatus(v.Repo, st))
}

// listStatuses is GET .../statuses/{sha} and .../commits/{ref}/statuses.
func (a *API) listStatuses(param string) func(*call) {
	return func(c *call) {
		q := c.r.URL.Query()
		o := c.listOptions()
		v, _, list, total, err := a.cfg.Repos.ListStatuses(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue(param),
			repos.StatusFilter{State: repos.StatusState(q.Get("state")), Sort: q.Get("sort")}, o)
		if err != nil {
			c.repoError(err)
			return
		}
		out := make([]commitStatusJSON, len(list))
		for i, st := range list {
			out[i] = c.toStatus(v.Repo, st)
		}
		c.setLinkHeader(total, o)
		c.setTotalCount(total)
		c.json(http.StatusOK, out)
	}
}

// combinedStatus is GET /repos/{owner}/{repo}/commits/{ref}/status.
func (a *API) combinedStatus(c *call) {
	v, sha, state, latest, err := a.cfg.Repos.CombinedStatus(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("ref"))
	if err != nil {
		c.repoError(err)
		return
	}
	statuses := make([]commitStatusJSON, len(latest))
	for i, st := range latest {
		statuses[i] = c.toStatus(v.Repo, st)
	}
	api := c.repoAPIURL(v.Repo)
	c.json(http.StatusOK, struct {
		State      string             `json:"state"`
		SHA        string             `json:"sha"`
		TotalCount int                `json:"total_count"`
		Statuses   []commitStatusJSON `json:"statuses"`
		Repository repositoryJSON     `json:"repository"`
		CommitURL  string             `json:"commit_url"`
		URL        string             `json:"url"`
	}{string(state), sha, len(latest), statuses, c.toRepo(v), api + "/commits/" + sha, api + "/commits/" + sha + "/status"})
}

// changeFiles is POST /repos/{owner}/{repo}/contents: several file changes
// in one commit; 201 FilesResponse.
func (a *API) changeFiles(c *call) {
	var o struct {
		fileOptions
		Files []struct {
			Operation string `json:"operation"`
			Path      string `json:"path"`
			Content   string `json:"content"`
			FromPath  string `json:"from_path"`
			SHA       string `json:"sha"`
		} `json:"files"`
	}
	if !c.decode(&o) {
		return
	}
	if len(o.Files) == 0 {
		c.errorStatus(http.StatusUnprocessableEntity, "[Files]: Required")
		return
	}
	var changes []repos.FileChange
	for _, f := range o.Files {
		content, err := base64.StdEncoding.DecodeString(f.Content)
		if err != nil {
			c.errorStatus(http.StatusUnprocessableEntity, "[Content]: invalid base64")
			return
		}
		changes = append(changes, repos.FileChange{Op: f.Operation, Path: f.Path, Content: content, FromPath: f.FromPath, SHA: f.SHA})
	}
	msg := o.Message
	if msg == "" {
		msg = "Update files\n"
	}
	author, committer := o.signatures()
	v, cm, err := a.cfg.Repos.ChangeFiles(c.r.Context(), c.actor, c.owner(), c.repo(), repos.ChangeFilesOptions{
		Files: changes, Message: msg, Branch: o.Branch, NewBranch: o.NewBranch, Author: author, Committer: committer})
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusConflict))
		return
	}
	files := []any{}
	for _, f := range changes {
		if f.Op == "delete" {
			files = append(files, nil)
			continue
		}
		p, _ := repos.CleanTreePath(f.Path) // the path ChangeFiles wrote
		_, ct, err := a.cfg.Repos.GetContents(c.r.Context(), c.actor, c.owner(), c.repo(), p, cm.ID)
		if err != nil { // the commit landed: never answer an error for it
			a.log.ErrorContext(c.r.Context(), "contents after commit", "commit", cm.ID, "err", err)
			files = append(files, nil)
			continue
		}
		files = append(files, c.toContents(v.Repo, cmpOrStr(o.NewBranch, o.Branch, v.Repo.DefaultBranch), ct.Entry, ct.Content, cm.ID))
	}
	c.json(http.StatusCreated, struct {
		Files        []any          `json:"files"`
		Commit       fileCommitJSON `json:"commit"`
		Verification *verification  `json:"verification"`
	}{files, c.toFileCommit(v.Repo, cm), unsigned})
}

func cmpOrStr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// renameBranch is PATCH /repos/{owner}/{repo}/branches/{branch}: 204.
func (a *API) renameBranch(c *call) {
	var o struct {
		Name string `json:"name"`
	}
	if !c.decode(&o) {
		return
	}
	if o.Name == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	err := a.cfg.Repos.RenameBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"), o.Name)
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	c.noContent()
}

// downloadDiff is GET /repos/{owner}/{repo}/git/commits/{sha}.{diffType}.
func (a *API) downloadDiff(c *call) {
	if _, _, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), false); err != nil {
		c.repoError(err)
		return
	}
	var buf bytes.Buffer
	if err := a.cfg.Repos.Patch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), c.pathValue("diffType"), &buf); err != nil {
		c.repoError(err)
		return
	}
	c.w.Header().Set("Content-Type", "text/plain;charset=utf-8")
	c.w.WriteHeader(http.StatusOK)
	c.wrote = true
	c.w.Write(buf.Bytes())
}

// listReposOf lists repositories a user starred or watches.
func (a *API) listReposOf(self, starred bool) func(*call) {
	return func(c *call) {
		var uid forge.ID
		if self {
			uid = c.actor.UserID()
		} else {
			u, err := a.cfg.Auth.User(c.r.Context(), c.actor, c.pathValue("username"))
			if err != nil {
				c.writeError(err)
				return
			}
			uid = u.ID
		}
		f := repos.RepoFilter{WatchedBy: uid}
		if starred {
			f = repos.RepoFilter{StarredBy: uid}
		}
		o := c.listOptions()
		list, total, err := a.cfg.Repos.List(c.r.Context(), c.actor, f, o)
		if err != nil {
			c.repoError(err)
			return
		}
		c.writeRepos(list, total, o)
	}
}

// setAvatar is POST /repos/{owner}/{repo}/avatar: `{"image": <base64>}`, 204.
func (a *API) setAvatar(c *call) {
	var o struct {
		Image string `json:"image"`
	}
	if !c.decode(&o) {
		return
	}
	img, err := base64.StdEncoding.DecodeString(o.Image)
	if err != nil {
		c.errorStatus(http.StatusUnprocessableEntity, "[Image]: invalid base64")
		return
	}
	if err := a.cfg.Repos.SetAvatar(c.r.Context(), c.actor, c.owner(), c.repo(), img); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// deleteAvatar is DELETE /repos/{owner}/{repo}/avatar: 204.
func (a *API) deleteAvatar(c *call) {
	if err := a.cfg.Repos.DeleteAvatar(c.r.Context(), c.actor, c.owner(), c.repo()); err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// serveAvatar serves /repo-avatars/{key}, the avatar_url of repositories.
func (a *API) serveAvatar(w http.ResponseWriter, r *http.Request) {
	rc, err := a.cfg.Repos.OpenAvatar(r.Context(), chiParam(r, "key"))
	if err != nil {
		a.newCall(w, r).notFound()
		return
	}
	defer rc.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(rc, head)
	w.Header().Set("Content-Type", http.DetectContentType(head[:n]))
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(head[:n])
	io.Copy(w, rc)
}
