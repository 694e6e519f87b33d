package memgit

import "testing"

func TestValidRefName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"refs/heads/main", true},
		{"refs/heads/feature/x-1", true},
		{"refs/tags/v1.0", true},
		{"refs/x", true},
		{"refs/heads/ünïcode", true},
		{"main", false},
		{"refs/", false},
		{"refs/heads/", false},
		{"refs/heads//x", false},
		{"refs/heads/a..b", false},
		{"refs/heads/.hidden", false},
		{"refs/heads/x.lock", false},
		{"refs/heads/x.", false},
		{"refs/heads/a b", false},
		{"refs/heads/a~1", false},
		{"refs/heads/a^", false},
		{"refs/heads/a:b", false},
		{"refs/heads/a?", false},
		{"refs/heads/a*", false},
		{"refs/heads/a[", false},
		{"refs/heads/a\\b", false},
		{"refs/heads/a@{1}", false},
		{"refs/heads/a\x01", false},
		{"refs/heads/a\x7f", false},
	} {
		if got := validRefName(tc.name); got != tc.ok {
			t.Errorf("validRefName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
