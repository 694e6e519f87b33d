package issues

import "github.com/hearthforge/hearth/forge"

// Placement is where an issue stands for the counters: whether it exists,
// its milestone and whether it is closed.
type Placement struct {
	Exists      bool
	MilestoneID forge.ID
	Closed      bool
}

// PlacementOf returns the placement of an existing issue.
func PlacementOf(i *Issue) Placement {
	return Placement{Exists: true, MilestoneID: i.MilestoneID, Closed: i.IsClosed}
}

// CounterDelta is a change of one milestone's NumIssues and
// NumClosedIssues.
type CounterDelta struct {
	MilestoneID   forge.ID
	Issues, Close int
}

// MilestoneDelta returns how the counters of the milestones change when an
// issue goes from before to after (creation: before does not exist;
// deletion: after does not exist; a move, a close, a reopen or both). It
// returns nothing for a change that touches no milestone count, and at
// most one delta per milestone, old milestone first. Milestone 0 is none.
func MilestoneDelta(before, after Placement) []CounterDelta {
	var out []CounterDelta
	add := func(id forge.ID, issues, closed int) {
		if id == 0 || issues == 0 && closed == 0 {
			return
		}
		for i := range out {
			if out[i].MilestoneID == id {
				out[i].Issues += issues
				out[i].Close += closed
				return
			}
		}
		out = append(out, CounterDelta{MilestoneID: id, Issues: issues, Close: closed})
	}
	if before.Exists {
		add(before.MilestoneID, -1, -b2i(before.Closed))
	}
	if after.Exists {
		add(after.MilestoneID, 1, b2i(after.Closed))
	}
	// merge away zero deltas (same milestone, same state)
	kept := out[:0]
	for _, d := range out {
		if d.Issues != 0 || d.Close != 0 {
			kept = append(kept, d)
		}
	}
	return kept
}

// Apply changes m's counters by d (never below zero).
func (d CounterDelta) Apply(m *Milestone) {
	m.NumIssues = max(0, m.NumIssues+d.Issues)
	m.NumClosedIssues = max(0, min(m.NumIssues, m.NumClosedIssues+d.Close))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
