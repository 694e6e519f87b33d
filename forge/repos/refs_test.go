package repos

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

func TestCheckRefName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"main", true}, {"feature/x", true}, {"v1.0", true}, {"rel-1_2", true}, {"ünïcode", true}, {"a@b", true},
		{strings.Repeat("a", MaxRefNameLength), true},
		{"", false}, {"HEAD", false}, {"@", false}, {"refs/heads/x", false}, {"-x", false}, {"-n", false},
		{"a..b", false}, {"a@{1}", false}, {"a\x01b", false}, {"a\x7fb", false}, {"x.lock", false},
		{"x.lock/y", false}, {"a b", false}, {"a~1", false}, {"a^", false}, {"a:b", false}, {"a?", false},
		{"a*", false}, {"a[b", false}, {"a\\b", false}, {"a\nb", false}, {"/a", false}, {"a/", false},
		{"a//b", false}, {"a.", false}, {".a", false}, {"a/.b", false},
		{strings.Repeat("a", MaxRefNameLength+1), false},
	} {
		err := CheckRefName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckRefName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, forge.ErrInvalid) {
			t.Errorf("CheckRefName(%q) = %v, not forge.ErrInvalid", tc.name, err)
		}
	}
}

func TestCheckRevision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rev string
		ok  bool
	}{
		{"main", true}, {"refs/heads/main", true}, {"refs/tags/v1", true}, {"0123456789abcdef0123456789abcdef01234567", true},
		{"", false}, {"-o", false}, {"--upload-pack=x", false}, {"main~1", false}, {"a..b", false}, {"refs/heads/", false},
		{"refs/heads/-x", false}, {"HEAD", false}, {"main\n", false},
	} {
		if err := CheckRevision(tc.rev); (err == nil) != tc.ok {
			t.Errorf("CheckRevision(%q) = %v, want ok=%v", tc.rev, err, tc.ok)
		}
	}
}

func TestCanPushBranch(t *testing.T) {
	t.Parallel()
	ann, bob := &forge.User{ID: 1, Name: "ann"}, &forge.User{ID: 2, Name: "bob"}
	for i, tc := range []struct {
		rule *BranchProtection
		user *forge.User
		want bool
	}{
		{nil, bob, true},
		{&BranchProtection{RuleName: "main"}, bob, false},
		{&BranchProtection{RuleName: "main", EnablePush: true}, bob, true},
		{&BranchProtection{RuleName: "main", EnablePush: true, EnablePushWhitelist: true, PushWhitelistUserIDs: []forge.ID{1}}, ann, true},
		{&BranchProtection{RuleName: "main", EnablePush: true, EnablePushWhitelist: true, PushWhitelistUserIDs: []forge.ID{1}}, bob, false},
		{&BranchProtection{RuleName: "main", EnablePush: true, EnablePushWhitelist: true, PushWhitelistUserIDs: []forge.ID{1}}, nil, false},
	} {
		if got := CanPushBranch(tc.rule, forge.Actor{User: tc.user}.UserID()); got != tc.want {
			t.Errorf("%d: CanPushBranch = %v, want %v", i, got, tc.want)
		}
	}
}

func TestCheckRefUpdate(t *testing.T) {
	t.Parallel()
	ann, bob := &forge.User{ID: 1, Name: "ann"}, &forge.User{ID: 2, Name: "bob"}
	const zero, a, b = "0000000000000000000000000000000000000000", "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	rules := RefRules{
		Branches: []*BranchProtection{
			{RuleName: "main", EnablePush: true},
			{RuleName: "release/*", EnablePush: true, EnablePushWhitelist: true, PushWhitelistUserIDs: []forge.ID{1}},
			{RuleName: "frozen"},
		},
		Tags:          []*TagProtection{{NamePattern: "v*", WhitelistUserIDs: []forge.ID{1}}},
		DefaultBranch: "main",
	}
	for _, tc := range []struct {
		name   string
		rules  RefRules
		user   *forge.User
		u      RefUpdate
		ffOnly bool
		why    RefRefusal
	}{
		{"plain branch push", rules, bob, RefUpdate{"refs/heads/dev", a, b}, false, RefAllowed},
		{"plain branch delete", rules, bob, RefUpdate{"refs/heads/dev", a, zero}, false, RefAllowed},
		{"protected push fast-forward only", rules, bob, RefUpdate{"refs/heads/main", a, b}, true, RefAllowed},
		{"protected delete", rules, ann, RefUpdate{"refs/heads/release/1", a, ""}, false, RefBranchDeletion},
		{"default delete", rules, ann, RefUpdate{"refs/heads/main", a, zero}, false, RefDefaultBranch},
		{"default delete of an empty repository", RefRules{DefaultBranch: "main", Empty: true}, ann, RefUpdate{"refs/heads/main", a, zero}, false, RefAllowed},
		{"default rename (no default)", RefRules{}, ann, RefUpdate{"refs/heads/main", a, zero}, false, RefAllowed},
		{"create protected name, not whitelisted", rules, bob, RefUpdate{"refs/heads/release/2", "", a}, false, RefBranchPush},
		{"create protected name, whitelisted", rules, ann, RefUpdate{"refs/heads/release/2", zero, a}, false, RefAllowed},
		{"push disabled", rules, ann, RefUpdate{"refs/heads/frozen", a, b}, false, RefBranchPush},
		{"protected tag", rules, bob, RefUpdate{"refs/tags/v1", "", a}, false, RefTag},
		{"protected tag delete", rules, bob, RefUpdate{"refs/tags/v1", a, ""}, false, RefTag},
		{"protected tag whitelisted", rules, ann, RefUpdate{"refs/tags/v1", "", a}, false, RefAllowed},
		{"free tag", rules, bob, RefUpdate{"refs/tags/nightly", "", a}, false, RefAllowed},
		{"other refs", rules, bob, RefUpdate{"refs/notes/x", a, zero}, false, RefAllowed},
	} {
		ff, why := CheckRefUpdate(tc.rules, forge.Actor{User: tc.user}.UserID(), tc.u)
		if ff != tc.ffOnly || why != tc.why {
			t.Errorf("%s: CheckRefUpdate = %v, %q; want %v, %q", tc.name, ff, why, tc.ffOnly, tc.why)
		}
	}
}

func TestRefChangeError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  RefChangeError
		want string
	}{
		{RefChangeError{"refs/heads/main", RefBranchDeletion}, "branch main is protected from deletion"},
		{RefChangeError{"refs/heads/main", RefBranchPush}, "Not allowed to push to protected branch main"},
		{RefChangeError{"refs/heads/main", RefDefaultBranch}, "branch main is the default branch and cannot be deleted"},
		{RefChangeError{"refs/tags/v1", RefTag}, "Tag v1 is protected"},
	} {
		if got := tc.err.Error(); got != tc.want || !errors.Is(&tc.err, forge.ErrForbidden) {
			t.Errorf("%v: %q, want %q (forbidden)", tc.err, got, tc.want)
		}
	}
}

func TestCheckTagPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p  string
		ok bool
	}{{"v*", true}, {"/^v\\d+$/", true}, {"", false}, {"  ", false}, {"/(/", false}} {
		if err := CheckTagPattern(tc.p); (err == nil) != tc.ok {
			t.Errorf("CheckTagPattern(%q) = %v", tc.p, err)
		}
	}
}

func TestValidDownloadURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		u  string
		ok bool
	}{
		{"https://example.com/a.tar.gz", true}, {"http://example.com/", true},
		{"javascript:alert(1)", false}, {"JavaScript://example.com/%0aalert(1)", false}, {"data:text/html,<b>", false},
		{"file:///etc/passwd", false}, {"//example.com/x", false}, {"https:///x", false}, {"", false}, {"vbscript:x", false},
	} {
		if got := ValidDownloadURL(tc.u); got != tc.ok {
			t.Errorf("ValidDownloadURL(%q) = %v", tc.u, got)
		}
	}
}

// The typed edits cannot name another rule: they have no identity fields,
// so the closure attack of issue 9 (setting ID or RepoID) cannot be written.
func TestProtectionEditsCarryNoIdentity(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{reflect.TypeOf(ProtectionEdit{}), reflect.TypeOf(TagProtectionEdit{})} {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Name == "ID" || f.Name == "RepoID" || f.Name == "RuleName" || f.Type.Kind() != reflect.Pointer {
				t.Errorf("%s.%s: edits are pointer fields of the rule's settings only", typ.Name(), f.Name)
			}
		}
	}
	// Apply leaves the identity alone and nil fields unchanged.
	p := &BranchProtection{ID: 7, RepoID: 3, RuleName: "main", EnablePush: true, StatusCheckContexts: []string{"ci"}}
	no, empty := false, []string{}
	ProtectionEdit{EnablePush: &no, StatusCheckContexts: &empty}.Apply(p)
	if p.ID != 7 || p.RepoID != 3 || p.RuleName != "main" || p.EnablePush || len(p.StatusCheckContexts) != 0 {
		t.Errorf("Apply = %+v", p)
	}
	q := &BranchProtection{EnablePush: true, PushWhitelistUsernames: []string{"a"}}
	ProtectionEdit{}.Apply(q)
	if !q.EnablePush || len(q.PushWhitelistUsernames) != 1 {
		t.Errorf("empty edit changed the rule: %+v", q)
	}
}

func TestApplyReleaseEmptyStringsLeaveFields(t *testing.T) {
	t.Parallel()
	r := &Release{TagName: "v1", Target: "main", Name: "One", Body: "notes"}
	empty, yes := "", true
	applyRelease(r, ReleaseOptions{TagName: &empty, Target: &empty, Name: &empty, Body: &empty, Draft: &yes})
	if r.TagName != "v1" || r.Target != "main" || r.Name != "One" || r.Body != "notes" || !r.Draft {
		t.Errorf("applyRelease = %+v", r)
	}
	v2 := "v2"
	applyRelease(r, ReleaseOptions{TagName: &v2})
	if r.TagName != "v2" {
		t.Errorf("TagName = %q", r.TagName)
	}
}
