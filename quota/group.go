package quota

// Group is a named set of rules (Forgejo's quota_group with its
// quota_group_rule_mapping rows). Users and organisations are members of
// groups.
type Group struct {
	Name  string
	Rules []Rule
}

// Evaluate is Forgejo's Group.Evaluate: the group matches s if one of its
// rules does, and allows iff every matching rule allows.
func (g Group) Evaluate(u Used, s Subject) (allowed, matched bool) {
	return g.EvaluateDelta(u, s, "", 0)
}

// EvaluateDelta is Evaluate with each rule's EvaluateDelta.
func (g Group) EvaluateDelta(u Used, s Subject, b Bucket, delta int64) (allowed, matched bool) {
	for _, r := range g.Rules {
		ok, m := r.EvaluateDelta(u, s, b, delta)
		if !m {
			continue
		}
		matched = true
		if !ok {
			return false, true
		}
	}
	return matched, matched
}

// Builtin group and rule names: the fallback when an owner has no group
// (models/quota/default.go). They never appear in API output.
const (
	BuiltinGroupName = "builtin-default-group"
	BuiltinRuleName  = "builtin-default-rule"
)

// BuiltinGroup is the fallback group of cfg: one rule limiting size:all to
// cfg's default total.
func BuiltinGroup(cfg Config) Group {
	return Group{Name: BuiltinGroupName, Rules: []Rule{{
		Name: BuiltinRuleName, Limit: cfg.DefaultLimit(), Subjects: []Subject{SubjectAll},
	}}}
}

// SelectGroups returns the groups that apply to an owner
// (models/quota/group.go GetGroupsForUser): its explicit groups when it has
// any (they replace the defaults entirely); else defaults, the existing
// groups named in Config.DefaultGroups; else the built-in group of cfg.
// The second result is false when the built-in group was chosen (it is
// never shown: the API lists no groups then).
func SelectGroups(cfg Config, explicit, defaults []Group) ([]Group, bool) {
	if len(explicit) > 0 {
		return explicit, true
	}
	if len(defaults) > 0 {
		return defaults, true
	}
	return []Group{BuiltinGroup(cfg)}, false
}

// Evaluate is the whole of Forgejo's evaluation (models/quota/quota.go
// EvaluateForUser and group.go GroupList.Evaluate) as a pure function of
// the configuration, the groups SelectGroups chose for the owner and the
// owner's usage:
//
//   - quota disabled: allowed;
//   - otherwise allowed iff at least one group both matches s (one of its
//     rules lists s or an ancestor of s) and allows (every matching rule of
//     the group has sum < limit, or limit -1);
//   - an owner whose groups have no rule matching s is denied ("not
//     covered" is denied; so is none, which no ordinary rule matches).
//
// There is no administrator bypass: the owner's quota applies whoever acts.
func Evaluate(cfg Config, groups []Group, u Used, s Subject) bool {
	return EvaluateDelta(cfg, groups, u, s, "", 0)
}

// EvaluateDelta is Evaluate for a write that adds delta bytes to bucket b
// (Rule.EvaluateDelta): with delta <= 0 it is exactly Evaluate; with
// delta > 0 a group allows only if no matching rule's sum would pass its
// limit after the write.
func EvaluateDelta(cfg Config, groups []Group, u Used, s Subject, b Bucket, delta int64) bool {
	if !cfg.Enabled {
		return true
	}
	for _, g := range groups {
		if ok, _ := g.EvaluateDelta(u, s, b, delta); ok {
			return true
		}
	}
	return false
}

// Allowance is the largest delta a write into bucket b, checked against
// subject s, may bring (EvaluateDelta(cfg, groups, u, s, b, delta) holds
// exactly for delta <= allowance): -1 when nothing limits it. ok is false
// when even a write of 0 bytes is refused (Evaluate is false). The git
// transport uses it to refuse a pack before it lands.
func Allowance(cfg Config, groups []Group, u Used, s Subject, b Bucket) (allowance int64, ok bool) {
	if !cfg.Enabled {
		return -1, true
	}
	best, ok := int64(0), false
	for _, g := range groups {
		a, allowed := g.allowance(u, s, b)
		if !allowed {
			continue
		}
		if a < 0 {
			return -1, true
		}
		if !ok || a > best {
			best, ok = a, true
		}
	}
	return best, ok
}

// allowance is Allowance for one group: the smallest allowance of its
// matching rules (-1: none limits), allowed when it matches and every
// matching rule allows a write of 0.
func (g Group) allowance(u Used, s Subject, b Bucket) (int64, bool) {
	out, matched := int64(-1), false
	for _, r := range g.Rules {
		ok, m := r.Evaluate(u, s)
		if !m {
			continue
		}
		matched = true
		if !ok {
			return 0, false
		}
		if r.Limit == Unlimited {
			continue
		}
		k := int64(0)
		for _, rs := range r.Subjects {
			if rs.Covers(b.Subject()) {
				k++
			}
		}
		if k == 0 {
			continue
		}
		if a := (r.Limit - r.Sum(u)) / k; out < 0 || a < out {
			out = a
		}
	}
	return out, matched
}
