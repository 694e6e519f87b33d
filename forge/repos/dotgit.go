package repos

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// gitRefusesComponent reports whether git (with core.protectNTFS and
// core.protectHFS, as its verify_path) refuses a path component: git's
// update-index drops such a path with "Ignoring path" and no error, so
// writing it would commit nothing. It mirrors git's verify_dotfile (".",
// "..", ".git" in any case), is_ntfs_dotgit (".git" or its 8.3 short name
// "git~1", in any case, followed only by dots and spaces, or by ':' as in
// an NTFS stream ".git::$INDEX_ALLOCATION"; a backslash also separates
// components on NTFS) and is_hfs_dotgit (".git" with HFS+'s ignorable code
// points such as U+200C anywhere in it).
func gitRefusesComponent(part string) bool {
	for _, sub := range strings.Split(part, `\`) {
		if sub == "." || sub == ".." || strings.EqualFold(sub, ".git") || isNTFSDotGit(sub) || isHFSDotGit(sub) {
			return true
		}
	}
	return false
}

// isNTFSDotGit is git's is_ntfs_dotgit for one component.
func isNTFSDotGit(name string) bool {
	lower := strings.ToLower(name)
	var rest string
	switch {
	case strings.HasPrefix(lower, ".git"):
		rest = name[4:]
	case strings.HasPrefix(lower, "git~1"):
		rest = name[5:]
	default:
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ':':
			return true
		case '.', ' ':
		default:
			return false
		}
	}
	return true
}

// isHFSIgnorable reports code points HFS+ ignores when comparing names
// (git's next_hfs_char).
func isHFSIgnorable(r rune) bool {
	return (r >= 0x200c && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x206a && r <= 0x206f) || r == 0xfeff
}

// isHFSDotGit is git's is_hfs_dotgit for one component: ".git", ignoring
// case (ASCII) and HFS+'s ignorable code points.
func isHFSDotGit(name string) bool {
	const needle = ".git"
	i := 0
	for _, r := range name {
		if isHFSIgnorable(r) {
			continue
		}
		if r == utf8.RuneError || r > 127 || i == len(needle) || unicode.ToLower(r) != rune(needle[i]) {
			return false
		}
		i++
	}
	return i == len(needle)
}
