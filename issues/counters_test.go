package issues_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/hearthforge/hearth/issues"
)

func TestMilestoneDelta(t *testing.T) {
	t.Parallel()
	none := issues.Placement{}
	open := func(m int64) issues.Placement { return issues.Placement{Exists: true, MilestoneID: m} }
	closed := func(m int64) issues.Placement { return issues.Placement{Exists: true, MilestoneID: m, Closed: true} }
	type d = issues.CounterDelta
	for _, tt := range []struct {
		name          string
		before, after issues.Placement
		want          []d
	}{
		{"create without milestone", none, open(0), nil},
		{"create open in 1", none, open(1), []d{{1, 1, 0}}},
		{"create closed in 1", none, closed(1), []d{{1, 1, 1}}},
		{"delete open from 1", open(1), none, []d{{1, -1, 0}}},
		{"delete closed from 1", closed(1), none, []d{{1, -1, -1}}},
		{"close in 1", open(1), closed(1), []d{{1, 0, 1}}},
		{"reopen in 1", closed(1), open(1), []d{{1, 0, -1}}},
		{"unchanged", open(1), open(1), nil},
		{"move open 1 to 2", open(1), open(2), []d{{1, -1, 0}, {2, 1, 0}}},
		{"move and close", open(1), closed(2), []d{{1, -1, 0}, {2, 1, 1}}},
		{"remove milestone of closed", closed(1), closed(0), []d{{1, -1, -1}}},
		{"close without milestone", open(0), closed(0), nil},
	} {
		got := issues.MilestoneDelta(tt.before, tt.after)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, diff)
		}
	}
}

func TestCounterDeltaApply(t *testing.T) {
	t.Parallel()
	m := &issues.Milestone{NumIssues: 2, NumClosedIssues: 1}
	issues.CounterDelta{Issues: 1, Close: 1}.Apply(m)
	if m.NumIssues != 3 || m.NumClosedIssues != 2 || m.NumOpenIssues() != 1 {
		t.Fatalf("got %+v", m)
	}
	issues.CounterDelta{Issues: -5, Close: -5}.Apply(m)
	if m.NumIssues != 0 || m.NumClosedIssues != 0 {
		t.Fatalf("counters went below zero: %+v", m)
	}
}
