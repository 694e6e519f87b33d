package quota

import "github.com/hearthforge/hearth/forge"

// Subject is what a rule limits and what a check asks about: a node of
// Forgejo's subject tree, by its Forgejo name.
//
//	size:all
//	 ├─ size:git:all
//	 │   ├─ size:repos:all
//	 │   │   ├─ size:repos:public
//	 │   │   └─ size:repos:private
//	 │   └─ size:git:lfs
//	 └─ size:assets:all
//	     ├─ size:assets:attachments:all
//	     │   ├─ size:assets:attachments:issues
//	     │   └─ size:assets:attachments:releases
//	     ├─ size:assets:artifacts
//	     ├─ size:assets:packages:all
//	     └─ size:assets:wiki          (usage always 0)
//	none                              (no parent, usage 0)
//
// (models/quota/limit_subject.go, rule.go subjectToParent.)
type Subject string

// The subjects, with Forgejo's names. Forgejo stores them as the ordinals
// given in Ordinal; Hearth stores the names.
const (
	SubjectNone                Subject = "none"
	SubjectAll                 Subject = "size:all"
	SubjectReposAll            Subject = "size:repos:all"
	SubjectReposPublic         Subject = "size:repos:public"
	SubjectReposPrivate        Subject = "size:repos:private"
	SubjectGitAll              Subject = "size:git:all"
	SubjectGitLFS              Subject = "size:git:lfs"
	SubjectAssetsAll           Subject = "size:assets:all"
	SubjectAttachmentsAll      Subject = "size:assets:attachments:all"
	SubjectAttachmentsIssues   Subject = "size:assets:attachments:issues"
	SubjectAttachmentsReleases Subject = "size:assets:attachments:releases"
	SubjectArtifacts           Subject = "size:assets:artifacts"
	SubjectPackagesAll         Subject = "size:assets:packages:all"
	SubjectWiki                Subject = "size:assets:wiki"
)

// Subjects lists every subject in Forgejo's ordinal order (Subjects[i] has
// ordinal i).
var Subjects = []Subject{
	SubjectNone, SubjectAll, SubjectReposAll, SubjectReposPublic,
	SubjectReposPrivate, SubjectGitAll, SubjectGitLFS, SubjectAssetsAll,
	SubjectAttachmentsAll, SubjectAttachmentsIssues, SubjectAttachmentsReleases,
	SubjectArtifacts, SubjectPackagesAll, SubjectWiki,
}

// parent is subjectToParent of models/quota/rule.go: note that
// size:repos:all's parent is size:git:all.
var parent = map[Subject]Subject{
	SubjectGitAll:              SubjectAll,
	SubjectAssetsAll:           SubjectAll,
	SubjectReposAll:            SubjectGitAll,
	SubjectGitLFS:              SubjectGitAll,
	SubjectReposPublic:         SubjectReposAll,
	SubjectReposPrivate:        SubjectReposAll,
	SubjectAttachmentsAll:      SubjectAssetsAll,
	SubjectArtifacts:           SubjectAssetsAll,
	SubjectPackagesAll:         SubjectAssetsAll,
	SubjectWiki:                SubjectAssetsAll,
	SubjectAttachmentsIssues:   SubjectAttachmentsAll,
	SubjectAttachmentsReleases: SubjectAttachmentsAll,
}

// ParseSubject returns the subject named s. Any other string (the empty
// one included) is forge.ErrInvalid with Forgejo's message
// `unrecognized quota limit subject: [subject: <s>]`.
func ParseSubject(s string) (Subject, error) {
	sub := Subject(s)
	if sub.Valid() {
		return sub, nil
	}
	return "", forge.Errorf(forge.ErrInvalid, "unrecognized quota limit subject: [subject: %s]", s)
}

// Valid reports whether s is a known subject.
func (s Subject) Valid() bool {
	return s == SubjectNone || s == SubjectAll || parent[s] != ""
}

// String returns Forgejo's name.
func (s Subject) String() string { return string(s) }

// Ordinal returns Forgejo's stored number of s (none = 0 … size:assets:wiki
// = 13), -1 for an unknown subject.
func (s Subject) Ordinal() int {
	for i, v := range Subjects {
		if v == s {
			return i
		}
	}
	return -1
}

// MarshalText returns Forgejo's name.
func (s Subject) MarshalText() ([]byte, error) { return []byte(s), nil }

// UnmarshalText parses a name as ParseSubject does.
func (s *Subject) UnmarshalText(b []byte) error {
	v, err := ParseSubject(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Parent returns the subject s belongs to, "" for size:all, none and
// unknown subjects.
func (s Subject) Parent() Subject { return parent[s] }

// Covers reports whether a rule listing s applies to a check of t: s is t
// or an ancestor of t (models/quota/rule.go Evaluate walks t upward).
func (s Subject) Covers(t Subject) bool {
	for ; t != ""; t = parent[t] {
		if s == t {
			return true
		}
	}
	return false
}

// ParseSubjects parses each name; the first unknown one is the error. nil
// for nil.
func ParseSubjects(names []string) ([]Subject, error) {
	if names == nil {
		return nil, nil
	}
	out := make([]Subject, 0, len(names))
	for _, n := range names {
		s, err := ParseSubject(n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
