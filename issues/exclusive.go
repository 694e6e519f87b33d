package issues

import (
	"slices"
	"strings"
)

// ExclusiveScope returns the scope of an exclusive label: the part of its
// name before the last '/'. A label that is not exclusive has no scope
// (""), nor has one whose name has no '/' or whose last '/' is its first
// or last character. `a/b/c` has scope `a/b` (Forgejo's Label.ExclusiveScope).
func ExclusiveScope(l *Label) string {
	if !l.Exclusive {
		return ""
	}
	i := strings.LastIndex(l.Name, "/")
	if i <= 0 || i == len(l.Name)-1 {
		return ""
	}
	return l.Name[:i]
}

// SortLabels orders labels by name, then id: the order Forgejo loads the
// labels of a request in (GetLabelsByIDs orders by name), which decides
// which label of an exclusive scope stays.
func SortLabels(ls []*Label) {
	slices.SortStableFunc(ls, func(a, b *Label) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return int(a.ID - b.ID)
	})
}

// ApplyExclusive adds labels to an issue that has current (spec/issues.md
// §5.2–3): adding, sorted by name, are added one after another, and adding
// an exclusive label with a scope first takes off every label on the issue
// whose own scope is the same (a non-exclusive label with the same prefix
// stays). So the newly added label wins over the ones already there, and
// within one request the alphabetically last label of a scope wins. A label
// already on the issue is not added again. Archived labels are labels like
// any other (Forgejo has no special handling of them).
//
// It returns the labels on the issue afterwards (in current's order, then
// the added ones in name order), and the labels added and removed in the
// order it happened: a label of the request evicted by a later one of the
// same request is in both, as Forgejo writes a comment for each step.
func ApplyExclusive(current, adding []*Label) (result, added, removed []*Label) {
	result = slices.Clone(current)
	adding = slices.Clone(adding)
	SortLabels(adding)
	for _, l := range adding {
		if slices.ContainsFunc(result, func(x *Label) bool { return x.ID == l.ID }) {
			continue
		}
		if scope := ExclusiveScope(l); scope != "" {
			result = slices.DeleteFunc(result, func(x *Label) bool {
				if ExclusiveScope(x) == scope {
					removed = append(removed, x)
					return true
				}
				return false
			})
		}
		result = append(result, l)
		added = append(added, l)
	}
	return result, added, removed
}

// DedupExclusive keeps, of the labels of one replace (PUT), the
// alphabetically last label of each exclusive scope and every label
// without scope; duplicates of one id are kept once. The result is sorted
// by name (Forgejo's RemoveDuplicateExclusiveLabels on labels loaded by
// name).
func DedupExclusive(labels []*Label) []*Label {
	ls := slices.Clone(labels)
	SortLabels(ls)
	lastOfScope := map[string]int64{}
	for _, l := range ls {
		if s := ExclusiveScope(l); s != "" {
			lastOfScope[s] = l.ID
		}
	}
	out := make([]*Label, 0, len(ls))
	seen := map[int64]bool{}
	for _, l := range ls {
		if seen[l.ID] {
			continue
		}
		if s := ExclusiveScope(l); s != "" && lastOfScope[s] != l.ID {
			continue
		}
		seen[l.ID] = true
		out = append(out, l)
	}
	return out
}
