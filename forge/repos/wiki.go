package repos

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// The wiki of a repository is a git repository of its own beside it (in
// gitstore, <id>.wiki.git beside <id>.git), in the repository's object
// format, created by the first page written (Forgejo's InitWiki). Git
// addresses it as WikiGitID(id): every Git method works on it as on the
// repository, so a rename or transfer (which moves no files) carries it
// along, and removeRepo removes it with the repository. Its pages are the
// ".md" files at the root of its wiki branch (Repository.WikiBranch, the
// default branch of new repositories when unset); see wikinames.go for
// their names.

// WikiGitID is the id under which Git addresses the wiki of repository
// repo: its negation (repository ids are positive).
func WikiGitID(repo forge.ID) forge.ID { return -repo }

// WikiRevisionsPageSize is how many revisions a page of WikiRevisions
// holds (Forgejo's git.CommitsRangeSize).
const WikiRevisionsPageSize = 50

// WikiPageMeta is a page of a wiki list: its web path (sub_url), title
// and last commit.
type WikiPageMeta struct {
	WebPath    string
	Title      string
	LastCommit *Commit
}

// WikiPage is a page with its content, the wiki's sidebar and footer
// (nil when absent) and how many commits touched it.
type WikiPage struct {
	WikiPageMeta
	// Content is nil for a page larger than Config.MaxBlobSize (Forgejo
	// answers its content empty).
	Content         []byte
	Sidebar, Footer []byte
	CommitCount     int
}

// WikiNotFoundError is a missing wiki, wiki branch or page, with the
// detail Forgejo's 404 lists in its errors ("" for none).
type WikiNotFoundError struct{ Detail string }

func (e *WikiNotFoundError) Error() string { return cmp.Or(e.Detail, "wiki page does not exist") }

// Is makes it a forge.ErrNotFound.
func (e *WikiNotFoundError) Is(target error) bool { return target == forge.ErrNotFound }

// wikiBranch is the branch of r's wiki.
func (s *Service) wikiBranch(r *forge.Repository) string {
	return cmp.Or(r.WikiBranch, s.cfg.DefaultBranch)
}

// wikiReader loads owner/name for a read of its wiki: read:repository,
// then Forgejo's mustEnableWiki (the wiki unit on and readable, else
// ErrRepoNotFound: the default 404).
func (s *Service) wikiReader(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	v, err := s.Get(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if !wikiEnabled(v) {
		return nil, ErrRepoNotFound
	}
	return v, nil
}

// wikiEnabled reports whether v's repository has its own wiki on and the
// actor may read it.
func wikiEnabled(v *View) bool {
	return slices.Contains(EnabledUnits(v.Repo), forge.UnitWiki) && (v.Perm.CanRead(forge.UnitWiki) || v.IsAdmin())
}

// authorizeWikiWrite is Authorize's probe of its operations: it returns nil when actor may write owner/name's wiki,
// else the error the wiki's writes return first, in Forgejo's order
// (mustEnableWiki, a signed-in user, mustNotBeArchived, reqRepoWriter of
// the wiki unit): ErrRepoNotFound, forge.ErrUnauthenticated, forge.ErrArchived,
// forge.ErrForbidden `user should have a permission to write to a repo`.
// A signed-in reader of a GloballyEditableWiki may write it. It checks the
// write:repository scope and changes nothing.
func (s *Service) authorizeWikiWrite(ctx context.Context, actor forge.Actor, owner, name string) error {
	_, err := s.wikiWriter(ctx, actor, owner, name)
	return err
}

func (s *Service) wikiWriter(ctx context.Context, actor forge.Actor, owner, name string) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	v, err := s.wikiReader(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if !actor.IsSignedIn() {
		return nil, forge.Errorf(forge.ErrUnauthenticated, "token is required")
	}
	if err := checkWritable(v.Repo); err != nil {
		return nil, err
	}
	if !v.Perm.CanWrite(forge.UnitWiki) && !v.IsAdmin() && !v.Repo.GloballyEditableWiki {
		return nil, forge.Errorf(forge.ErrForbidden, "user should have a permission to write to a repo")
	}
	return v, nil
}

// wikiTip is the commit of v's wiki branch: a *WikiNotFoundError when the
// wiki or its branch does not exist.
func (s *Service) wikiTip(ctx context.Context, v *View) (string, error) {
	branch := s.wikiBranch(v.Repo)
	id, err := s.git.Resolve(ctx, WikiGitID(v.Repo.ID), "refs/heads/"+branch)
	if errors.Is(err, forge.ErrNotFound) {
		if _, rerr := s.git.Refs(ctx, WikiGitID(v.Repo.ID)); errors.Is(rerr, forge.ErrNotFound) {
			return "", &WikiNotFoundError{Detail: "no such file or directory"}
		}
		return "", &WikiNotFoundError{Detail: fmt.Sprintf("object does not exist [id: %s, rel_path: ]", branch)}
	}
	return id, err
}

// wikiAt loads owner/name for a read of its wiki (wikiReader) and the
// commit of its wiki branch (wikiTip).
func (s *Service) wikiAt(ctx context.Context, actor forge.Actor, owner, name string) (*View, string, error) {
	v, err := s.wikiReader(ctx, actor, owner, name)
	if err != nil {
		return nil, "", err
	}
	tip, err := s.wikiTip(ctx, v)
	if err != nil {
		return nil, "", err
	}
	return v, tip, nil
}

// wikiFile finds the file of web path wp at commit tip, as Forgejo's
// prepareGitPath: the unescaped name (wp + ".md") when that file exists,
// else the escaped one (WikiGitPath); the entry is nil when neither exists.
func (s *Service) wikiFile(ctx context.Context, repo forge.ID, tip, wp string) (string, *TreeEntry, error) {
	gitPath := WikiGitPath(wp)
	if tip == "" {
		return gitPath, nil, nil
	}
	for _, p := range []string{wp + ".md", gitPath} {
		if p == "" || strings.Contains(p, "\x00") {
			continue
		}
		e, err := s.git.Entry(ctx, repo, tip, p)
		if errors.Is(err, forge.ErrNotFound) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		if e.Type == "blob" {
			return p, e, nil
		}
	}
	return gitPath, nil, nil
}

// WikiPages lists the pages of owner/name's wiki, a page of o at a time
// (Forgejo's ListWikiPages: the entries of the wiki's root, counted all in
// total, those that are no page skipped). Readers of the wiki only;
// *WikiNotFoundError when the wiki has no commit.
func (s *Service) WikiPages(ctx context.Context, actor forge.Actor, owner, name string, o forge.ListOptions) (*View, []WikiPageMeta, int, error) {
	v, tip, err := s.wikiAt(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	wid := WikiGitID(v.Repo.ID)
	entries, err := s.git.Tree(ctx, wid, tip, "", false)
	if err != nil {
		return nil, nil, 0, err
	}
	o = o.Normalize()
	skip, end := (o.Page-1)*o.Limit, o.Page*o.Limit
	pages := []WikiPageMeta{}
	for i, e := range entries {
		if i < skip || i >= end || e.Type != "blob" || e.Mode == "120000" {
			continue
		}
		wp, ok := WikiWebPath(e.Name)
		if !ok {
			continue
		}
		last, err := s.wikiLastCommit(ctx, wid, tip, e.Name)
		if err != nil {
			return nil, nil, 0, err
		}
		pages = append(pages, WikiPageMeta{WebPath: wp, Title: WikiTitle(wp), LastCommit: last})
	}
	return v, pages, len(entries), nil
}

// wikiLastCommit is the last commit at tip touching path.
func (s *Service) wikiLastCommit(ctx context.Context, wid forge.ID, tip, path string) (*Commit, error) {
	log, err := s.git.Log(ctx, wid, LogOptions{Rev: tip, Path: path, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(log) == 0 {
		return nil, &WikiNotFoundError{}
	}
	return log[0], nil
}

// GetWikiPage reads the page pageName ({pageName} of the request, see
// WikiWebPathFromRequest) of owner/name's wiki. Readers of the wiki only;
// *WikiNotFoundError for a missing wiki, branch or page.
func (s *Service) GetWikiPage(ctx context.Context, actor forge.Actor, owner, name, pageName string) (*View, *WikiPage, error) {
	v, err := s.wikiReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.wikiPage(ctx, v, WikiWebPathFromRequest(pageName))
	return v, p, err
}

// wikiPage reads web path wp of v's wiki at its tip.
func (s *Service) wikiPage(ctx context.Context, v *View, wp string) (*WikiPage, error) {
	tip, err := s.wikiTip(ctx, v)
	if err != nil {
		return nil, err
	}
	wid := WikiGitID(v.Repo.ID)
	path, e, err := s.wikiFile(ctx, wid, tip, wp)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, &WikiNotFoundError{}
	}
	p := &WikiPage{WikiPageMeta: WikiPageMeta{WebPath: wp, Title: WikiTitle(wp)}}
	if p.Content, err = s.wikiBlob(ctx, wid, e); err != nil {
		return nil, err
	}
	for _, side := range []struct {
		name string
		out  *[]byte
	}{{WikiSidebar, &p.Sidebar}, {WikiFooter, &p.Footer}} {
		_, se, err := s.wikiFile(ctx, wid, tip, side.name)
		if err != nil {
			return nil, err
		}
		if se != nil {
			if *side.out, err = s.wikiBlob(ctx, wid, se); err != nil {
				return nil, err
			}
		}
	}
	if p.CommitCount, err = s.git.CountCommits(ctx, wid, tip, path); err != nil {
		return nil, err
	}
	if p.LastCommit, err = s.wikiLastCommit(ctx, wid, tip, path); err != nil {
		return nil, err
	}
	return p, nil
}

// wikiBlob is the content of e, nil when larger than Config.MaxBlobSize.
func (s *Service) wikiBlob(ctx context.Context, wid forge.ID, e *TreeEntry) ([]byte, error) {
	if e.Size > s.maxBlobSize() {
		return nil, nil
	}
	b, err := s.git.Blob(ctx, wid, e.ID)
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

// WikiRevisions lists the commits touching the page pageName ("" is
// WikiHome), newest first, WikiRevisionsPageSize a page, and how many
// there are. Readers of the wiki only; *WikiNotFoundError for a missing
// wiki, branch or page.
func (s *Service) WikiRevisions(ctx context.Context, actor forge.Actor, owner, name, pageName string, page int) (*View, []*Commit, int, error) {
	v, tip, err := s.wikiAt(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, 0, err
	}
	wp := WikiWebPathFromRequest(pageName)
	if wp == "" {
		wp = WikiHome
	}
	wid := WikiGitID(v.Repo.ID)
	path, e, err := s.wikiFile(ctx, wid, tip, wp)
	if err != nil {
		return nil, nil, 0, err
	}
	if e == nil {
		return nil, nil, 0, &WikiNotFoundError{}
	}
	total, err := s.git.CountCommits(ctx, wid, tip, path)
	if err != nil {
		return nil, nil, 0, err
	}
	page = max(page, 1)
	list, err := s.git.Log(ctx, wid, LogOptions{Rev: tip, Path: path, Skip: (page - 1) * WikiRevisionsPageSize, Limit: WikiRevisionsPageSize})
	if err != nil {
		return nil, nil, 0, err
	}
	return v, list, total, nil
}

// WikiPageOptions are the fields of a page written: its title ("" keeps
// the page's name on an edit), content and commit message ("" is
// Forgejo's default).
type WikiPageOptions struct {
	Title   string
	Content []byte
	Message string
}

// CreateWikiPage adds the page titled o.Title (WikiTitleToWebPath) to
// owner/name's wiki, creating the wiki with its first page, and returns
// it as read back. The commit message defaults to `Add "<title>"`.
// Writers of the wiki only (authorizeWikiWrite). Errors: forge.ErrInvalid
// `%!s(<nil>)` for an empty title (Forgejo's answer, verbatim);
// *WikiReservedNameError; *WikiAlreadyExistError when the page exists; a
// *quota.ExceededError when the content does not fit the owner's quota.
func (s *Service) CreateWikiPage(ctx context.Context, actor forge.Actor, owner, name string, o WikiPageOptions) (*View, *WikiPage, error) {
	v, err := s.wikiWriter(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(o.Title) == "" {
		return nil, nil, forge.Errorf(forge.ErrInvalid, "%s", "%!s(<nil>)")
	}
	wp := WikiTitleToWebPath(o.Title)
	msg := cmp.Or(o.Message, fmt.Sprintf("Add %q", o.Title))
	if err := s.writeWikiPage(ctx, actor, v, "", wp, o.Content, msg); err != nil {
		return nil, nil, err
	}
	p, err := s.wikiPage(ctx, v, wp)
	return v, p, err
}

// EditWikiPage replaces the page pageName of owner/name's wiki with
// o.Content, renamed to o.Title when set, and returns it as read back (a
// page that does not exist is created, as Forgejo's). The commit message
// defaults to `Update "<web path>"`. Errors as CreateWikiPage; renaming
// onto another existing page is a *WikiAlreadyExistError.
func (s *Service) EditWikiPage(ctx context.Context, actor forge.Actor, owner, name, pageName string, o WikiPageOptions) (*View, *WikiPage, error) {
	v, err := s.wikiWriter(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	old := WikiWebPathFromRequest(pageName)
	wp := old
	if strings.TrimSpace(o.Title) != "" {
		wp = WikiTitleToWebPath(o.Title)
	}
	msg := cmp.Or(o.Message, fmt.Sprintf("Update %q", wp))
	if err := s.writeWikiPage(ctx, actor, v, old, wp, o.Content, msg); err != nil {
		return nil, nil, err
	}
	p, err := s.wikiPage(ctx, v, wp)
	return v, p, err
}

// DeleteWikiPage removes the page pageName of owner/name's wiki in a
// commit `Delete page "<web path>"`. Writers of the wiki only; a
// *WikiNotFoundError `file does not exist` for a page (or wiki) that does
// not exist.
func (s *Service) DeleteWikiPage(ctx context.Context, actor forge.Actor, owner, name, pageName string) error {
	v, err := s.wikiWriter(ctx, actor, owner, name)
	if err != nil {
		return err
	}
	wp := WikiWebPathFromRequest(pageName)
	wid := WikiGitID(v.Repo.ID)
	tip, err := s.wikiTip(ctx, v)
	var nf *WikiNotFoundError
	if errors.As(err, &nf) {
		return &WikiNotFoundError{Detail: "file does not exist"}
	}
	if err != nil {
		return err
	}
	path, e, err := s.wikiFile(ctx, wid, tip, wp)
	if err != nil {
		return err
	}
	if e == nil {
		return &WikiNotFoundError{Detail: "file does not exist"}
	}
	ops := []FileOp{{Op: "delete", Path: path, SHA: e.ID}}
	return s.commitWiki(ctx, actor, v, tip, ops, fmt.Sprintf("Delete page %q", wp))
}

// writeWikiPage commits content as the page wp of v's wiki, replacing the
// page old ("" for a new page), as Forgejo's updateWikiPage: the wiki is
// created on its first write.
func (s *Service) writeWikiPage(ctx context.Context, actor forge.Actor, v *View, old, wp string, content []byte, msg string) error {
	if err := checkWikiWebPath(wp); err != nil {
		return err
	}
	// A name the tree refuses (too long a segment) is refused before
	// anything is written, the wiki's creation included.
	if _, err := CleanTreePath(WikiGitPath(wp)); err != nil {
		return err
	}
	wid := WikiGitID(v.Repo.ID)
	created := true
	if err := s.git.Create(ctx, wid, cmp.Or(v.Repo.ObjectFormat, forge.SHA1), s.wikiBranch(v.Repo)); errors.Is(err, forge.ErrConflict) {
		created = false
	} else if err != nil {
		return err
	}
	if err := s.writeWikiFile(ctx, actor, v, old, wp, content, msg); err != nil {
		if refs, rerr := s.git.Refs(ctx, wid); created && rerr == nil && len(refs) == 0 {
			// The wiki this write created holds nothing (no concurrent
			// write filled it): it goes again.
			if rerr := s.git.Remove(context.WithoutCancel(ctx), wid); rerr != nil {
				s.log.ErrorContext(ctx, "removing a wiki whose first write failed", "repo", v.Repo.ID, "err", rerr)
			}
		}
		return err
	}
	return nil
}

// writeWikiFile is writeWikiPage once the wiki exists.
func (s *Service) writeWikiFile(ctx context.Context, actor forge.Actor, v *View, old, wp string, content []byte, msg string) error {
	wid := WikiGitID(v.Repo.ID)
	tip, err := s.wikiTip(ctx, v)
	var nf *WikiNotFoundError
	if errors.As(err, &nf) {
		tip = ""
	} else if err != nil {
		return err
	}
	path, cur, err := s.wikiFile(ctx, wid, tip, wp)
	if err != nil {
		return err
	}
	var op FileOp
	switch {
	case old == "":
		if cur != nil {
			return &WikiAlreadyExistError{Title: path}
		}
		op = FileOp{Op: "create", Path: path, Content: content}
	default:
		oldPath, oldEntry, err := s.wikiFile(ctx, wid, tip, old)
		if err != nil {
			return err
		}
		switch {
		case oldEntry == nil && cur != nil:
			op = FileOp{Op: "update", Path: path, Content: content, SHA: cur.ID}
		case oldEntry == nil:
			op = FileOp{Op: "create", Path: path, Content: content}
		case oldPath == path:
			op = FileOp{Op: "update", Path: path, Content: content, SHA: oldEntry.ID}
		case cur != nil:
			return &WikiAlreadyExistError{Title: path}
		default:
			op = FileOp{Op: "update", Path: path, FromPath: oldPath, Content: content, SHA: oldEntry.ID}
		}
	}
	held, err := s.reserveQuota(ctx, v.Repo, contentsEstimate([]FileOp{op}))
	if err != nil {
		return err
	}
	defer s.releaseQuota(context.WithoutCancel(ctx), held)
	return s.commitWiki(ctx, actor, v, tip, []FileOp{op}, msg)
}

// commitWiki commits ops on v's wiki branch (parent tip, "" for the first
// commit), authored and committed by the actor, and records the move of
// the wiki branch through recordRefMoves.
func (s *Service) commitWiki(ctx context.Context, actor forge.Actor, v *View, tip string, ops []FileOp, msg string) error {
	if strings.ContainsRune(msg, 0) {
		return forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	branch := s.wikiBranch(v.Repo)
	now := s.clock.Now()
	sig := Signature{Name: actor.User.Name, Email: actor.User.Email, When: now}
	cs := ChangeSet{Parent: tip, Message: msg, Author: sig, Committer: sig, Files: ops}
	if tip == "" {
		cs.NewBranch = branch
	} else {
		cs.Branch = branch
	}
	c, err := s.git.Apply(ctx, WikiGitID(v.Repo.ID), cs)
	if err != nil {
		return err
	}
	u := RefUpdate{Ref: "refs/heads/" + branch, NewID: c.ID}
	if len(c.Parents) > 0 {
		u.OldID = c.Parents[0]
	}
	if err := s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID, wiki: true, updates: []RefUpdate{u}}); err != nil {
		s.log.ErrorContext(ctx, "ref move after a wiki commit", "repo", v.Repo.ID, "commit", c.ID, "err", err)
	}
	return nil
}

// WikiGitName reports whether name, the {repo} of a git URL (with or
// without ".git"), names a wiki ("tools.wiki", "tools.wiki.git"), and the
// name of its repository.
func WikiGitName(name string) (string, bool) {
	base, ok := strings.CutSuffix(strings.TrimSuffix(name, ".git"), ".wiki")
	return base, ok && base != ""
}

// WikiGit resolves the wiki of owner/name for git's transports (smart
// HTTP, SSH) and returns the id Git addresses it by (WikiGitID). A clone
// or fetch needs what the wiki's reads need (read:repository, the wiki on
// and readable: ErrRepoNotFound otherwise, and for a wiki without files
// yet); a push what its writes need (authorizeWikiWrite's errors), and
// creates the wiki when it has no files yet, as Forgejo's InitWiki. The
// refs a push moved are recorded with AfterPush and that id.
func (s *Service) WikiGit(ctx context.Context, actor forge.Actor, owner, name string, push bool) (forge.ID, error) {
	if push {
		v, err := s.wikiWriter(ctx, actor, owner, name)
		if err != nil {
			return 0, err
		}
		wid := WikiGitID(v.Repo.ID)
		if err := s.git.Create(ctx, wid, cmp.Or(v.Repo.ObjectFormat, forge.SHA1), s.wikiBranch(v.Repo)); err != nil && !errors.Is(err, forge.ErrConflict) {
			return 0, err
		}
		return wid, nil
	}
	v, err := s.wikiReader(ctx, actor, owner, name)
	if err != nil {
		return 0, err
	}
	wid := WikiGitID(v.Repo.ID)
	if _, err := s.git.Refs(ctx, wid); errors.Is(err, forge.ErrNotFound) {
		return 0, ErrRepoNotFound
	}
	return wid, nil
}

// afterWikiPush is AfterPush for the wiki of repository repo.
func (s *Service) afterWikiPush(ctx context.Context, actor forge.Actor, repo forge.ID, updates []RefUpdate) error {
	v, err := s.resolveViewByID(ctx, actor, repo)
	if err != nil {
		return err
	}
	if _, err := s.wikiWriter(ctx, actor, v.Owner.Name, v.Repo.Name); err != nil {
		return err
	}
	return s.recordRefMoves(ctx, refMoves{actor: actor, repo: repo, wiki: true, updates: updates})
}
