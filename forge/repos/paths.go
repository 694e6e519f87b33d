package repos

import (
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
)

// Limits of the contents API.
const (
	// MaxTreePathBytes is the longest path the contents API writes.
	MaxTreePathBytes = 4096
	// MaxTreeNameBytes is the longest path component it writes.
	MaxTreeNameBytes = 255
	// DefaultMaxFilesPerCommit caps the files of one ChangeFiles call
	// (forge.ErrInvalid, 422).
	DefaultMaxFilesPerCommit = 1000
	// DefaultMaxBlobSize is Forgejo's [api] DEFAULT_MAX_BLOB_SIZE: the
	// contents and blob APIs include the content of files up to this size
	// only (larger files are read through raw/media, streamed).
	DefaultMaxBlobSize = 10 << 20
)

// CleanTreePath cleans a path of the contents API as Forgejo does
// (CleanUploadFileName, util.PathJoinRel: the path is made relative to the
// root and cleaned, so `x/../docs/f` is `docs/f`, `./a` is `a`, `a//b` is
// `a/b`, `/etc/passwd` is `etc/passwd` and a leading `../` goes nowhere)
// and returns the one form that is checked and written: relative,
// slash-separated, with no trailing slash. It refuses (forge.ErrInvalid,
// Forgejo's `path contains a malformed path component [path: p]`, 422) a
// path that cleans to the root, and, in the cleaned path, a component git
// refuses under core.protectNTFS and core.protectHFS (".git" in any case,
// as Forgejo, and "git~1", ".git" followed by dots, spaces or an NTFS
// stream such as "::$INDEX_ALLOCATION", ".git" with HFS+-ignorable code
// points such as U+200C; see gitRefusesComponent), control characters
// (newlines included), invalid UTF-8, and paths longer than
// MaxTreePathBytes or with a component longer than MaxTreeNameBytes.
// Storage refuses any path this function would change, so only the
// cleaned form is ever written.
func CleanTreePath(p string) (string, error) {
	bad := func() (string, error) {
		return "", forge.Errorf(forge.ErrInvalid, "path contains a malformed path component [path: %s]", p)
	}
	if p == "" || !utf8.ValidString(p) {
		return bad()
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return bad()
		}
	}
	clean := strings.TrimPrefix(path.Clean("/"+p), "/")
	if clean == "" || len(clean) > MaxTreePathBytes {
		return bad()
	}
	for _, part := range strings.Split(clean, "/") {
		if gitRefusesComponent(part) || len(part) > MaxTreeNameBytes {
			return bad()
		}
	}
	return clean, nil
}

// cleanReadPath is the path of a read: "" (or "/") is the root; otherwise
// the rules of CleanTreePath, except that control characters are allowed
// (a pushed tree may hold them) and a .git component is simply absent.
func cleanReadPath(p string) (string, error) {
	clean := strings.TrimSuffix(p, "/")
	if clean == "" {
		return "", nil
	}
	if strings.HasPrefix(clean, "/") || strings.ContainsRune(clean, 0) {
		return "", forge.Errorf(forge.ErrNotFound, "object does not exist [id: , rel_path: %s]", p)
	}
	for _, part := range strings.Split(clean, "/") {
		if part == "" || part == "." || part == ".." {
			return "", forge.Errorf(forge.ErrNotFound, "object does not exist [id: , rel_path: %s]", p)
		}
	}
	return clean, nil
}

// Git's date range: the dates git reads from GIT_AUTHOR_DATE and
// GIT_COMMITTER_DATE in the RFC 3339 form they are written in (git's date
// parser takes years 1970 to 2099; it refuses the rest).
var (
	MinGitDate = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxGitDate = time.Date(2099, 12, 31, 23, 59, 59, 0, time.UTC)
)

// CheckSignature refuses (forge.ErrInvalid, 422) an author or committer
// whose name or email git would rewrite or refuse: newlines, NUL, '<' or
// '>' (git strips them, so the commit would not say what was asked); and
// a date (When, when set) outside MinGitDate..MaxGitDate: `invalid author
// date [date: d]: outside 1970-01-01T00:00:00Z..2099-12-31T23:59:59Z`. An
// empty name and a zero date are left to the caller's default.
func CheckSignature(role string, s Signature) error {
	if sec := s.When.Unix(); !s.When.IsZero() && (sec < MinGitDate.Unix() || sec > MaxGitDate.Unix()) {
		return forge.Errorf(forge.ErrInvalid, "invalid %s date [date: %s]: outside %s..%s", role,
			s.When.Format(time.RFC3339), MinGitDate.Format(time.RFC3339), MaxGitDate.Format(time.RFC3339))
	}
	for _, v := range []string{s.Name, s.Email} {
		if strings.ContainsAny(v, "<>\n\r\x00") || !utf8.ValidString(v) {
			return forge.Errorf(forge.ErrInvalid, "invalid %s identity [name: %q, email: %q]", role, s.Name, s.Email)
		}
	}
	if s.Name != "" && strings.Trim(s.Name, " .,:;\"'\\") == "" {
		return forge.Errorf(forge.ErrInvalid, "invalid %s identity [name: %q, email: %q]", role, s.Name, s.Email)
	}
	return nil
}

// CheckCleanPath is the check storage makes of a path it is asked to
// write: nil when CleanTreePath accepts p as it is, and otherwise
// CleanTreePath's error, or forge.ErrInvalid `path contains a malformed
// path component [path: p]` for a path that cleaning would change (the
// domain writes only cleaned paths, so such a path did not come through it).
func CheckCleanPath(p string) error {
	clean, err := CleanTreePath(p)
	if err != nil {
		return err
	}
	if clean != p {
		return forge.Errorf(forge.ErrInvalid, "path contains a malformed path component [path: %s]", p)
	}
	return nil
}
