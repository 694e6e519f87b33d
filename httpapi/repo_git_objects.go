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

// toReference converts a reference as Forgejo's GetGitRefs.
func toReference(api string, r repos.Ref) wire.Reference {
	kind := "commits"
	if r.Type == "tag" {
		kind = "tags"
	}
	return wire.Reference{Ref: r.Name, URL: api + "/git/" + r.Name,
		Object: &wire.GitObject{Type: r.Type, SHA: r.Target, URL: api + "/git/" + kind + "/" + r.Target}}
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
	out := []wire.Reference{}
	for _, r := range refs {
		if strings.HasPrefix(r.Name, prefix) {
			out = append(out, toReference(api, r))
		}
	}
	if len(out) == 0 {
		c.notFound()
		return
	}
	c.json(http.StatusOK, out)
}

// getTree is GET /repos/{owner}/{repo}/git/trees/{sha}: `page` and
// `per_page` (this operation's paging parameter, default 1000).
func (a *API) getTree(c *call) {
	q := c.r.URL.Query()
	recursive, _ := strconv.ParseBool(q.Get("recursive"))
	page, _ := strconv.Atoi(q.Get("page"))
	per, _ := strconv.Atoi(q.Get("per_page"))
	o := forge.ListOptions{Page: page, Limit: cmpOr(per, 1000)}
	page = max(page, 1)
	// The listing streams: only this page is kept, whatever the tree's size.
	v, sha, entries, total, err := a.cfg.Repos.TreePage(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"), recursive,
		o.OffsetMax(1000), min(o.Limit, 1000))
	if err != nil {
		c.repoError(err, on(repos.ErrUnknownSHA, http.StatusBadRequest))
		return
	}
	end := o.OffsetMax(1000) + len(entries)
	api := c.repoAPIURL(v.Repo)
	out := wire.GitTreeResponse{SHA: sha, URL: api + "/git/trees/" + sha, Entries: []wire.GitEntry{},
		Truncated: end < total, Page: int64(page), TotalCount: int64(total)}
	for _, e := range entries {
		kind := "blobs"
		if e.Type == "tree" {
			kind = "trees"
		}
		out.Entries = append(out.Entries, wire.GitEntry{Path: e.Path, Mode: e.Mode, Type: e.Type, Size: e.Size, SHA: e.ID,
			URL: api + "/git/" + kind + "/" + e.ID})
	}
	c.json(http.StatusOK, out)
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
		c.repoError(err, on(repos.ErrUnknownSHA, http.StatusBadRequest))
		return
	}
	out := wire.GitBlob{URL: c.repoAPIURL(v.Repo) + "/git/blobs/" + sha, SHA: sha, Size: size}
	// Over DefaultMaxBlobSize the content is left out (null), as in Forgejo.
	if b != nil {
		s, e := base64.StdEncoding.EncodeToString(b), "base64"
		out.Content, out.Encoding = &s, &e
	}
	c.json(http.StatusOK, out)
}

// toAnnotatedTag converts an annotated tag object as Forgejo's
// convert.ToAnnotatedTag (Hearth counts no archive downloads: zeros): the
// message is the tag object's, untrimmed, as Forgejo shows it.
func toAnnotatedTag(api string, t *repos.AnnotatedTag) wire.AnnotatedTag {
	kind := "commits"
	if t.ObjectType == "tag" {
		kind = "tags"
	}
	return wire.AnnotatedTag{Tag: t.Name, SHA: t.ID, URL: api + "/git/tags/" + t.ID, Message: t.Message,
		Tagger:               commitUser(t.Tagger),
		Object:               &wire.AnnotatedTagObject{Type: t.ObjectType, SHA: t.Object, URL: api + "/git/" + kind + "/" + t.Object},
		Verification:         unsigned(),
		ArchiveDownloadCount: &wire.TagArchiveDownloadCount{}}
}

// getAnnotatedTag is GET /repos/{owner}/{repo}/git/tags/{sha}.
func (a *API) getAnnotatedTag(c *call) {
	v, t, err := a.cfg.Repos.AnnotatedTag(c.r.Context(), c.actor, c.owner(), c.repo(), c.pathValue("sha"))
	if err != nil {
		c.repoError(err, on(repos.ErrUnknownSHA, http.StatusBadRequest))
		return
	}
	c.json(http.StatusOK, toAnnotatedTag(c.repoAPIURL(v.Repo), t))
}
