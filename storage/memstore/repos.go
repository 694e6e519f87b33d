package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var _ repos.Tx = (*tx)(nil)

// copyRepo returns a copy of r sharing no memory with it, as the SQL
// backends store it: the owner's name is not a column; topics are rows, so
// never nil, each once, in order.
func copyRepo(r *forge.Repository) forge.Repository {
	v := *r
	v.OwnerName = ""
	v.Topics = append([]string{}, r.Topics...)
	slices.Sort(v.Topics)
	v.Topics = slices.Compact(v.Topics)
	if r.InternalTracker != nil {
		it := *r.InternalTracker
		v.InternalTracker = &it
	}
	if r.ExternalTracker != nil {
		et := *r.ExternalTracker
		v.ExternalTracker = &et
	}
	if r.ExternalWiki != nil {
		ew := *r.ExternalWiki
		v.ExternalWiki = &ew
	}
	v.ArchivedAt, v.Created, v.Updated = ts(r.ArchivedAt), ts(r.Created), ts(r.Updated)
	return v
}

// outRepo returns a stored repository for a caller to keep.
func outRepo(r forge.Repository) *forge.Repository {
	v := copyRepo(&r)
	return &v
}

func (s *state) repoNameTaken(id, ownerID forge.ID, name string) bool {
	for _, r := range s.repos {
		if r.ID != id && r.OwnerID == ownerID && strings.EqualFold(r.Name, name) {
			return true
		}
	}
	return false
}

func (t *tx) CreateRepo(ctx context.Context, r *forge.Repository) error {
	if err := writeRef(ctx, t, t.st.users, r.OwnerID, "create repository"); err != nil {
		return err
	}
	if t.st.repoNameTaken(0, r.OwnerID, r.Name) {
		return conflict("create repository")
	}
	v := copyRepo(r)
	v.ID = t.st.nextID("repository")
	t.st.repos[v.ID] = v
	r.ID = v.ID
	t.st.noteTopics(nil, v.Topics, v.Updated)
	return nil
}

func (t *tx) RepoByName(ctx context.Context, ownerID forge.ID, name string) (*forge.Repository, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	for _, r := range t.st.repos {
		if r.OwnerID == ownerID && strings.EqualFold(r.Name, name) {
			return outRepo(r), nil
		}
	}
	return nil, notFound("repository")
}

func (t *tx) RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error) {
	return readAs(ctx, t, t.st.repos, id, "repository", outRepo)
}

func (t *tx) UpdateRepo(ctx context.Context, r *forge.Repository) error {
	if _, err := writeRow(ctx, t, t.st.repos, r.ID, "update repository"); err != nil {
		return err
	}
	if _, ok := t.st.users[r.OwnerID]; !ok {
		return missingRef("update repository")
	}
	if t.st.repoNameTaken(r.ID, r.OwnerID, r.Name) {
		return conflict("update repository")
	}
	v := copyRepo(r)
	t.st.noteTopics(t.st.repos[r.ID].Topics, v.Topics, v.Updated)
	t.st.repos[r.ID] = v
	return nil
}

// DeleteRepo cascades as the SQL schema does: collaborations, watches,
// stars, branch and tag protections, the pending transfer, commit statuses,
// releases and their attachments. Forks keep their ForkID.
func (t *tx) DeleteRepo(ctx context.Context, id forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.repos, id, "delete repository"); err != nil {
		return err
	}
	delete(t.st.repos, id)
	delete(t.st.transfers, id)
	deleteWhere(t.st.repoFlags, func(k repoFlag, _ struct{}) bool { return k.repo == id })
	deleteWhere(t.st.collabs, func(k pair, _ forge.AccessMode) bool { return k.repo == id })
	deleteWhere(t.st.watches, func(k pair, _ watchRow) bool { return k.repo == id })
	deleteWhere(t.st.stars, func(k pair, _ starRow) bool { return k.repo == id })
	deleteWhere(t.st.protections, func(_ forge.ID, p repos.BranchProtection) bool { return p.RepoID == id })
	deleteWhere(t.st.tagProts, func(_ forge.ID, p repos.TagProtection) bool { return p.RepoID == id })
	deleteWhere(t.st.statuses, func(_ forge.ID, s repos.CommitStatus) bool { return s.RepoID == id })
	t.st.deleteRepoLFSPackages(id) // packages.go
	deleteWhere(t.st.releases, func(_ forge.ID, r repos.Release) bool { return r.RepoID == id })
	deleteWhere(t.st.attachments, func(_ forge.ID, a repos.Attachment) bool { return a.RepoID == id })
	t.st.deleteRepoIssues(id)
	// Mirrors and their leases go with the repository (the SQL schema's
	// foreign keys; lease rows are removed by the delete methods).
	for mid, m := range t.st.pullMirrors {
		if m.RepoID == id {
			delete(t.st.pullMirrors, mid)
			delete(t.st.leases, m.Key())
		}
	}
	for mid, m := range t.st.pushMirrors {
		if m.RepoID == id {
			delete(t.st.pushMirrors, mid)
			delete(t.st.leases, m.Key())
		}
	}
	// Pull requests from the repository keep their base, with head
	// repository 0 (the SQL schema's ON DELETE SET NULL).
	for pid, p := range t.st.pulls {
		if p.HeadRepoID == id {
			p.HeadRepoID = 0
			t.st.pulls[pid] = p
		}
	}
	deleteWhere(t.st.teamRepos, func(k teamRepo, _ struct{}) bool { return k.repo == id })
	return nil
}

// visible is RepoFilter.VisibleTo's rule: public repositories of public
// owners (of limited ones for signed-in users, of private organisations
// for their members), plus those the user owns, collaborates on or has
// through a team; restricted users only the latter.
func (s *state) visible(r *forge.Repository, userID forge.ID, restricted bool) bool {
	if r.OwnerID == userID {
		return true
	}
	if _, ok := s.collabs[pair{r.ID, userID}]; ok {
		return true
	}
	if userID > 0 && len(s.teamsGranting(r.ID, userID)) > 0 {
		return true
	}
	if r.Private || restricted {
		return false
	}
	switch s.users[r.OwnerID].u.Visibility {
	case forge.VisibilityPublic, "": // no stored row has "", but it means public
		return true
	case forge.VisibilityLimited:
		return userID > 0
	}
	_, member := s.orgMembers[orgUser{r.OwnerID, userID}]
	return member
}

func (s *state) matches(r *forge.Repository, f repos.RepoFilter) bool {
	_, watched := s.watches[pair{r.ID, f.WatchedBy}]
	switch {
	case f.OwnerID != 0 && r.OwnerID != f.OwnerID,
		!f.AnyStatus && r.Status != forge.RepoReady,
		!keywordMatches(r, f),
		!f.AllVisible && !s.visible(r, f.VisibleTo, f.Restricted),
		f.Private != nil && r.Private != *f.Private,
		f.Archived != nil && r.Archived != *f.Archived,
		f.Template != nil && r.Template != *f.Template,
		f.ForkOf != 0 && r.ForkID != f.ForkOf:
		return false
	case f.CollaboratorOf != 0:
		if _, ok := s.collabs[pair{r.ID, f.CollaboratorOf}]; r.OwnerID != f.CollaboratorOf && !ok {
			return false
		}
	}
	if f.StarredBy != 0 {
		if _, ok := s.stars[pair{r.ID, f.StarredBy}]; !ok {
			return false
		}
	}
	if f.WatchedBy != 0 && !(watched && s.watches[pair{r.ID, f.WatchedBy}].mode.Watching()) {
		return false
	}
	return true
}

// keywordMatches is RepoFilter.Keyword's rule: one of the comma-separated
// words is in the name or a topic (or with IncludeDesc the description),
// ignoring case; with Topic, a word equals a topic, ignoring case. A
// keyword of no words matches everything.
func keywordMatches(r *forge.Repository, f repos.RepoFilter) bool {
	some := false
	for _, word := range strings.Split(strings.ToLower(f.Keyword), ",") {
		if word = strings.TrimSpace(word); word == "" {
			continue
		}
		some = true
		if f.Topic {
			if slices.ContainsFunc(r.Topics, func(t string) bool { return strings.ToLower(t) == word }) {
				return true
			}
			continue
		}
		if strings.Contains(strings.ToLower(r.Name), word) ||
			slices.ContainsFunc(r.Topics, func(t string) bool { return strings.Contains(strings.ToLower(t), word) }) ||
			f.IncludeDesc && strings.Contains(strings.ToLower(r.Description), word) {
			return true
		}
	}
	return !some
}

func repoOrder(f repos.RepoFilter) func(a, b *forge.Repository) int {
	var key func(a, b *forge.Repository) int
	switch f.Sort {
	case "created":
		key = func(a, b *forge.Repository) int { return a.Created.Compare(b.Created) }
	case "alpha":
		key = func(a, b *forge.Repository) int {
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		}
	case "updated":
		key = func(a, b *forge.Repository) int { return a.Updated.Compare(b.Updated) }
	case "size":
		key = func(a, b *forge.Repository) int { return cmp.Compare(a.Size, b.Size) }
	case "stars":
		key = func(a, b *forge.Repository) int { return cmp.Compare(a.NumStars, b.NumStars) }
	default:
		key = func(a, b *forge.Repository) int { return 0 }
	}
	order := func(a, b *forge.Repository) int { return cmp.Or(key(a, b), cmp.Compare(a.ID, b.ID)) }
	switch {
	case f.Order == "desc", f.Order == "" && (f.Sort == "newest" || f.Sort == "updated" || f.Sort == "stars" || f.Sort == "size"):
		return reverse(order)
	}
	return order
}

func (t *tx) ListRepos(ctx context.Context, f repos.RepoFilter, o forge.ListOptions) ([]*forge.Repository, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []*forge.Repository{}
	for _, r := range t.st.repos {
		if t.st.matches(&r, f) {
			all = append(all, outRepo(r))
		}
	}
	page, n := sortPage(all, repoOrder(f), o)
	return page, n, nil
}

// refs checks that the repository and the user exist.
func (s *state) refs(what string, repoID, userID forge.ID) error {
	if _, ok := s.repos[repoID]; !ok {
		return missingRef(what)
	}
	if _, ok := s.users[userID]; !ok {
		return missingRef(what)
	}
	return nil
}

func (t *tx) SetCollaborator(ctx context.Context, repoID, userID forge.ID, mode forge.AccessMode) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if err := t.st.refs("collaborator", repoID, userID); err != nil {
		return err
	}
	t.st.collabs[pair{repoID, userID}] = mode
	return nil
}

func (t *tx) DeleteCollaborator(ctx context.Context, repoID, userID forge.ID) error {
	if _, err := writeRow(ctx, t, t.st.collabs, pair{repoID, userID}, "collaborator"); err != nil {
		return err
	}
	delete(t.st.collabs, pair{repoID, userID})
	return nil
}

func (t *tx) CollaboratorMode(ctx context.Context, repoID, userID forge.ID) (forge.AccessMode, error) {
	if err := t.read(ctx); err != nil {
		return 0, err
	}
	return t.st.collabs[pair{repoID, userID}], nil // AccessNone if absent
}

func (t *tx) ListCollaborators(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]repos.Collaborator, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	all := []repos.Collaborator{}
	for k, m := range t.st.collabs {
		if k.repo == repoID {
			u := t.st.users[k.user].u
			all = append(all, repos.Collaborator{User: &u, Mode: m})
		}
	}
	page, n := sortPage(all, func(a, b repos.Collaborator) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.User.Name), strings.ToLower(b.User.Name)), cmp.Compare(a.User.ID, b.User.ID))
	}, o)
	return page, n, nil
}

func (s *state) recountWatches(repoID forge.ID) {
	r, ok := s.repos[repoID]
	if !ok {
		return
	}
	r.NumWatches = 0
	for k, w := range s.watches {
		if k.repo == repoID && w.mode.Watching() {
			r.NumWatches++
		}
	}
	s.repos[repoID] = r
}

func (t *tx) SetWatch(ctx context.Context, repoID, userID forge.ID, mode repos.WatchMode, at time.Time) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	if mode == repos.WatchNone {
		delete(t.st.watches, pair{repoID, userID})
	} else {
		if err := t.st.refs("watch", repoID, userID); err != nil {
			return err
		}
		t.st.watches[pair{repoID, userID}] = watchRow{mode: mode, at: ts(at)}
	}
	t.st.recountWatches(repoID)
	return nil
}

func (t *tx) Watch(ctx context.Context, repoID, userID forge.ID) (repos.WatchMode, time.Time, error) {
	if err := t.read(ctx); err != nil {
		return 0, time.Time{}, err
	}
	w, ok := t.st.watches[pair{repoID, userID}]
	if !ok {
		return repos.WatchNone, time.Time{}, nil
	}
	return w.mode, w.at, nil
}

// usersPage returns one page of the users with the ids keys, in that order,
// and their number.
func (t *tx) usersPage(keys []forge.ID, o forge.ListOptions) ([]*forge.User, int64) {
	lo, hi := o.Bounds(len(keys))
	list := []*forge.User{}
	for _, id := range keys[lo:hi] {
		u := t.st.users[id].u
		list = append(list, &u)
	}
	return list, int64(len(keys))
}

func (t *tx) ListWatchers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var ids []forge.ID
	for k, w := range t.st.watches {
		if k.repo == repoID && w.mode.Watching() {
			ids = append(ids, k.user)
		}
	}
	slices.Sort(ids)
	list, n := t.usersPage(ids, o)
	return list, n, nil
}

func (t *tx) SetStar(ctx context.Context, repoID, userID forge.ID, starred bool, at time.Time) error {
	if err := t.write(ctx); err != nil {
		return err
	}
	k := pair{repoID, userID}
	if !starred {
		delete(t.st.stars, k)
	} else if _, ok := t.st.stars[k]; !ok {
		if err := t.st.refs("star", repoID, userID); err != nil {
			return err
		}
		t.st.stars[k] = starRow{at: ts(at)}
	}
	t.st.recountStars(repoID)
	return nil
}

func (s *state) recountStars(repoID forge.ID) {
	r, ok := s.repos[repoID]
	if !ok {
		return
	}
	r.NumStars = 0
	for k := range s.stars {
		if k.repo == repoID {
			r.NumStars++
		}
	}
	s.repos[repoID] = r
}

func (t *tx) IsStarred(ctx context.Context, repoID, userID forge.ID) (bool, error) {
	if err := t.read(ctx); err != nil {
		return false, err
	}
	_, ok := t.st.stars[pair{repoID, userID}]
	return ok, nil
}

func (t *tx) ListStargazers(ctx context.Context, repoID forge.ID, o forge.ListOptions) ([]*forge.User, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	var ids []forge.ID
	for k := range t.st.stars {
		if k.repo == repoID {
			ids = append(ids, k.user)
		}
	}
	slices.SortFunc(ids, func(a, b forge.ID) int {
		sa, sb := t.st.stars[pair{repoID, a}], t.st.stars[pair{repoID, b}]
		return cmp.Or(sa.at.Compare(sb.at), cmp.Compare(a, b))
	})
	list, n := t.usersPage(ids, o)
	return list, n, nil
}
