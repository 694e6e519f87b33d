package httpapi

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"time"

	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// entryType is the ContentsResponse type of a tree entry: file, dir,
// symlink or submodule.
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

// toContents converts a tree entry at ref as Forgejo's GetContents: api and
// html are the repository's API and web URLs, content the file's bytes
// (nil for a directory listing or a file over DefaultMaxBlobSize), last the
// last commit touching the entry and lastWhen its committer time.
func toContents(api, html, ref string, e *repos.TreeEntry, content []byte, last string, lastWhen time.Time) wire.ContentsResponse {
	esc := (&url.URL{Path: e.Path}).EscapedPath()
	self := api + "/contents/" + esc + "?ref=" + url.QueryEscape(ref)
	gitURL := api + "/git/blobs/" + e.ID
	if e.Type == "tree" {
		gitURL = api + "/git/trees/" + e.ID
	}
	page := html + "/src/branch/" + ref + "/" + esc
	out := wire.ContentsResponse{Name: path.Base(e.Path), Path: e.Path, SHA: e.ID, LastCommitSHA: last, LastCommitWhen: lastWhen,
		Type: entryType(e), Size: e.Size, URL: &self, HTMLURL: &page, GitURL: &gitURL,
		UnderscoreLinks: &wire.FileLinksResponse{Self: &self, GitURL: &gitURL, HTMLURL: &page}}
	if out.Type == "file" || out.Type == "symlink" {
		dl := html + "/raw/branch/" + ref + "/" + esc
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
	api, html := c.repoAPIURL(v.Repo), c.repoURL(v.Repo)
	if ct.Entry.Type != "tree" {
		c.json(http.StatusOK, toContents(api, html, ct.Ref, ct.Entry, ct.Content, ct.LastCommit, ct.LastCommitWhen))
		return
	}
	out := []wire.ContentsResponse{}
	for i := range ct.Entries {
		e := &ct.Entries[i]
		out = append(out, toContents(api, html, ct.Ref, e, nil, ct.EntryCommits[e.Name], ct.EntryWhen[e.Name]))
	}
	c.json(http.StatusOK, out)
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
