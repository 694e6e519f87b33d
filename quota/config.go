package quota

import (
	"strconv"
	"strings"
	"unicode"
)

// Config is Forgejo's [quota] section. The zero value is Forgejo's default:
// quota disabled (every check allowed, no quota API), no default groups,
// unlimited built-in rule.
type Config struct {
	// Enabled is [quota] ENABLED: when false every check allows and the
	// quota API routes do not exist (404). Counters are kept either way.
	Enabled bool
	// DefaultGroups is [quota] DEFAULT_GROUPS: the groups of an owner with
	// no explicit membership; names of groups that do not exist are
	// ignored.
	DefaultGroups []string
	// DefaultTotal is [quota.default] TOTAL, the limit in bytes of the
	// built-in rule (size:all) used when an owner has no group at all.
	// 0 (unset) and negative values mean unlimited, Forgejo's default -1.
	// (Forgejo's TOTAL = 0 denies everything; with Hearth express that
	// with a default group holding a rule of limit 0.)
	DefaultTotal int64
}

// DefaultLimit returns the limit of the built-in rule: DefaultTotal, or
// -1 when it is 0 or negative.
func (c Config) DefaultLimit() int64 {
	if c.DefaultTotal <= 0 {
		return Unlimited
	}
	return c.DefaultTotal
}

// ParseSize reads a human-readable byte size as Forgejo's [quota.default]
// TOTAL (go-humanize): "1 GiB", "500MB" (MB = 10^6, MiB = 2^20), "1024".
// Empty, unparsable or overflowing text gives -1 (unlimited), as Forgejo's
// mustBytes.
func ParseSize(s string) int64 {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return !(unicode.IsDigit(r) || r == '.') })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	}
	if num == "" {
		return -1
	}
	mult, ok := sizeUnits[unit]
	if !ok {
		return -1
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f*float64(mult) >= 1<<63 {
		return -1
	}
	return int64(f * float64(mult))
}

var sizeUnits = map[string]int64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"k": 1e3, "kb": 1e3, "ki": 1 << 10, "kib": 1 << 10,
	"m": 1e6, "mb": 1e6, "mi": 1 << 20, "mib": 1 << 20,
	"g": 1e9, "gb": 1e9, "gi": 1 << 30, "gib": 1 << 30,
	"t": 1e12, "tb": 1e12, "ti": 1 << 40, "tib": 1 << 40,
	"p": 1e15, "pb": 1e15, "pi": 1 << 50, "pib": 1 << 50,
	"e": 1e18, "eb": 1e18, "ei": 1 << 60, "eib": 1 << 60,
}
