package repos

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// A wiki page has three names, as in Forgejo's services/wiki/wiki_path.go:
// its title ("Home Page", "100% Free"), its web path, the name in URLs and
// the API's sub_url ("Home-Page", "100%25+Free"; a segment ending in the
// dash marker ".-" keeps its dashes: "2000-01-02+meeting.-"), and its git
// path, the file in the wiki repository ("Home-Page.md", "100%25 Free.md").
// Every page is a file at the root of the wiki: a separator in a name is
// written %2F (never a directory), and `..` or `.` never leave the root
// (cleaned as Forgejo's PathJoinRelX cleans them).

// wikiReservedNames are the names Forgejo's web routes take (a page of
// that name is refused with ErrWikiReservedName).
var wikiReservedNames = []string{"_pages", "_new", "_edit", "raw"}

// WikiHome is the wiki's first page, and WikiSidebar and WikiFooter the
// pages shown beside and below every page.
const (
	WikiHome    = "Home"
	WikiSidebar = "_Sidebar"
	WikiFooter  = "_Footer"
)

// WikiReservedNameError is Forgejo's ErrWikiReservedName (400).
type WikiReservedNameError struct{ Title string }

func (e *WikiReservedNameError) Error() string {
	return "wiki title is reserved: " + e.Title
}

// Is makes it a forge.ErrInvalid.
func (e *WikiReservedNameError) Is(target error) bool { return target == forge.ErrInvalid }

// WikiAlreadyExistError is Forgejo's ErrWikiAlreadyExist (400).
type WikiAlreadyExistError struct{ Title string }

func (e *WikiAlreadyExistError) Error() string {
	return "wiki page already exists [title: " + e.Title + "]"
}

// Is makes it a forge.ErrInvalid.
func (e *WikiAlreadyExistError) Is(target error) bool { return target == forge.ErrInvalid }

// pathJoinRelX is Forgejo's util.PathJoinRelX: the elements joined and
// cleaned as a path below a root (backslashes are separators), relative,
// "." for the root itself, "" for nothing.
func pathJoinRelX(elem ...string) string {
	elems := make([]string, 0, len(elem))
	for _, e := range elem {
		if e == "" {
			continue
		}
		elems = append(elems, path.Clean("/"+strings.ReplaceAll(e, `\`, "/")))
	}
	p := path.Join(elems...)
	switch p {
	case "":
		return ""
	case "/":
		return "."
	}
	return p[1:]
}

func hasDashMarker(s string) bool { return strings.HasSuffix(s, ".-") }

// unescapeWikiSegment is a web path segment as a title: dashes are spaces
// unless the segment has the dash marker, then query-unescaped (a segment
// that does not unescape is kept as it is).
func unescapeWikiSegment(s string) (string, error) {
	if hasDashMarker(s) {
		s = strings.TrimSuffix(s, ".-")
	} else {
		s = strings.ReplaceAll(s, "-", " ")
	}
	u, err := url.QueryUnescape(s)
	if err != nil {
		return s, err
	}
	return u, nil
}

// escapeWikiSegment is a title as a web path segment: spaces become
// dashes, unless the title has dashes or ends in ".md" (then the dash
// marker is added and spaces stay), and the result is query-escaped.
func escapeWikiSegment(s string, hadDashMarker bool) string {
	if hadDashMarker || strings.Contains(s, "-") || strings.HasSuffix(s, ".md") {
		s += ".-"
	} else {
		s = strings.ReplaceAll(s, " ", "-")
	}
	return url.QueryEscape(s)
}

// WikiWebPathFromRequest is the web path a request names ({pageName}):
// cleaned below the root, every separator written %2F.
func WikiWebPathFromRequest(s string) string {
	return strings.ReplaceAll(pathJoinRelX(s), "/", "%2F")
}

// WikiTitleToWebPath is the web path of a page titled title ("unnamed"
// for an empty or dot title).
func WikiTitleToWebPath(title string) string {
	title = pathJoinRelX(escapeWikiSegment(strings.TrimSpace(title), false))
	if title == "" || title == "." {
		return "unnamed"
	}
	return title
}

// wikiWebPathSegments are the titles of the segments of web path s.
func wikiWebPathSegments(s string) []string {
	a := strings.Split(s, "/")
	for i := range a {
		a[i], _ = unescapeWikiSegment(a[i])
	}
	return a
}

// WikiGitPath is the file of web path s: a web path ending in ".md" is the
// file (unescaped) itself.
func WikiGitPath(s string) string {
	if strings.HasSuffix(s, ".md") {
		p, _ := url.PathUnescape(s)
		return pathJoinRelX(p)
	}
	a := strings.Split(s, "/")
	for i := range a {
		marker := hasDashMarker(a[i])
		a[i], _ = unescapeWikiSegment(a[i])
		a[i] = escapeWikiSegment(a[i], marker)
		a[i] = strings.ReplaceAll(a[i], "%20", " ")
		a[i] = strings.ReplaceAll(a[i], "+", " ")
	}
	return strings.Join(a, "/") + ".md"
}

// WikiWebPath is the web path of the file gitPath; ok is false for a file
// that is no page (not ".md", or not unescapable).
func WikiWebPath(gitPath string) (webPath string, ok bool) {
	s, found := strings.CutSuffix(gitPath, ".md")
	if !found {
		return "", false
	}
	a := strings.Split(s, "/")
	for i := range a {
		marker := hasDashMarker(a[i])
		var err error
		if a[i], err = unescapeWikiSegment(a[i]); err != nil {
			return "", false
		}
		a[i] = escapeWikiSegment(a[i], marker)
	}
	return strings.Join(a, "/"), true
}

// WikiTitle is the title of web path s (the last segment, unescaped).
func WikiTitle(s string) string {
	display := path.Base(s)
	if before, ok := strings.CutSuffix(display, ".md"); ok {
		display, _ = url.PathUnescape(before)
	}
	display, _ = unescapeWikiSegment(display)
	return display
}

// checkWikiWebPath refuses a web path with a reserved segment.
func checkWikiWebPath(s string) error {
	for _, seg := range wikiWebPathSegments(s) {
		if slices.Contains(wikiReservedNames, seg) {
			return &WikiReservedNameError{Title: seg}
		}
	}
	return nil
}
