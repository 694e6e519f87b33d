package repos

import (
	"regexp"
	"strings"

	"github.com/gobwas/glob"
	"github.com/gobwas/glob/syntax"
)

// IsBranchRuleGlob reports whether a branch protection rule name is a glob
// pattern rather than a plain branch name: it holds one of the glob
// special characters * ? \ [ ] { } (Forgejo's IsRuleNameSpecial).
func IsBranchRuleGlob(rule string) bool {
	for i := 0; i < len(rule); i++ {
		if syntax.Special(rule[i]) {
			return true
		}
	}
	return false
}

// MatchBranchRule reports whether the branch protection rule name rule
// covers branch, as Forgejo matches rules: a plain name matches its branch
// ignoring case; a glob (github.com/gobwas/glob with '/' as the separator:
// `*` stays within a path component, `**` spans them, `{a,b}` and `[…]`
// as usual) must match the whole name, case-sensitively; a glob that does
// not compile is matched as the literal text of the rule.
func MatchBranchRule(rule, branch string) bool {
	if !IsBranchRuleGlob(rule) {
		return strings.EqualFold(rule, branch)
	}
	g, err := glob.Compile(rule, '/')
	if err != nil {
		g, err = glob.Compile(glob.QuoteMeta(rule), '/')
		if err != nil {
			return true // unreachable (a quoted text always compiles); fail closed
		}
	}
	return safeMatch(g.Match, branch)
}

// safeMatch runs a compiled glob's Match, which panics on some inputs
// (gobwas/glob with an unclosed `{` when the name equals the text before
// it): a panic counts as a match, so that a broken rule protects rather
// than opens, and never fails the request.
func safeMatch(match func(string) bool, name string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = true
		}
	}()
	return match(name)
}

// tagPatternRegexp returns the regular expression of a tag protection
// pattern written between slashes (/…/, Forgejo's rule: at least the two
// slashes), and whether the pattern is one.
func tagPatternRegexp(pattern string) (string, bool) {
	if len(pattern) >= 2 && strings.HasPrefix(pattern, "/") && strings.HasSuffix(pattern, "/") {
		return pattern[1 : len(pattern)-1], true
	}
	return "", false
}

// compileTagPattern compiles a tag protection pattern as Forgejo does: a
// regular expression between slashes (unanchored: it matches anywhere in
// the name unless it says ^…$), otherwise a glob without separator, so
// that `*` spans `/` (`v*` covers `v1/x`).
func compileTagPattern(pattern string) (func(string) bool, error) {
	if expr, ok := tagPatternRegexp(pattern); ok {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, err
		}
		return re.MatchString, nil
	}
	g, err := glob.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return g.Match, nil
}

// MatchTagPattern reports whether the tag protection pattern covers tag
// (see compileTagPattern). A pattern that does not compile covers every
// tag: a broken rule protects rather than opens (Forgejo refuses the
// change with an error then).
func MatchTagPattern(pattern, tag string) bool {
	match, err := compileTagPattern(pattern)
	if err != nil {
		return true
	}
	return safeMatch(match, tag)
}
