package repos

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Kinds of ResolvedRef.
const (
	RefKindBranch = "branch"
	RefKindTag    = "tag"
	RefKindCommit = "commit"
)

// ResolvedRef is a revision resolved the way Forgejo's RepoRefForAPI
// resolves the `ref` of a read.
type ResolvedRef struct {
	// Name is the revision as asked.
	Name string
	// Kind is RefKindBranch, RefKindTag or RefKindCommit.
	Kind string
	// Full is what git is given: refs/heads/<name>, refs/tags/<name> or the
	// commit id.
	Full string
	// Commit is the id of the commit the revision names (a tag peeled).
	Commit string
}

// isObjectID reports whether s is a full-length object id (SHA-1 or
// SHA-256, lower-case hex).
func isObjectID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && isHexString(s)
}

// isHexString reports whether s is non-empty lower-case hex.
func isHexString(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ValidRefPattern reports whether rev could name a reference or an object
// (Forgejo's git.IsValidRefPattern): names git could read as an expression
// (main~1, x^{tree}, @{1}, a..b), an option (-x), or that it refuses as a
// reference name are not; they are nobody's branch, tag or commit.
func ValidRefPattern(rev string) bool {
	return rev != "" && !strings.HasPrefix(rev, "-") && !strings.ContainsAny(rev, "\x00\n ~^:?*[\\") &&
		!strings.Contains(rev, "@{") && !strings.Contains(rev, "..")
}

// ResolveRef resolves rev in repo as Forgejo's RepoRefForAPI does: the
// branch of that name (refs/heads/rev), else the tag (refs/tags/rev), else
// a full-length commit id; with shortIDs (Forgejo's GitRepo.GetCommit, used
// by the commits API `sha`, /git/commits/{sha} and its .diff/.patch) also a
// unique abbreviated commit id of at least 4 hex digits. A full reference
// name (refs/heads/x, refs/tags/x) is taken as written; a revision
// expression (main~1, x^{tree}, a..b, @{1}) names nothing. git is only
// ever given full reference names or ids, so a tag can never stand in for
// a branch of the same name. forge.ErrNotFound when nothing matches.
func ResolveRef(ctx context.Context, g Git, repo forge.ID, rev string, shortIDs bool) (*ResolvedRef, error) {
	notFound := forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
	if !ValidRefPattern(rev) {
		return nil, notFound
	}
	try := func(kind, full string) *ResolvedRef {
		id, err := g.Resolve(ctx, repo, full)
		if err != nil {
			return nil
		}
		return &ResolvedRef{Name: rev, Kind: kind, Full: full, Commit: id}
	}
	switch {
	case strings.HasPrefix(rev, "refs/heads/"):
		if r := try(RefKindBranch, rev); r != nil {
			return r, nil
		}
		return nil, notFound
	case strings.HasPrefix(rev, "refs/tags/"):
		if r := try(RefKindTag, rev); r != nil {
			return r, nil
		}
		return nil, notFound
	}
	if r := try(RefKindBranch, "refs/heads/"+rev); r != nil {
		return r, nil
	}
	if r := try(RefKindTag, "refs/tags/"+rev); r != nil {
		return r, nil
	}
	if isObjectID(rev) || (shortIDs && len(rev) >= 4 && len(rev) < 64 && isHexString(rev)) {
		// git resolves an abbreviated id also as a ref name (refs/<rev>,
		// refs/remotes/<rev>…): accept only an answer that is the id.
		if r := try(RefKindCommit, rev); r != nil && strings.HasPrefix(r.Commit, rev) {
			r.Full = r.Commit
			return r, nil
		}
	}
	return nil, notFound
}

// resolveRef is ResolveRef in v's repository, "" meaning its default
// branch (as a branch only).
func (s *Service) resolveRef(ctx context.Context, v *View, rev string, shortIDs bool) (*ResolvedRef, error) {
	if rev == "" {
		return ResolveRef(ctx, s.git, v.Repo.ID, "refs/heads/"+v.Repo.DefaultBranch, false)
	}
	return ResolveRef(ctx, s.git, v.Repo.ID, rev, shortIDs)
}

// refInPath splits p, the path of a read given without `ref`, as Forgejo's
// RepoRefForAPI does: the shortest leading run of its components that
// names a branch, else a tag, else a first component that is a full-length
// commit id of the repository's object format, is the revision (returned
// as a full reference name, or the id), and the rest is the path. When
// none is, the revision is "" (the default branch) and the path all of p.
func (s *Service) refInPath(ctx context.Context, v *View, p string) (ref, rest string, err error) {
	refs, err := s.git.Refs(ctx, v.Repo.ID)
	if err != nil {
		return "", "", err
	}
	names := make(map[string]bool, len(refs))
	for _, r := range refs {
		names[r.Name] = true
	}
	parts := strings.Split(p, "/")
	for _, prefix := range []string{"refs/heads/", "refs/tags/"} {
		for i := 1; i <= len(parts); i++ {
			if name := prefix + strings.Join(parts[:i], "/"); names[name] {
				return name, strings.Join(parts[i:], "/"), nil
			}
		}
	}
	if first := parts[0]; len(first) == v.Repo.ObjectFormat.HexLen() && isHexString(first) {
		return first, strings.Join(parts[1:], "/"), nil
	}
	return "", p, nil
}
