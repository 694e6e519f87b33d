package quota

// Unlimited is the limit of a rule that allows everything.
const Unlimited int64 = -1

// Rule is one limit, in bytes, on the sum of the usage of its subjects
// (Forgejo's quota_rule). Limit -1 is unlimited; 0 denies every write.
type Rule struct {
	Name     string
	Limit    int64
	Subjects []Subject
}

// Matches reports whether r applies to a check of s: one of r's subjects is
// s or an ancestor of s. A rule listing only descendants of s does not
// match s; a rule with no subjects matches nothing; none matches only a
// rule that lists none.
func (r Rule) Matches(s Subject) bool {
	for _, rs := range r.Subjects {
		if rs.Covers(s) {
			return true
		}
	}
	return false
}

// Sum returns the usage r compares with its limit: the sum over r's
// subjects (overlapping subjects count twice, as Forgejo's Rule.Sum).
func (r Rule) Sum(u Used) int64 {
	var n int64
	for _, s := range r.Subjects {
		n += u.Of(s)
	}
	return n
}

// Evaluate is Forgejo's Rule.Evaluate for a check of s with usage u:
// matched when r applies to s, and then allowed iff the limit is -1 or
// Sum(u) < Limit (strict: usage equal to the limit is denied).
func (r Rule) Evaluate(u Used, s Subject) (allowed, matched bool) {
	if !r.Matches(s) {
		return false, false
	}
	return r.Limit == Unlimited || r.Sum(u) < r.Limit, true
}

// EvaluateDelta is Evaluate for a write that adds delta bytes to bucket b:
// with delta <= 0 it is Evaluate (Forgejo's answer); with delta > 0 it is
// allowed iff the limit is -1, or Sum(u) < Limit and the sum after the
// write, Sum(u with b += delta), is at most Limit: the write may reach the
// limit, never cross it.
func (r Rule) EvaluateDelta(u Used, s Subject, b Bucket, delta int64) (allowed, matched bool) {
	allowed, matched = r.Evaluate(u, s)
	if !matched || !allowed || delta <= 0 || r.Limit < 0 {
		return allowed, matched
	}
	// Sum after = Sum(u) + k*delta where k is the number of r's subjects
	// counting b; compared without overflow.
	k := int64(0)
	for _, rs := range r.Subjects {
		if rs.Covers(b.Subject()) {
			k++
		}
	}
	if k == 0 {
		return true, true
	}
	return delta <= (r.Limit-r.Sum(u))/k, true
}
