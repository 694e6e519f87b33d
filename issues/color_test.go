package issues_test

import (
	"errors"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestNormalizeColor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"#00aabb", "#00aabb"},
		{"00AABB", "#00aabb"},
		{"#AbC", "#aabbcc"},
		{"abc", "#aabbcc"},
		{"", ""},
		{"#", ""},
		{"##abc", ""},
		{"abcd", ""},
		{"#gggggg", ""},
		{"00aabb ", ""},
		{"#00aabbcc", ""},
		{"red", ""},
	} {
		got, err := issues.NormalizeColor(tt.in)
		if tt.want == "" {
			if !errors.Is(err, forge.ErrInvalid) || err.Error() != "bad color code: "+tt.in {
				t.Errorf("NormalizeColor(%q) = %q, %v; want bad color code", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeColor(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
