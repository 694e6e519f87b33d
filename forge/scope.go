package forge

import (
	"strings"
)

// ScopeCategory is a family of API routes a token may be granted, as in
// Forgejo's access token scopes.
type ScopeCategory uint8

// Scope categories in Forgejo's canonical order.
const (
	CategoryActivityPub ScopeCategory = iota
	CategoryAdmin
	CategoryMisc
	CategoryNotification
	CategoryOrganization
	CategoryPackage
	CategoryIssue
	CategoryRepository
	CategoryUser
	numCategories
)

var categoryNames = [numCategories]string{
	"activitypub", "admin", "misc", "notification", "organization", "package",
	"issue", "repository", "user",
}

// String returns the category's wire name (`repository`, `user`, …).
func (c ScopeCategory) String() string {
	if c < numCategories {
		return categoryNames[c]
	}
	return "unknown"
}

// AccessLevel is the level a route needs within a category.
type AccessLevel uint8

// Access levels. Write implies read.
const (
	AccessRead AccessLevel = iota + 1
	AccessWrite
)

func (l AccessLevel) String() string {
	if l == AccessWrite {
		return "write"
	}
	return "read"
}

// LevelForMethod is Forgejo's rule for the level a route needs: GET, HEAD and
// OPTIONS read, every other method writes.
func LevelForMethod(method string) AccessLevel {
	switch method {
	case "GET", "HEAD", "OPTIONS":
		return AccessRead
	}
	return AccessWrite
}

// Scope is the parsed, normalised set of permissions carried by an access
// token. The zero Scope grants nothing (legacy tokens with an empty scope).
type Scope struct {
	// PublicOnly restricts the token to public resources.
	PublicOnly bool
	levels     [numCategories]AccessLevel
}

// AllScope is the scope `all`: write on every category.
func AllScope() Scope {
	var s Scope
	for i := range s.levels {
		s.levels[i] = AccessWrite
	}
	return s
}

// ParseScope parses Forgejo's scope words (`all`, `public-only`,
// `read:<category>`, `write:<category>`), each word possibly itself a
// comma-separated list. Empty items and the legacy word `sudo` are dropped;
// any other unknown word makes the scope invalid with the message
// `invalid access token scope: <word>` (ErrInvalid).
func ParseScope(words ...string) (Scope, error) {
	var s Scope
	for _, w := range words {
		for _, item := range strings.Split(w, ",") {
			item = strings.TrimSpace(item)
			switch item {
			case "", "sudo":
				continue
			case "all":
				for i := range s.levels {
					s.levels[i] = AccessWrite
				}
				continue
			case "public-only":
				s.PublicOnly = true
				continue
			}
			lvl, cat, ok := parseScopeWord(item)
			if !ok {
				return Scope{}, Errorf(ErrInvalid, "invalid access token scope: %s", item)
			}
			if s.levels[cat] < lvl {
				s.levels[cat] = lvl
			}
		}
	}
	return s, nil
}

func parseScopeWord(w string) (AccessLevel, ScopeCategory, bool) {
	level, name, ok := strings.Cut(w, ":")
	if !ok {
		return 0, 0, false
	}
	var lvl AccessLevel
	switch level {
	case "read":
		lvl = AccessRead
	case "write":
		lvl = AccessWrite
	default:
		return 0, 0, false
	}
	for i, n := range categoryNames {
		if n == name {
			return lvl, ScopeCategory(i), true
		}
	}
	return 0, 0, false
}

// IsEmpty reports whether the scope grants no category (public-only alone
// grants nothing either).
func (s Scope) IsEmpty() bool {
	for _, l := range s.levels {
		if l != 0 {
			return false
		}
	}
	return true
}

// Has reports whether the scope grants level (or more) on category.
func (s Scope) Has(c ScopeCategory, level AccessLevel) bool {
	return c < numCategories && s.levels[c] >= level
}

// Words returns the normalised scope as Forgejo stores it: `public-only`
// first, then `all` when every category is writable, otherwise one word per
// granted category in canonical order, dropping reads implied by writes.
func (s Scope) Words() []string {
	words := []string{}
	if s.PublicOnly {
		words = append(words, "public-only")
	}
	if s == AllScope() || (s.PublicOnly && s.withoutPublicOnly() == AllScope()) {
		return append(words, "all")
	}
	for i, l := range s.levels {
		if l != 0 {
			words = append(words, l.String()+":"+categoryNames[i])
		}
	}
	return words
}

func (s Scope) withoutPublicOnly() Scope { s.PublicOnly = false; return s }

// String is the normalised, comma-separated form (see Words).
func (s Scope) String() string { return strings.Join(s.Words(), ",") }

// MarshalText is the scope as Forgejo's comma-separated words (String), so
// that a Scope, and an Actor holding one, survives JSON.
func (s Scope) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText is ParseScope of text (ErrInvalid for an unknown word).
func (s *Scope) UnmarshalText(text []byte) error {
	v, err := ParseScope(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
