package httpapi

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// commitUser is Forgejo's CommitUser.
type commitUser struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

// commitMeta is Forgejo's CommitMeta.
type commitMeta struct {
	URL     string    `json:"url"`
	SHA     string    `json:"sha"`
	Created time.Time `json:"created"`
}

// verification is Forgejo's PayloadCommitVerification for an unsigned commit.
type verification struct {
	Verified  bool   `json:"verified"`
	Reason    string `json:"reason"`
	Signature string `json:"signature"`
	Signer    any    `json:"signer"`
	Payload   string `json:"payload"`
}

var unsigned = &verification{Reason: "gpg.error.not_signed_commit"}

// repoCommit is Forgejo's RepoCommit.
type repoCommit struct {
	URL          string        `json:"url"`
	Author       commitUser    `json:"author"`
	Committer    commitUser    `json:"committer"`
	Message      string        `json:"message"`
	Tree         commitMeta    `json:"tree"`
	Verification *verification `json:"verification"`
}

// commitJSON is Forgejo's Commit.
type commitJSON struct {
	URL       string          `json:"url"`
	SHA       string          `json:"sha"`
	Created   time.Time       `json:"created"`
	HTMLURL   string          `json:"html_url"`
	Commit    repoCommit      `json:"commit"`
	Author    *userJSON       `json:"author"`
	Committer *userJSON       `json:"committer"`
	Parents   []commitMeta    `json:"parents"`
	Files     []affectedFile  `json:"files"`
	Stats     *commitStatsObj `json:"stats"`
}

type affectedFile struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

type commitStatsObj struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

func sigJSON(s repos.Signature) commitUser {
	return commitUser{Name: s.Name, Email: s.Email, Date: s.When.Format(time.RFC3339)}
}

// toCommit converts a commit as Forgejo's convert.ToCommit; files and stats
// only when asked (and known).
func (c *call) toCommit(r *forge.Repository, cm *repos.Commit, files, stats bool) commitJSON {
	api := c.repoAPIURL(r)
	out := commitJSON{
		URL: api + "/git/commits/" + cm.ID, SHA: cm.ID, Created: cm.Committer.When.UTC(),
		HTMLURL: c.repoURL(r) + "/commit/" + cm.ID,
		Commit: repoCommit{URL: api + "/git/commits/" + cm.ID, Author: sigJSON(cm.Author), Committer: sigJSON(cm.Committer),
			Message: cm.Message, Tree: commitMeta{URL: api + "/git/trees/" + cm.Tree, SHA: cm.Tree, Created: cm.Committer.When.UTC()},
			Verification: unsigned},
		Parents: []commitMeta{},
	}
	for _, p := range cm.Parents {
		out.Parents = append(out.Parents, commitMeta{URL: api + "/git/commits/" + p, SHA: p, Created: cm.Committer.When.UTC()})
	}
	if files && cm.Files != nil {
		out.Files = []affectedFile{}
		for _, f := range cm.Files {
			out.Files = append(out.Files, affectedFile{f.Filename, f.Status})
		}
	}
	if stats && cm.Files != nil {
		st := &commitStatsObj{}
		for _, f := range cm.Files {
			st.Additions += f.Additions
			st.Deletions += f.Deletions
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
	out := make([]commitJSON, len(list))
	for i, cm := range list {
		out[i] = c.toCommit(v.Repo, cm, files, stat)
	}
	pages := (total + o.Limit - 1) / o.Limit
	h := c.w.Header()
	h.Set("X-Page", strconv.Itoa(o.Page))
	h.Set("X-PerPage", strconv.Itoa(o.Limit))
	h.Set("X-PageCount", strconv.Itoa(pages))
	h.Set("X-HasMore", strconv.FormatBool(o.Page < pages))
	c.setLinkHeader(int64(total), o)
	c.setTotalCount(int64(total))
	c.json(http.StatusOK, out)
}

// getCommit is GET /repos/{owner}/{repo}/git/commits/{sha}.
func (a *API) getCommit(c *call) {
	stat, files := c.boolParam("stat"), c.boolParam("files")
	v, cm, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), stat || files)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toCommit(v.Repo, cm, files, stat))
}

// payloadUser is Forgejo's PayloadUser.
type payloadUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// payloadCommit is Forgejo's PayloadCommit.
type payloadCommit struct {
	ID           string        `json:"id"`
	Message      string        `json:"message"`
	URL          string        `json:"url"`
	Author       *payloadUser  `json:"author"`
	Committer    *payloadUser  `json:"committer"`
	Verification *verification `json:"verification"`
	Timestamp    time.Time     `json:"timestamp"`
	Added        []string      `json:"added"`
	Removed      []string      `json:"removed"`
	Modified     []string      `json:"modified"`
}

// branchJSON is Forgejo's Branch.
type branchJSON struct {
	Name                          string        `json:"name"`
	Commit                        payloadCommit `json:"commit"`
	Protected                     bool          `json:"protected"`
	RequiredApprovals             int64         `json:"required_approvals"`
	EnableStatusCheck             bool          `json:"enable_status_check"`
	StatusCheckContexts           []string      `json:"status_check_contexts"`
	UserCanPush                   bool          `json:"user_can_push"`
	UserCanMerge                  bool          `json:"user_can_merge"`
	EffectiveBranchProtectionName string        `json:"effective_branch_protection_name"`
}

func (c *call) toBranch(v *repos.View, b *repos.Branch) branchJSON {
	cm := b.Commit
	out := branchJSON{
		Name: b.Name,
		Commit: payloadCommit{ID: cm.ID, Message: cm.Message, URL: c.repoURL(v.Repo) + "/commit/" + cm.ID,
			Author:       &payloadUser{Name: cm.Author.Name, Email: cm.Author.Email},
			Committer:    &payloadUser{Name: cm.Committer.Name, Email: cm.Committer.Email},
			Verification: unsigned, Timestamp: cm.Committer.When.UTC()},
		Protected: b.Protected, UserCanPush: b.CanPush, UserCanMerge: v.CanWrite(), StatusCheckContexts: []string{},
	}
	if r := b.Rule; r != nil {
		out.RequiredApprovals, out.EnableStatusCheck = r.RequiredApprovals, r.EnableStatusCheck
		out.EffectiveBranchProtectionName = r.RuleName
		if r.StatusCheckContexts != nil {
			out.StatusCheckContexts = r.StatusCheckContexts
		}
	}
	return out
}

// listBranches is GET /repos/{owner}/{repo}/branches.
func (a *API) listBranches(c *call) {
	v, list, err := a.cfg.Repos.Branches(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	o := c.listOptions()
	total := len(list)
	start := min(o.Offset(), total)
	end := min(start+o.Limit, total)
	out := []branchJSON{}
	for _, b := range list[start:end] {
		out = append(out, c.toBranch(v, b))
	}
	c.setLinkHeader(int64(total), o)
	c.setTotalCount(int64(total))
	c.json(http.StatusOK, out)
}

// getBranch is GET /repos/{owner}/{repo}/branches/{branch}.
func (a *API) getBranch(c *call) {
	v, b, err := a.cfg.Repos.GetBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusOK, c.toBranch(v, b))
}

// createBranch is POST /repos/{owner}/{repo}/branches.
func (a *API) createBranch(c *call) {
	var o struct {
		New    string `json:"new_branch_name"`
		OldBr  string `json:"old_branch_name"`
		OldRef string `json:"old_ref_name"`
	}
	if !c.decode(&o) {
		return
	}
	if o.New == "" {
		c.errorStatus(http.StatusUnprocessableEntity, "[NewBranchName]: Required")
		return
	}
	from := o.OldRef
	if from == "" {
		from = o.OldBr
	}
	v, b, err := a.cfg.Repos.CreateBranch(c.r.Context(), c.actor, c.owner(), c.repo(), o.New, from)
	if err != nil {
		c.repoError(err)
		return
	}
	c.json(http.StatusCreated, c.toBranch(v, b))
}

// deleteBranch is DELETE /repos/{owner}/{repo}/branches/{branch}.
func (a *API) deleteBranch(c *call) {
	err := a.cfg.Repos.DeleteBranch(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("branch"))
	if err != nil {
		c.repoError(err)
		return
	}
	c.noContent()
}

// contentsJSON is Forgejo's ContentsResponse.
type contentsJSON struct {
	Name            string     `json:"name"`
	Path            string     `json:"path"`
	SHA             string     `json:"sha"`
	LastCommitSHA   string     `json:"last_commit_sha"`
	Type            string     `json:"type"`
	Size            int64      `json:"size"`
	Encoding        *string    `json:"encoding"`
	Content         *string    `json:"content"`
	Target          *string    `json:"target"`
	URL             string     `json:"url"`
	HTMLURL         string     `json:"html_url"`
	GitURL          string     `json:"git_url"`
	DownloadURL     *string    `json:"download_url"`
	SubmoduleGitURL *string    `json:"submodule_git_url"`
	Links           *fileLinks `json:"_links"`
}

type fileLinks struct {
	Self string `json:"self"`
	Git  string `json:"git"`
	HTML string `json:"html"`
}

func entryType(e *repos.TreeEntry) string {
	switch {
	case e.Type == "tree":
		return "dir"
	case e.Type == "commit":
		return "submodule"
	case e.Mode == "120000":
		return "symlink"
	}
	return "file"
}

func (c *call) toContents(r *forge.Repository, ref string, e *repos.TreeEntry, content []byte, last string) contentsJSON {
	api := c.repoAPIURL(r)
	esc := (&url.URL{Path: e.Path}).EscapedPath()
	self := api + "/contents/" + esc + "?ref=" + url.QueryEscape(ref)
	gitURL := api + "/git/blobs/" + e.ID
	if e.Type == "tree" {
		gitURL = api + "/git/trees/" + e.ID
	}
	html := c.repoURL(r) + "/src/branch/" + ref + "/" + esc
	out := contentsJSON{Name: path.Base(e.Path), Path: e.Path, SHA: e.ID, LastCommitSHA: last, Type: entryType(e),
		Size: e.Size, URL: self, HTMLURL: html, GitURL: gitURL, Links: &fileLinks{Self: self, Git: gitURL, HTML: html}}
	if out.Type == "file" || out.Type == "symlink" {
		dl := c.repoURL(r) + "/raw/branch/" + ref + "/" + esc
		out.DownloadURL = &dl
	}
	if content != nil {
		enc, b64 := "base64", base64.StdEncoding.EncodeToString(content)
		out.Encoding, out.Content = &enc, &b64
		if out.Type == "symlink" {
			t := string(content)
			out.Target = &t
		}
	}
	return out
}

// getContents is GET /repos/{owner}/{repo}/contents/{filepath} (and
// /contents for the root): a file as one object, a directory as a list.
func (a *API) getContents(c *call) {
	ref := c.r.URL.Query().Get("ref")
	v, ct, err := a.cfg.Repos.GetContents(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("filepath"), ref)
	if err != nil {
		c.repoError(err)
		return
	}
	if ct.Entry.Type != "tree" {
		c.json(http.StatusOK, c.toContents(v.Repo, ct.Ref, ct.Entry, ct.Content, ct.LastCommit))
		return
	}
	out := []contentsJSON{}
	for i := range ct.Entries {
		e := &ct.Entries[i]
		out = append(out, c.toContents(v.Repo, ct.Ref, e, nil, ct.EntryCommits[e.Name]))
	}
	c.json(http.StatusOK, out)
}

// fileOptions are Forgejo's Create/Update/DeleteFileOptions.
type fileOptions struct {
	Content   string `json:"content"`
	SHA       string `json:"sha"`
	FromPath  string `json:"from_path"`
	Message   string `json:"message"`
	Branch    string `json:"branch"`
	NewBranch string `json:"new_branch"`
	Author    struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"author"`
	Committer struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"committer"`
	Dates struct {
		Author    *time.Time `json:"author"`
		Committer *time.Time `json:"committer"`
	} `json:"dates"`
	Signoff bool `json:"signoff"`
}

// fileCommitJSON is Forgejo's FileCommitResponse.
type fileCommitJSON struct {
	URL       string       `json:"url"`
	SHA       string       `json:"sha"`
	Created   time.Time    `json:"created"`
	HTMLURL   string       `json:"html_url"`
	Author    commitUser   `json:"author"`
	Committer commitUser   `json:"committer"`
	Parents   []commitMeta `json:"parents"`
	Message   string       `json:"message"`
	Tree      commitMeta   `json:"tree"`
}

// signatures are the author and committer of a file change (the committer
// defaults to the author; empty names default to the actor).
func (o fileOptions) signatures() (author, committer repos.Signature) {
	author = repos.Signature{Name: o.Author.Name, Email: o.Author.Email}
	committer = repos.Signature{Name: o.Committer.Name, Email: o.Committer.Email}
	if o.Dates.Author != nil {
		author.When = *o.Dates.Author
	}
	if o.Dates.Committer != nil {
		committer.When = *o.Dates.Committer
	}
	if committer.Name == "" {
		committer.Name, committer.Email = author.Name, author.Email
	}
	return author, committer
}

// toFileCommit is Forgejo's FileCommitResponse of a commit.
func (c *call) toFileCommit(r *forge.Repository, cm *repos.Commit) fileCommitJSON {
	api := c.repoAPIURL(r)
	fc := fileCommitJSON{URL: api + "/git/commits/" + cm.ID, SHA: cm.ID, Created: cm.Committer.When.UTC(),
		HTMLURL: c.repoURL(r) + "/commit/" + cm.ID, Author: sigJSON(cm.Author), Committer: sigJSON(cm.Committer),
		Parents: []commitMeta{}, Message: cm.Message,
		Tree: commitMeta{URL: api + "/git/trees/" + cm.Tree, SHA: cm.Tree, Created: cm.Committer.When.UTC()}}
	for _, par := range cm.Parents {
		fc.Parents = append(fc.Parents, commitMeta{URL: api + "/git/commits/" + par, SHA: par, Created: cm.Committer.When.UTC()})
	}
	return fc
}

// changeFile is POST, PUT and DELETE /repos/{owner}/{repo}/contents/{filepath}.
func (a *API) changeFile(op string, status int) func(*call) {
	return func(c *call) {
		var o fileOptions
		if !c.decode(&o) {
			return
		}
		p := c.pathValue("filepath")
		content, err := base64.StdEncoding.DecodeString(o.Content)
		if err != nil {
			c.errorStatus(http.StatusUnprocessableEntity, "[Content]: invalid base64")
			return
		}
		if op != "create" && o.SHA == "" {
			c.errorStatus(http.StatusUnprocessableEntity, "[SHA]: Required")
			return
		}
		msg := o.Message
		if msg == "" {
			msg = map[string]string{"create": "Add ", "update": "Update ", "delete": "Delete "}[op] + path.Base(p) + "\n"
		}
		author, committer := o.signatures()
		v, cm, err := a.cfg.Repos.ChangeFiles(c.r.Context(), c.actor, c.owner(), c.repo(), repos.ChangeFilesOptions{
			Files:   []repos.FileChange{{Op: op, Path: p, Content: content, FromPath: o.FromPath, SHA: o.SHA}},
			Message: msg, Branch: o.Branch, NewBranch: o.NewBranch, Author: author, Committer: committer,
		})
		if err != nil {
			c.repoError(err, on(forge.ErrConflict, http.StatusUnprocessableEntity))
			return
		}
		fc := c.toFileCommit(v.Repo, cm)
		var content2 any
		if op != "delete" {
			branch := o.Branch
			if o.NewBranch != "" {
				branch = o.NewBranch
			}
			if branch == "" {
				branch = v.Repo.DefaultBranch
			}
			// The commit landed: answer with what it holds, at the path
			// as it was checked and written.
			clean, _ := repos.CleanTreePath(p)
			_, ct, err := a.cfg.Repos.GetContents(c.r.Context(), c.actor, c.owner(), c.repo(), clean, cm.ID)
			if err == nil {
				content2 = c.toContents(v.Repo, branch, ct.Entry, ct.Content, cm.ID)
			} else {
				c.a.log.ErrorContext(c.r.Context(), "contents after commit", "commit", cm.ID, "err", err)
			}
		}
		c.json(status, struct {
			Content      any            `json:"content"`
			Commit       fileCommitJSON `json:"commit"`
			Verification *verification  `json:"verification"`
		}{content2, fc, unsigned})
	}
}

// getRaw is GET /repos/{owner}/{repo}/raw/{filepath} (and media): the
// file streamed as user content (serveUserContent), never read whole.
func (a *API) getRaw(c *call) {
	_, e, r, err := a.cfg.Repos.OpenRaw(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("filepath"), c.r.URL.Query().Get("ref"))
	if err != nil {
		c.repoError(err)
		return
	}
	defer r.Close()
	c.wrote = true
	if err := serveUserContent(c.w, r, path.Base(e.Path), e.Size); err != nil {
		c.a.log.DebugContext(c.r.Context(), "raw", "err", err)
	}
}

// getArchive is GET /repos/{owner}/{repo}/archive/{archive}: <ref>.zip or
// <ref>.tar.gz.
func (a *API) getArchive(c *call) {
	name := c.pathValue("archive")
	var ref, format, ctype string
	switch {
	case strings.HasSuffix(name, ".zip"):
		ref, format, ctype = strings.TrimSuffix(name, ".zip"), "zip", "application/zip"
	case strings.HasSuffix(name, ".tar.gz"):
		ref, format, ctype = strings.TrimSuffix(name, ".tar.gz"), "tar.gz", "application/gzip"
	default:
		c.notFound()
		return
	}
	v, err := a.cfg.Repos.Get(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	if _, _, err := a.cfg.Repos.Commit(c.r.Context(), c.actor, c.owner(), c.repo(), ref, false); err != nil {
		c.repoError(err)
		return
	}
	c.w.Header().Set("Content-Type", ctype)
	c.w.Header().Set("Content-Disposition", "attachment; filename=\""+v.Repo.Name+"-"+strings.ReplaceAll(ref, "/", "-")+"."+format+"\"")
	c.wrote = true
	if err := a.cfg.Repos.Archive(c.r.Context(), c.actor, c.owner(), c.repo(), ref, format, c.w); err != nil {
		c.a.log.ErrorContext(c.r.Context(), "archive", "err", err)
	}
}

// referenceJSON is Forgejo's Reference.
type referenceJSON struct {
	Ref    string    `json:"ref"`
	URL    string    `json:"url"`
	Object gitObject `json:"object"`
}

type gitObject struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

// listRefs is GET /repos/{owner}/{repo}/git/refs and .../git/refs/{ref}:
// the references whose names start with refs/<ref>.
func (a *API) listRefs(c *call) {
	v, refs, err := a.cfg.Repos.Refs(c.r.Context(), c.actor, c.owner(), c.repo())
	if err != nil {
		c.repoError(err)
		return
	}
	prefix := "refs/" + strings.TrimPrefix(c.pathValue("ref"), "refs/")
	api := c.repoAPIURL(v.Repo)
	out := []referenceJSON{}
	for _, r := range refs {
		if !strings.HasPrefix(r.Name, prefix) {
			continue
		}
		kind := "commits"
		if r.Type == "tag" {
			kind = "tags"
		}
		out = append(out, referenceJSON{Ref: r.Name, URL: api + "/git/" + r.Name,
			Object: gitObject{Type: r.Type, SHA: r.Target, URL: api + "/git/" + kind + "/" + r.Target}})
	}
	if len(out) == 0 {
		c.notFound()
		return
	}
	c.json(http.StatusOK, out)
}

// tagJSON is Forgejo's Tag.
type tagJSON struct {
	Name       string     `json:"name"`
	Message    string     `json:"message"`
	ID         string     `json:"id"`
	Commit     commitMeta `json:"commit"`
	ZipballURL string     `json:"zipball_url"`
	TarballURL string     `json:"tarball_url"`
}

// listTags is GET /repos/{owner}/{repo}/tags.
func (a *API) listTags(c *call) {
	o := c.listOptions()
	v, tags, total, err := a.cfg.Repos.ListTags(c.r.Context(), c.actor, c.owner(), c.repo(), o)
	if err != nil {
		c.repoError(err)
		return
	}
	out := make([]tagJSON, len(tags))
	for i, t := range tags {
		out[i] = c.toTag(v.Repo, t)
	}
	c.setLinkHeader(total, o)
	c.setTotalCount(total)
	c.json(http.StatusOK, out)
}

// gitEntryJSON is Forgejo's GitEntry.
type gitEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

// getTree is GET /repos/{owner}/{repo}/git/trees/{sha}: `page` and
// `per_page` (this operation's paging parameter, default 1000).
func (a *API) getTree(c *call) {
	q := c.r.URL.Query()
	recursive, _ := strconv.ParseBool(q.Get("recursive"))
	v, sha, entries, err := a.cfg.Repos.Tree(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), recursive)
	if err != nil {
		c.repoError(err)
		return
	}
	page, _ := strconv.Atoi(q.Get("page"))
	per, _ := strconv.Atoi(q.Get("per_page"))
	o := forge.ListOptions{Page: page, Limit: cmpOr(per, 1000)}
	page = max(page, 1)
	start := min(o.OffsetMax(1000), len(entries))
	end := start + min(o.Limit, 1000, len(entries)-start)
	api := c.repoAPIURL(v.Repo)
	tree := []gitEntryJSON{}
	for _, e := range entries[start:end] {
		kind := "blobs"
		if e.Type == "tree" {
			kind = "trees"
		}
		tree = append(tree, gitEntryJSON{Path: e.Path, Mode: e.Mode, Type: e.Type, Size: e.Size, SHA: e.ID, URL: api + "/git/" + kind + "/" + e.ID})
	}
	c.json(http.StatusOK, struct {
		SHA        string         `json:"sha"`
		URL        string         `json:"url"`
		Tree       []gitEntryJSON `json:"tree"`
		Truncated  bool           `json:"truncated"`
		Page       int            `json:"page"`
		TotalCount int            `json:"total_count"`
	}{sha, api + "/git/trees/" + sha, tree, end < len(entries), page, len(entries)})
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// getBlob is GET /repos/{owner}/{repo}/git/blobs/{sha}.
func (a *API) getBlob(c *call) {
	sha := c.pathValue("sha")
	v, b, size, err := a.cfg.Repos.Blob(c.r.Context(), c.actor, c.owner(), c.repo(), sha)
	if err != nil {
		c.repoError(err)
		return
	}
	// Over DefaultMaxBlobSize the content is left out, as in Forgejo.
	var content, enc *string
	if b != nil {
		s, e := base64.StdEncoding.EncodeToString(b), "base64"
		content, enc = &s, &e
	}
	c.json(http.StatusOK, struct {
		Content  *string `json:"content"`
		Encoding *string `json:"encoding"`
		URL      string  `json:"url"`
		SHA      string  `json:"sha"`
		Size     int64   `json:"size"`
	}{content, enc, c.repoAPIURL(v.Repo) + "/git/blobs/" + sha, sha, size})
}
