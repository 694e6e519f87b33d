package httpapi

import (
	"encoding/base64"
	"net/http"
	"path"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// fileOptions is what every file change request carries (Forgejo's
// FileOptions, embedded in Create/Update/Delete/ChangeFilesOptions), read
// from whichever generated option was decoded.
type fileOptions struct {
	message, branch, newBranch string
	author, committer          *wire.Identity
	dates                      *wire.CommitDateOptions
}

// signatures are the author and committer of a file change (the committer
// defaults to the author; empty names default to the actor).
func (o fileOptions) signatures() (author, committer repos.Signature) {
	if o.author != nil {
		author = repos.Signature{Name: deref(o.author.Name), Email: deref(o.author.Email)}
	}
	if o.committer != nil {
		committer = repos.Signature{Name: deref(o.committer.Name), Email: deref(o.committer.Email)}
	}
	if o.dates != nil {
		author.When, committer.When = deref(o.dates.Author), deref(o.dates.Committer)
	}
	if committer.Name == "" {
		committer.Name, committer.Email = author.Name, author.Email
	}
	return author, committer
}

// fileChangeRequest is one decoded POST, PUT or DELETE .../contents/{path}.
type fileChangeRequest struct {
	fileOptions
	content, sha, fromPath string
}

// decodeFileChange decodes the body of op ("create", "update" or "delete")
// as Forgejo's CreateFileOptions, UpdateFileOptions or DeleteFileOptions.
func (c *call) decodeFileChange(op string) (fileChangeRequest, bool) {
	var r fileChangeRequest
	switch op {
	case "create":
		var o wire.CreateFileOptions
		if !c.decode(&o) {
			return r, false
		}
		r.fileOptions = fileOptions{deref(o.Message), deref(o.BranchName), deref(o.NewBranchName), o.Author, o.Committer, o.Dates}
		r.content = o.ContentBase64
	case "update":
		var o wire.UpdateFileOptions
		if !c.decode(&o) {
			return r, false
		}
		r.fileOptions = fileOptions{deref(o.Message), deref(o.BranchName), deref(o.NewBranchName), o.Author, o.Committer, o.Dates}
		r.content, r.sha, r.fromPath = o.ContentBase64, o.SHA, deref(o.FromPath)
	default:
		var o wire.DeleteFileOptions
		if !c.decode(&o) {
			return r, false
		}
		r.fileOptions = fileOptions{deref(o.Message), deref(o.BranchName), deref(o.NewBranchName), o.Author, o.Committer, o.Dates}
		r.sha = o.SHA
	}
	return r, true
}

// toFileCommit is Forgejo's FileCommitResponse of a commit.
func toFileCommit(api, html string, cm *repos.Commit) *wire.FileCommitResponse {
	when := cm.Committer.When.UTC()
	tree := commitMeta(api, "trees", cm.Tree, when)
	fc := &wire.FileCommitResponse{URL: api + "/git/commits/" + cm.ID, SHA: cm.ID, Created: when,
		HTMLURL: html + "/commit/" + cm.ID, Author: commitUser(cm.Author), Committer: commitUser(cm.Committer),
		Parents: []wire.CommitMeta{}, Message: cm.Message, Tree: &tree}
	for _, par := range cm.Parents {
		fc.Parents = append(fc.Parents, commitMeta(api, "commits", par, when))
	}
	return fc
}

// changeFile is POST, PUT and DELETE /repos/{owner}/{repo}/contents/{filepath}:
// FileResponse, or FileDeleteResponse (content null) for a deletion.
func (a *API) changeFile(op string, status int) func(*call) {
	return func(c *call) {
		o, ok := c.decodeFileChange(op)
		if !ok {
			return
		}
		p := c.pathValue("filepath")
		content, err := base64.StdEncoding.DecodeString(o.content)
		if err != nil {
			c.errorStatus(http.StatusUnprocessableEntity, "[Content]: invalid base64")
			return
		}
		if op != "create" && o.sha == "" {
			c.errorStatus(http.StatusUnprocessableEntity, "[SHA]: Required")
			return
		}
		msg := o.message
		if msg == "" {
			msg = map[string]string{"create": "Add ", "update": "Update ", "delete": "Delete "}[op] + path.Base(p) + "\n"
		}
		author, committer := o.signatures()
		v, cm, files, err := a.cfg.Repos.ChangeFiles(c.r.Context(), c.actor, c.owner(), c.repo(), repos.ChangeFilesOptions{
			Files:   []repos.FileChange{{Op: op, Path: p, Content: content, FromPath: o.fromPath, SHA: o.sha}},
			Message: msg, Branch: o.branch, NewBranch: o.newBranch, Author: author, Committer: committer,
		})
		if err != nil {
			c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
			return
		}
		api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
		out := wire.FileResponse{Commit: toFileCommit(api, html, cm), Verification: unsigned()}
		// The commit landed: answer with what it holds, at the path as it
		// was checked and written (nil for a deletion).
		if ct := files[0]; ct != nil {
			cr := toContents(api, html, cmpOrStr(o.newBranch, o.branch, v.Repo.DefaultBranch), ct.Entry, ct.Content, ct.LastCommit, ct.LastCommitWhen)
			out.Content = &cr
		}
		c.json(status, out)
	}
}

// filesResponse is Forgejo's FilesResponse. It is not wire.FilesResponse
// because Forgejo's files list holds null for each deleted file
// ([]*ContentsResponse), which the generated []ContentsResponse cannot say.
type filesResponse struct {
	Files        []*wire.ContentsResponse        `json:"files"`
	Commit       *wire.FileCommitResponse        `json:"commit"`
	Verification *wire.PayloadCommitVerification `json:"verification"`
}

// changeFiles is POST /repos/{owner}/{repo}/contents: several file changes
// in one commit; 201 FilesResponse.
func (a *API) changeFiles(c *call) {
	var o wire.ChangeFilesOptions
	if !c.decode(&o) {
		return
	}
	if len(o.Files) == 0 {
		c.errorStatus(http.StatusUnprocessableEntity, "[Files]: Required")
		return
	}
	var changes []repos.FileChange
	for _, f := range o.Files {
		content, err := base64.StdEncoding.DecodeString(deref(f.ContentBase64))
		if err != nil {
			c.errorStatus(http.StatusUnprocessableEntity, "[Content]: invalid base64")
			return
		}
		changes = append(changes, repos.FileChange{Op: string(f.Operation), Path: f.Path, Content: content,
			FromPath: deref(f.FromPath), SHA: deref(f.SHA)})
	}
	msg := deref(o.Message)
	if msg == "" {
		msg = "Update files\n"
	}
	common := fileOptions{author: o.Author, committer: o.Committer, dates: o.Dates}
	author, committer := common.signatures()
	branch, newBranch := deref(o.BranchName), deref(o.NewBranchName)
	v, cm, files, err := a.cfg.Repos.ChangeFiles(c.r.Context(), c.actor, c.owner(), c.repo(), repos.ChangeFilesOptions{
		Files: changes, Message: msg, Branch: branch, NewBranch: newBranch, Author: author, Committer: committer})
	if err != nil {
		c.repoError(err, on(forge.ErrConflict, http.StatusConflict))
		return
	}
	api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
	out := filesResponse{Files: []*wire.ContentsResponse{}, Commit: toFileCommit(api, html, cm), Verification: unsigned()}
	// What the commit holds at each path as it was written; nil for a
	// deletion (and for a file not read back: the commit landed, it is
	// never answered as an error).
	for _, ct := range files {
		if ct == nil {
			out.Files = append(out.Files, nil)
			continue
		}
		cr := toContents(api, html, cmpOrStr(newBranch, branch, v.Repo.DefaultBranch), ct.Entry, ct.Content, ct.LastCommit, ct.LastCommitWhen)
		out.Files = append(out.Files, &cr)
	}
	c.json(http.StatusCreated, out)
}
