package rules_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/examples/rules"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The updated_at rule used with no database.
func TestImportStamp(t *testing.T) {
	t.Parallel()
	created := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	now := created.AddDate(0, 1, 0)
	source := created.AddDate(0, 0, 3)
	owner := forge.Permission{Mode: forge.AccessModeOwner}
	writer := forge.Permission{Mode: forge.AccessModeWrite}
	for _, c := range []struct {
		name   string
		perm   forge.Permission
		source *time.Time
		want   time.Time
		msg    string
	}{
		{"owner keeps the source date", owner, &source, source, ""},
		{"no source date: now", writer, nil, now, ""},
		{"writer may not backdate", writer, &source, time.Time{}, "user needs to have admin or repository owner right to set an update date"},
		{"not before creation", owner, ptr(created.Add(-time.Minute)), time.Time{}, "unallowed update date, because given date must be between issue creation date and now"},
		{"not in the future", owner, ptr(now.Add(time.Minute)), time.Time{}, "unallowed update date, because given date must be between issue creation date and now"},
	} {
		got, err := rules.ImportStamp(c.perm, created, c.source, now)
		if c.msg != "" {
			if !errors.Is(err, forge.ErrForbidden) || err.Error() != c.msg {
				t.Errorf("%s: err = %v, want 403 %q", c.name, err, c.msg)
			}
			continue
		}
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// The exclusivity rule used with no database.
func TestPrioritise(t *testing.T) {
	t.Parallel()
	high := &issues.Label{ID: 1, Name: "priority/high", Exclusive: true}
	low := &issues.Label{ID: 2, Name: "priority/low", Exclusive: true}
	note := &issues.Label{ID: 3, Name: "priority/note"} // not exclusive: stays
	bug := &issues.Label{ID: 4, Name: "bug"}
	names := func(ls []*issues.Label) string {
		var s []string
		for _, l := range ls {
			s = append(s, l.Name)
		}
		return strings.Join(s, ",")
	}
	after, removed := rules.Prioritise([]*issues.Label{bug, high, note}, low)
	if names(after) != "bug,priority/note,priority/low" || names(removed) != "priority/high" {
		t.Fatalf("after %q removed %q", names(after), names(removed))
	}
	after, removed = rules.Prioritise(after, low)
	if names(after) != "bug,priority/note,priority/low" || len(removed) != 0 {
		t.Fatalf("again: after %q removed %q", names(after), names(removed))
	}
}
