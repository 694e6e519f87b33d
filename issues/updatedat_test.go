package issues_test

import (
	"errors"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestCheckUpdatedAt(t *testing.T) {
	t.Parallel()
	created := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	at := func(t time.Time) *time.Time { return &t }
	admin := forge.Permission{Mode: forge.AccessModeAdmin}
	owner := forge.Permission{Mode: forge.AccessModeOwner}
	writer := forge.Permission{Mode: forge.AccessModeWrite}
	const right = "user needs to have admin or repository owner right to set an update date"
	const rng = "unallowed update date, because given date must be between issue creation date and now"
	tests := []struct {
		name      string
		perm      forge.Permission
		requested *time.Time
		stamp     time.Time
		given     bool
		msg       string
	}{
		{"absent: now, automatic", writer, nil, now, false, ""},
		{"absent for a reader too", forge.Permission{Mode: forge.AccessModeRead}, nil, now, false, ""},
		{"owner in range", owner, at(created.Add(time.Hour)), created.Add(time.Hour), true, ""},
		{"admin in range", admin, at(created.Add(time.Hour)), created.Add(time.Hour), true, ""},
		{"exactly the creation", admin, at(created), created, true, ""},
		{"exactly now", admin, at(now), now, true, ""},
		{"fraction truncated to now", admin, at(now.Add(500 * time.Millisecond)), now, true, ""},
		{"other zone normalised", admin, at(created.Add(time.Hour).In(time.FixedZone("x", 3600))), created.Add(time.Hour), true, ""},
		{"writer refused", writer, at(created.Add(time.Hour)), time.Time{}, false, right},
		{"team unit writer refused", forge.Permission{Mode: forge.AccessModeRead, Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeAdmin}}, at(now), time.Time{}, false, right},
		{"before creation", admin, at(created.Add(-time.Second)), time.Time{}, false, rng},
		{"after now", owner, at(now.Add(time.Second)), time.Time{}, false, rng},
		{"right checked before range", writer, at(now.Add(time.Hour)), time.Time{}, false, right},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stamp, given, err := issues.CheckUpdatedAt(tt.perm, created, tt.requested, now)
			if tt.msg != "" {
				if !errors.Is(err, forge.ErrForbidden) || !errors.Is(err, issues.ErrUpdatedAt) || err.Error() != tt.msg {
					t.Fatalf("err = %v, want forbidden %q", err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !stamp.Equal(tt.stamp) || given != tt.given || stamp.Location() != time.UTC {
				t.Errorf("got %v %v, want %v %v", stamp, given, tt.stamp, tt.given)
			}
		})
	}
}

func TestLaterOf(t *testing.T) {
	t.Parallel()
	a := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	b := a.Add(time.Hour)
	for _, tt := range []struct{ x, y, want time.Time }{{a, b, b}, {b, a, b}, {a, a, a}} {
		if got := issues.LaterOf(tt.x, tt.y); !got.Equal(tt.want) {
			t.Errorf("LaterOf(%v, %v) = %v", tt.x, tt.y, got)
		}
	}
}
