package httpapi

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// toNote is Forgejo's api.Note: the message and the commit of the notes
// ref that wrote it, with its stats (ToCommitOptions{Stat: true}) and,
// unless files=false, its files.
func toNote(api, html string, n *repos.Note, files bool) wire.Note {
	return wire.Note{Message: n.Message, Commit: toCommit(api, html, n.Commit, files, true)}
}

// getNote is GET /repos/{owner}/{repo}/git/notes/{sha}.
func (a *API) getNote(c *call) {
	files := c.boolParam("files")
	v, n, err := a.cfg.Repos.GetNote(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), files)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toNote(c.repoAPIURL(v.Repo), c.repoURL(v.Repo), n, files))
}

// setNote is POST /repos/{owner}/{repo}/git/notes/{sha}: 200 with the note
// as written (Forgejo answers with its getNote).
func (a *API) setNote(c *call) {
	var o wire.NoteOptions
	if !c.decode(&o) {
		return
	}
	v, n, err := a.cfg.Repos.SetNote(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), deref(o.Message))
	if err != nil {
		c.repoError(err)
		return
	}
	files := c.boolParam("files")
	c.json(http.StatusOK, toNote(c.repoAPIURL(v.Repo), c.repoURL(v.Repo), n, files))
}

// removeNote is DELETE /repos/{owner}/{repo}/git/notes/{sha}: 204.
func (a *API) removeNote(c *call) {
	c.noContentOr(a.cfg.Repos.RemoveNote(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha")), func(err error) {
		c.repoError(err)
	})
}

// getBlobs is GET /repos/{owner}/{repo}/git/blobs?shas=a,b: the blobs in
// the order asked, the first repos.MaxBlobsPerRequest of them; Forgejo
// answers every failure 400 (`shas not provided`, an unknown id).
func (a *API) getBlobs(c *call) {
	var ids []string
	if q := c.r.URL.Query().Get("shas"); q != "" {
		ids = strings.Split(q, ",")
	}
	v, blobs, err := a.cfg.Repos.Blobs(c.r.Context(), c.actor, c.owner(), c.repo(), ids)
	if err != nil {
		c.repoError(err, on(repos.ErrUnknownSHA, http.StatusBadRequest), on(forge.ErrInvalid, http.StatusBadRequest))
		return
	}
	api := c.repoAPIURL(v.Repo)
	out := make([]wire.GitBlob, 0, len(blobs))
	for _, b := range blobs {
		g := wire.GitBlob{URL: api + "/git/blobs/" + b.ID, SHA: b.ID, Size: b.Size}
		// Over the blob size limit the content is left out (null).
		if b.Content != nil {
			s, e := base64.StdEncoding.EncodeToString(b.Content), "base64"
			g.Content, g.Encoding = &s, &e
		}
		out = append(out, g)
	}
	c.json(http.StatusOK, out)
}

// getEditorconfig is GET /repos/{owner}/{repo}/editorconfig/{filepath}:
// the definition as Forgejo's JSON of the editorconfig library's
// Definition (the properties set, each a string).
func (a *API) getEditorconfig(c *call) {
	_, def, err := a.cfg.Repos.Editorconfig(c.r.Context(), c.actor, c.owner(), c.repo(), c.r.URL.Query().Get("ref"), c.pathValue("filepath"))
	if err != nil {
		c.repoError(err)
		return
	}
	out := map[string]string{}
	for k, val := range map[string]string{"charset": def.Charset, "indent_style": def.IndentStyle,
		"indent_size": def.IndentSize, "end_of_line": def.EndOfLine} {
		if val != "" {
			out[k] = val
		}
	}
	c.json(http.StatusOK, out)
}

// applyDiffPatch is POST /repos/{owner}/{repo}/diffpatch: the patch (the
// body's content, plain text) committed; 201 FileResponse with the
// commit and no content, as Forgejo's ApplyDiffPatch (its document says
// 200). A new branch that exists is 422 (Forgejo's
// ErrBranchAlreadyExists).
func (a *API) applyDiffPatch(c *call) {
	var o wire.UpdateFileOptions
	if !c.decode(&o) {
		return
	}
	// Forgejo's binding: the sha of the embedded DeleteFileOptions is
	// required (and unused); an empty content is refused here rather
	// than by git (Forgejo's 500).
	if o.SHA == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[SHA]: Required")
		return
	}
	if o.ContentBase64 == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[Content]: Required")
		return
	}
	fo := fileOptions{deref(o.Message), deref(o.BranchName), deref(o.NewBranchName), o.Author, o.Committer, o.Dates}
	author, committer := fo.signatures()
	v, cm, err := a.cfg.Repos.ApplyPatch(c.r.Context(), c.actor, c.owner(), c.repo(), repos.PatchOptions{
		Patch: []byte(o.ContentBase64), Message: fo.message, Branch: fo.branch, NewBranch: fo.newBranch,
		Author: author, Committer: committer})
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
		return
	}
	api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
	c.json(http.StatusCreated, wire.FileResponse{Commit: toFileCommit(api, html, cm), Verification: unsigned()})
}

// getIssueTemplates is GET /repos/{owner}/{repo}/issue_templates: the
// valid templates of the default branch; invalid ones are counted in
// Forgejo's X-Gitea-Warning header.
func (a *API) getIssueTemplates(c *call) {
	_, list, invalid, err := a.cfg.Repos.IssueTemplates(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	if invalid > 0 {
		c.w.Header().Add("X-Gitea-Warning", "error occurs when parsing issue template: count="+strconv.Itoa(invalid))
	}
	out := make([]wire.IssueTemplate, 0, len(list))
	for _, it := range list {
		out = append(out, toIssueTemplate(it))
	}
	c.json(http.StatusOK, out)
}

// toIssueTemplate is Forgejo's api.IssueTemplate (labels and body null
// when the template has none).
func toIssueTemplate(it *repos.IssueTemplate) wire.IssueTemplate {
	out := wire.IssueTemplate{Name: it.Name, Title: it.Title, About: it.About, Ref: it.Ref, Content: it.Content, FileName: it.FileName}
	if it.Labels != nil {
		l := wire.IssueTemplateLabels(it.Labels)
		out.Labels = &l
	}
	if it.Fields != nil {
		out.Fields = make([]wire.IssueFormField, 0, len(it.Fields))
		for _, f := range it.Fields {
			wf := wire.IssueFormField{Type: f.Type, ID: f.ID}
			if f.Attributes != nil {
				wf.Attributes = &f.Attributes
			}
			if f.Validations != nil {
				wf.Validations = &f.Validations
			}
			if len(f.Visible) > 0 {
				vis := append([]wire.IssueFormFieldVisible(nil), f.Visible...)
				wf.Visible = &vis
			}
			out.Fields = append(out.Fields, wf)
		}
	}
	return out
}

// getIssueConfig is GET /repos/{owner}/{repo}/issue_config: the config,
// or the default one when it is invalid.
func (a *API) getIssueConfig(c *call) {
	_, cfg, _, err := a.cfg.Repos.IssueConfig(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, toIssueConfig(cfg))
}

// validateIssueConfig is GET /repos/{owner}/{repo}/issue_config/validate:
// valid, or not with what is wrong.
func (a *API) validateIssueConfig(c *call) {
	_, _, invalid, err := a.cfg.Repos.IssueConfig(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	out := wire.IssueConfigValidation{Valid: invalid == nil}
	if invalid != nil {
		out.Message = invalid.Error()
	}
	c.json(http.StatusOK, out)
}

func toIssueConfig(cfg repos.IssueConfig) wire.IssueConfig {
	out := wire.IssueConfig{BlankIssuesEnabled: cfg.BlankIssuesEnabled, ContactLinks: []wire.IssueConfigContactLink{}}
	for _, l := range cfg.ContactLinks {
		out.ContactLinks = append(out.ContactLinks, wire.IssueConfigContactLink{Name: l.Name, URL: l.URL, About: l.About})
	}
	return out
}
