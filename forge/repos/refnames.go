package repos

import (
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MaxRefNameLength is the longest branch or tag name accepted, in bytes
// (a file name on most file systems: git stores loose refs as files).
const MaxRefNameLength = 255

// MaxBranchNameLength is Forgejo's MaxSize(100) on new_branch_name and on
// the new name of a branch rename.
const MaxBranchNameLength = 100

// CheckRefName reports why name is not a valid short branch or tag name,
// or nil when it is one. It applies `git check-ref-format --branch` rules
// (no "..", no "@{", no control characters, spaces or any of ~^:?*[\, no
// component starting with "." or ending with ".lock", no leading, trailing
// or doubled "/", no trailing ".") and Forgejo's on top: not empty, not
// "@" or "HEAD", not starting with "-" (it would read as an option) nor
// with "refs/" (a full name where a short one is expected is ambiguous),
// at most MaxRefNameLength bytes. The error is forge.ErrInvalid.
func CheckRefName(name string) error {
	bad := func(why string) error {
		return forge.Errorf(forge.ErrInvalid, "invalid reference name %q: %s", name, why)
	}
	switch {
	case name == "":
		return forge.Errorf(forge.ErrInvalid, "reference name is empty")
	case len(name) > MaxRefNameLength:
		return forge.Errorf(forge.ErrInvalid, "reference name is longer than %d bytes", MaxRefNameLength)
	case name == "@" || name == "HEAD":
		return bad("reserved name")
	case strings.HasPrefix(name, "-"):
		return bad("starts with '-'")
	case strings.HasPrefix(name, "refs/"):
		return bad("a full reference name is not a branch or tag name")
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.Contains(name, "//"):
		return bad("empty path component")
	case strings.HasSuffix(name, "."):
		return bad("ends with '.'")
	case strings.Contains(name, ".."):
		return bad("contains '..'")
	case strings.Contains(name, "@{"):
		return bad("contains '@{'")
	}
	for _, c := range []byte(name) {
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return bad("contains a control character, a space or one of ~^:?*[\\")
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return bad("a component starts with '.'")
		}
		if strings.HasSuffix(part, ".lock") {
			return bad("a component ends with '.lock'")
		}
	}
	return nil
}

// CheckRevision reports why rev cannot name a commit to start from (a
// branch or tag name, a full reference name such as refs/heads/main, or a
// commit id), or nil. Revision syntax (main~1, @{…}, ranges) is refused:
// only names reach git, never options (a leading "-").
func CheckRevision(rev string) error {
	if full, ok := strings.CutPrefix(rev, "refs/"); ok {
		if i := strings.IndexByte(full, '/'); i > 0 {
			if err := CheckRefName(full[i+1:]); err != nil {
				return forge.Errorf(forge.ErrInvalid, "invalid revision %q", rev)
			}
			return nil
		}
	}
	if err := CheckRefName(rev); err != nil {
		return forge.Errorf(forge.ErrInvalid, "invalid revision %q", rev)
	}
	return nil
}

// checkBranchName is CheckRefName with Forgejo's length limit for new
// branch names; field names the request field in the message
// (`[NewBranchName]: …`).
func checkBranchName(field, name string) error {
	if err := CheckRefName(name); err != nil {
		return forge.Errorf(forge.ErrInvalid, "[%s]: %v", field, err)
	}
	if len(name) > MaxBranchNameLength {
		return forge.Errorf(forge.ErrInvalid, "[%s]: MaxSize", field)
	}
	return nil
}

// checkTagName is CheckRefName with the request field in the message.
func checkTagName(field, name string) error {
	if name == "" {
		return forge.Errorf(forge.ErrInvalid, "[%s]: Required", field)
	}
	if err := CheckRefName(name); err != nil {
		return forge.Errorf(forge.ErrInvalid, "[%s]: %v", field, err)
	}
	return nil
}
