package memgit

import (
	"strings"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/hearthforge/hearth/forge"
)

// resolve finds the commit rev names, peeling tags; r.mu must be held.
func (r *repo) resolve(rev string) (plumbing.Hash, error) {
	notFound := forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
	if rev == "" || strings.HasPrefix(rev, "-") {
		return plumbing.ZeroHash, notFound
	}
	h, ok := r.lookup(rev)
	if !ok && strings.ContainsAny(rev, "~^@:") {
		if gr, err := gogit.Open(r.st, nil); err == nil {
			if p, err := gr.ResolveRevision(plumbing.Revision(rev)); err == nil {
				h, ok = *p, true
			}
		}
	}
	if !ok {
		return plumbing.ZeroHash, notFound
	}
	for range 16 { // peel tags of tags
		obj, err := r.st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, notFound
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.st, obj)
			if err != nil {
				return plumbing.ZeroHash, notFound
			}
			h = t.Target
		default:
			return plumbing.ZeroHash, notFound
		}
	}
	return plumbing.ZeroHash, notFound
}

// lookup finds the object a ref name or (abbreviated) id names, in git's
// order: refs/<rev>, refs/tags/<rev>, refs/heads/<rev>, then ids.
func (r *repo) lookup(rev string) (plumbing.Hash, bool) {
	names := []string{"refs/" + rev, "refs/tags/" + rev, "refs/heads/" + rev}
	if rev == "HEAD" || strings.HasPrefix(rev, "refs/") {
		names = append([]string{rev}, names...)
	}
	for _, n := range names {
		if ref, err := storer.ResolveReference(r.st, plumbing.ReferenceName(n)); err == nil {
			return ref.Hash(), true
		}
	}
	if !isHex(rev) {
		return plumbing.ZeroHash, false
	}
	if len(rev) == 40 {
		h := plumbing.NewHash(rev)
		return h, r.st.HasEncodedObject(h) == nil
	}
	var found plumbing.Hash
	n := 0
	_ = r.st.ForEachObjectHash(func(h plumbing.Hash) error {
		if strings.HasPrefix(h.String(), rev) {
			found = h
			n++
		}
		return nil
	})
	return found, n == 1
}

// isHex reports whether s may be an abbreviated or full SHA-1 id.
func isHex(s string) bool {
	if len(s) < 4 || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func isFullID(s string) bool { return len(s) == 40 && isHex(s) }

// validRefName reports whether name is a full ref name git accepts
// (git check-ref-format): under refs/, no empty component, none starting
// with "." or ending with ".lock", no "..", "@{", control characters, space,
// ~ ^ : ? * [ or \, not ending with ".".
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	for _, p := range strings.Split(name, "/") {
		if p == "" || strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".lock") {
			return false
		}
	}
	return true
}
