package quota_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

var on = quota.Config{Enabled: true}

func rule(limit int64, subjects ...quota.Subject) quota.Rule {
	return quota.Rule{Name: "r", Limit: limit, Subjects: subjects}
}

func group(rules ...quota.Rule) quota.Group { return quota.Group{Name: "g", Rules: rules} }

// TestEvaluate covers every line of spec/quota.md §4.
func TestEvaluate(t *testing.T) {
	t.Parallel()
	used := quota.Used{ReposPublic: 10, ReposPrivate: 20, LFS: 5, AttachmentsIssues: 3, AttachmentsReleases: 4,
		Artifacts: 2, Packages: 6} // all = 50, git = 35, repos = 30, assets = 15
	tests := []struct {
		name   string
		cfg    quota.Config
		groups []quota.Group
		used   quota.Used
		s      quota.Subject
		want   bool
	}{
		// §4.1
		{"1 disabled allows everything", quota.Config{}, []quota.Group{group(rule(0, quota.SubjectAll))}, used, quota.SubjectAll, true},
		{"1 disabled allows none", quota.Config{}, nil, used, quota.SubjectNone, true},
		// §4.3 matching by ancestors
		{"3 rule on the subject itself", on, []quota.Group{group(rule(100, quota.SubjectReposAll))}, used, quota.SubjectReposAll, true},
		{"3 rule on an ancestor matches", on, []quota.Group{group(rule(30, quota.SubjectAll))}, used, quota.SubjectReposPrivate, false},
		{"3 repos:all's parent is git:all", on, []quota.Group{group(rule(30, quota.SubjectGitAll))}, used, quota.SubjectReposAll, false},
		{"3 descendant rule does not match (lfs vs all)", on, []quota.Group{group(rule(0, quota.SubjectGitLFS))}, used, quota.SubjectAll, false},
		{"3 descendant-only rule leaves subject uncovered", on, []quota.Group{group(rule(0, quota.SubjectGitLFS), rule(1000, quota.SubjectArtifacts))}, used, quota.SubjectReposAll, false},
		{"3 sibling rule does not match", on, []quota.Group{group(rule(-1, quota.SubjectAssetsAll))}, used, quota.SubjectGitLFS, false},
		// §4.4 sum over the rule's subjects, not the checked subject
		{"4 sum of listed subjects denies", on, []quota.Group{group(rule(15, quota.SubjectGitLFS, quota.SubjectAssetsAll))}, used, quota.SubjectGitLFS, false},
		{"4 sum of listed subjects allows", on, []quota.Group{group(rule(21, quota.SubjectGitLFS, quota.SubjectAssetsAll))}, used, quota.SubjectGitLFS, true},
		{"4 rule value is not the checked subject's", on, []quota.Group{group(rule(40, quota.SubjectAll))}, used, quota.SubjectGitLFS, false},
		{"4 overlapping subjects double count", on, []quota.Group{group(rule(80, quota.SubjectAll, quota.SubjectReposAll))}, used, quota.SubjectAll, false},
		{"4 overlapping subjects under the doubled sum", on, []quota.Group{group(rule(81, quota.SubjectAll, quota.SubjectReposAll))}, used, quota.SubjectAll, true},
		{"4 wiki counts 0", on, []quota.Group{group(rule(1, quota.SubjectWiki))}, used, quota.SubjectWiki, true},
		{"4 wiki checked under assets rule", on, []quota.Group{group(rule(15, quota.SubjectAssetsAll))}, used, quota.SubjectWiki, false},
		// §4.5 limits
		{"5 -1 unlimited", on, []quota.Group{group(rule(-1, quota.SubjectAll))}, used, quota.SubjectAll, true},
		{"5 limit 0 denies with zero usage", on, []quota.Group{group(rule(0, quota.SubjectAll))}, quota.Used{}, quota.SubjectAll, false},
		{"5 usage equal to the limit is denied", on, []quota.Group{group(rule(50, quota.SubjectAll))}, used, quota.SubjectAll, false},
		{"5 usage below the limit is allowed", on, []quota.Group{group(rule(51, quota.SubjectAll))}, used, quota.SubjectAll, true},
		{"5 other negative limits are not unlimited", on, []quota.Group{group(rule(-2, quota.SubjectAll))}, quota.Used{}, quota.SubjectAll, false},
		// §4.6 within a group every matching rule must allow
		{"6 all matching rules allow", on, []quota.Group{group(rule(100, quota.SubjectAll), rule(31, quota.SubjectReposAll))}, used, quota.SubjectReposPublic, true},
		{"6 one matching rule denies", on, []quota.Group{group(rule(100, quota.SubjectAll), rule(30, quota.SubjectReposAll))}, used, quota.SubjectReposPublic, false},
		{"6 a denying rule that does not match is ignored", on, []quota.Group{group(rule(100, quota.SubjectAll), rule(0, quota.SubjectGitLFS))}, used, quota.SubjectReposPublic, true},
		// §4.7 across groups any matching and allowing group suffices
		{"7 one allowing group suffices", on, []quota.Group{group(rule(0, quota.SubjectAll)), group(rule(-1, quota.SubjectAll))}, used, quota.SubjectReposAll, true},
		{"7 all groups deny", on, []quota.Group{group(rule(0, quota.SubjectAll)), group(rule(10, quota.SubjectGitAll))}, used, quota.SubjectReposAll, false},
		{"7 a non-matching group does not allow", on, []quota.Group{group(rule(-1, quota.SubjectAssetsAll)), group(rule(0, quota.SubjectGitAll))}, used, quota.SubjectReposAll, false},
		{"7 not covered is denied", on, []quota.Group{group(rule(-1, quota.SubjectAssetsAll))}, used, quota.SubjectReposAll, false},
		{"7 no groups at all is denied", on, []quota.Group{}, used, quota.SubjectAll, false},
		{"7 empty group is denied", on, []quota.Group{{Name: "empty"}}, used, quota.SubjectAll, false},
		// §4.8 none
		{"8 none never matches ordinary rules", on, []quota.Group{group(rule(-1, quota.SubjectAll))}, quota.Used{}, quota.SubjectNone, false},
		{"8 a rule listing none matches it", on, []quota.Group{group(rule(-1, quota.SubjectNone))}, quota.Used{}, quota.SubjectNone, true},
		// §4.9 empty subject list
		{"9 rule with no subjects matches nothing", on, []quota.Group{group(rule(-1))}, quota.Used{}, quota.SubjectAll, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quota.Evaluate(tt.cfg, tt.groups, tt.used, tt.s); got != tt.want {
				t.Errorf("Evaluate = %v, want %v", got, tt.want)
			}
			// §4.10: a delta of 0 is exactly Forgejo's answer.
			if got := quota.EvaluateDelta(tt.cfg, tt.groups, tt.used, tt.s, quota.BucketLFS, 0); got != tt.want {
				t.Errorf("EvaluateDelta(0) = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestEvaluateDelta: §4.10 says Forgejo lets one write overshoot; with the
// size of the write, Hearth refuses the write that would cross the limit.
func TestEvaluateDelta(t *testing.T) {
	t.Parallel()
	g := []quota.Group{group(rule(100, quota.SubjectAll))}
	used := quota.Used{AttachmentsIssues: 90}
	tests := []struct {
		name  string
		used  quota.Used
		b     quota.Bucket
		delta int64
		want  bool
	}{
		{"Forgejo lets 90 + 50 through with delta 0", used, quota.BucketAttachmentsIssues, 0, true},
		{"the write may reach the limit", used, quota.BucketAttachmentsIssues, 10, true},
		{"the write may not cross it", used, quota.BucketAttachmentsIssues, 11, false},
		{"a write into a bucket the rule does not sum passes", used, "", 1000, true},
		{"a negative delta is Forgejo's answer", quota.Used{AttachmentsIssues: 100}, quota.BucketAttachmentsIssues, -5, false},
		{"a huge delta does not overflow", used, quota.BucketAttachmentsIssues, 1<<63 - 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quota.EvaluateDelta(on, g, tt.used, quota.SubjectAttachmentsIssues, tt.b, tt.delta); got != tt.want {
				t.Errorf("EvaluateDelta = %v, want %v", got, tt.want)
			}
		})
	}
	// Overlapping subjects count the delta twice.
	double := []quota.Group{group(rule(100, quota.SubjectAll, quota.SubjectAssetsAll))}
	if !quota.EvaluateDelta(on, double, quota.Used{}, quota.SubjectAll, quota.BucketArtifacts, 50) {
		t.Error("2*50 reaches 100: allowed")
	}
	if quota.EvaluateDelta(on, double, quota.Used{}, quota.SubjectAll, quota.BucketArtifacts, 51) {
		t.Error("2*51 crosses 100: denied")
	}
	if !quota.EvaluateDelta(quota.Config{}, double, quota.Used{}, quota.SubjectAll, quota.BucketArtifacts, 1000) {
		t.Error("disabled: allowed")
	}
	// Unlimited rule with a delta.
	if !quota.EvaluateDelta(on, []quota.Group{group(rule(-1, quota.SubjectAll))}, used, quota.SubjectAll, quota.BucketLFS, 1<<62) {
		t.Error("unlimited: allowed")
	}
}

// TestSelectGroups covers §4.2.
func TestSelectGroups(t *testing.T) {
	t.Parallel()
	explicit := []quota.Group{{Name: "mine"}}
	defaults := []quota.Group{{Name: "default"}}
	if gs, real := quota.SelectGroups(on, explicit, defaults); !real || gs[0].Name != "mine" {
		t.Errorf("explicit membership replaces the defaults: %v %v", gs, real)
	}
	if gs, real := quota.SelectGroups(on, nil, defaults); !real || gs[0].Name != "default" {
		t.Errorf("no membership: DEFAULT_GROUPS: %v %v", gs, real)
	}
	gs, real := quota.SelectGroups(quota.Config{Enabled: true, DefaultTotal: 1000}, nil, nil)
	if real || len(gs) != 1 || gs[0].Name != quota.BuiltinGroupName || gs[0].Rules[0].Name != quota.BuiltinRuleName ||
		gs[0].Rules[0].Limit != 1000 || len(gs[0].Rules[0].Subjects) != 1 || gs[0].Rules[0].Subjects[0] != quota.SubjectAll {
		t.Errorf("built-in default: %+v %v", gs, real)
	}
	if quota.Evaluate(on, gs, quota.Used{LFS: 1000}, quota.SubjectGitLFS) {
		t.Error("built-in rule limits size:all")
	}
	if gs, _ := quota.SelectGroups(on, nil, nil); gs[0].Rules[0].Limit != -1 {
		t.Errorf("built-in default is unlimited by default: %+v", gs)
	}
}

func TestSubjects(t *testing.T) {
	t.Parallel()
	for i, s := range quota.Subjects {
		got, err := quota.ParseSubject(s.String())
		if err != nil || got != s || s.Ordinal() != i {
			t.Errorf("ParseSubject(%q) = %q, %v; ordinal %d want %d", s, got, err, s.Ordinal(), i)
		}
	}
	for _, bad := range []string{"", "size", "SIZE:ALL", "size:all "} {
		_, err := quota.ParseSubject(bad)
		if !errors.Is(err, forge.ErrInvalid) || err.Error() != "unrecognized quota limit subject: [subject: "+bad+"]" {
			t.Errorf("ParseSubject(%q) = %v", bad, err)
		}
	}
	parents := map[quota.Subject]quota.Subject{
		quota.SubjectAll: "", quota.SubjectNone: "", quota.SubjectGitAll: quota.SubjectAll,
		quota.SubjectReposAll: quota.SubjectGitAll, quota.SubjectReposPublic: quota.SubjectReposAll,
		quota.SubjectReposPrivate: quota.SubjectReposAll, quota.SubjectGitLFS: quota.SubjectGitAll,
		quota.SubjectAssetsAll: quota.SubjectAll, quota.SubjectAttachmentsAll: quota.SubjectAssetsAll,
		quota.SubjectAttachmentsIssues: quota.SubjectAttachmentsAll, quota.SubjectAttachmentsReleases: quota.SubjectAttachmentsAll,
		quota.SubjectArtifacts: quota.SubjectAssetsAll, quota.SubjectPackagesAll: quota.SubjectAssetsAll,
		quota.SubjectWiki: quota.SubjectAssetsAll,
	}
	for s, p := range parents {
		if s.Parent() != p {
			t.Errorf("%s.Parent() = %q, want %q", s, s.Parent(), p)
		}
	}
	var s quota.Subject
	if err := s.UnmarshalText([]byte("size:git:lfs")); err != nil || s != quota.SubjectGitLFS {
		t.Errorf("UnmarshalText: %v %v", s, err)
	}
	if err := s.UnmarshalText([]byte("nope")); err == nil {
		t.Error("UnmarshalText accepted nope")
	}
}

// TestUsedOf covers §3 fact 5: the aggregates.
func TestUsedOf(t *testing.T) {
	t.Parallel()
	u := quota.Used{ReposPublic: 1, ReposPrivate: 2, LFS: 4, AttachmentsIssues: 8, AttachmentsReleases: 16,
		Artifacts: 32, Packages: 64}
	want := map[quota.Subject]int64{
		quota.SubjectAll: 127, quota.SubjectGitAll: 7, quota.SubjectReposAll: 3, quota.SubjectReposPublic: 1,
		quota.SubjectReposPrivate: 2, quota.SubjectGitLFS: 4, quota.SubjectAssetsAll: 120,
		quota.SubjectAttachmentsAll: 24, quota.SubjectAttachmentsIssues: 8, quota.SubjectAttachmentsReleases: 16,
		quota.SubjectArtifacts: 32, quota.SubjectPackagesAll: 64, quota.SubjectWiki: 0, quota.SubjectNone: 0,
	}
	for s, n := range want {
		if got := u.Of(s); got != n {
			t.Errorf("Of(%s) = %d, want %d", s, got, n)
		}
	}
	for _, b := range quota.Buckets {
		if u.Get(b) != u.Of(b.Subject()) {
			t.Errorf("bucket %s", b)
		}
	}
	if err := u.Add("size:all", 1); !errors.Is(err, forge.ErrInvalid) {
		t.Errorf("Add to an aggregate: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"": -1, "1024": 1024, "1 GiB": 1 << 30, "500MB": 500e6, "2 KiB": 2048, "1.5 MiB": 3 << 19,
		"lots": -1, "10 XB": -1, "99999999 EiB": -1, "0": 0,
	} {
		if got := quota.ParseSize(in); got != want {
			t.Errorf("ParseSize(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestExceededError(t *testing.T) {
	t.Parallel()
	var err error = &quota.ExceededError{UserID: 3, Username: "org"}
	if !errors.Is(err, quota.ErrExceeded) || !errors.Is(err, forge.ErrPrecondition) || err.Error() != "quota exceeded" {
		t.Errorf("ExceededError: %v", err)
	}
}

// TestAllowance: Allowance is the largest delta EvaluateDelta allows.
func TestAllowance(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	subjects := quota.Subjects
	for range 3000 {
		var groups []quota.Group
		for range rng.IntN(3) + 1 {
			var g quota.Group
			for range rng.IntN(3) + 1 {
				r := quota.Rule{Limit: rng.Int64N(200) - 1}
				for range rng.IntN(3) {
					r.Subjects = append(r.Subjects, subjects[rng.IntN(len(subjects))])
				}
				g.Rules = append(g.Rules, r)
			}
			groups = append(groups, g)
		}
		u := quota.Used{ReposPublic: rng.Int64N(50), ReposPrivate: rng.Int64N(50), LFS: rng.Int64N(50)}
		s, b := subjects[rng.IntN(len(subjects))], quota.Buckets[rng.IntN(len(quota.Buckets))]
		allow, ok := quota.Allowance(on, groups, u, s, b)
		if ok != quota.Evaluate(on, groups, u, s) {
			t.Fatalf("ok %v for %+v %v", ok, groups, s)
		}
		if !ok {
			continue
		}
		if allow < 0 {
			if !quota.EvaluateDelta(on, groups, u, s, b, 1<<40) {
				t.Fatalf("unlimited but %d refused: %+v", int64(1<<40), groups)
			}
			continue
		}
		if !quota.EvaluateDelta(on, groups, u, s, b, allow) || quota.EvaluateDelta(on, groups, u, s, b, allow+1) {
			t.Fatalf("allowance %d wrong for %+v %+v %s %s", allow, groups, u, s, b)
		}
	}
	if a, ok := quota.Allowance(quota.Config{}, nil, quota.Used{}, quota.SubjectAll, quota.BucketLFS); a != -1 || !ok {
		t.Error("disabled: unlimited")
	}
}
