package issues

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// change is one write to an issue inside one transaction: the stamp every
// row it writes is dated with (the given updated_at, or now), the timeline
// comments it makes and the milestone counters it moves. Its methods run
// inside Store.Update; commit writes the issue and the counters last.
type change struct {
	tx     Tx
	actor  forge.Actor
	issue  *Issue
	before Placement
	now    time.Time
	stamp  time.Time
	given  bool
	dirty  bool
	// made are the comments recorded, for the events told after commit;
	// cleared marks a ClearLabels.
	made    []*Comment
	cleared bool
	// labels marks a label operation: it tells a label event even when
	// nothing changed, as Forgejo's label services always notify.
	labels bool
}

func newChange(tx Tx, actor forge.Actor, is *Issue, now, stamp time.Time, given bool) *change {
	before := PlacementOf(is)
	return &change{tx: tx, actor: actor, issue: is, before: before, now: now, stamp: stamp, given: given}
}

// comment records a timeline event (or a plain comment) dated with the
// stamp (rule 5: created and updated are the given date).
func (c *change) comment(ctx context.Context, cm *Comment) error {
	cm.IssueID = c.issue.ID
	cm.PosterID = c.actor.UserID()
	cm.Created, cm.Updated = c.stamp, c.stamp
	if cm.Type == CommentPlain {
		c.issue.NumComments++
	}
	c.dirty = true
	c.made = append(c.made, cm)
	return c.tx.CreateComment(ctx, cm)
}

// setLabels writes the issue's labels and a label comment per label
// added or removed.
func (c *change) setLabels(ctx context.Context, labels, added, removed []*Label) error {
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	ids := make([]forge.ID, 0, len(labels))
	for _, l := range labels {
		ids = append(ids, l.ID)
	}
	if err := c.tx.SetIssueLabels(ctx, c.issue.ID, ids); err != nil {
		return err
	}
	// Forgejo writes each step in order: the removals an addition causes
	// come before it; comments of one request share the stamp, so their
	// order is that of their ids.
	for _, l := range removed {
		if err := c.comment(ctx, &Comment{Type: CommentLabel, LabelID: l.ID}); err != nil {
			return err
		}
	}
	for _, l := range added {
		if err := c.comment(ctx, &Comment{Type: CommentLabel, LabelID: l.ID, Content: "1"}); err != nil {
			return err
		}
	}
	return nil
}

// commit writes the issue, dated with the stamp when given or when
// something changed, and the counters of the milestones it left or
// joined: their update date is the stamp's when given and later than
// theirs (rule 6), else now.
func (c *change) commit(ctx context.Context) error {
	if c.given || c.dirty {
		c.issue.Updated = c.stamp
	}
	if err := c.tx.UpdateIssue(ctx, c.issue); err != nil {
		return err
	}
	return c.counters(ctx, c.before, PlacementOf(c.issue))
}

// counters applies MilestoneDelta(before, after).
func (c *change) counters(ctx context.Context, before, after Placement) error {
	for _, d := range MilestoneDelta(before, after) {
		m, err := c.tx.MilestoneByID(ctx, c.issue.RepoID, d.MilestoneID)
		if err != nil {
			return err
		}
		d.Apply(m)
		if c.given {
			m.Updated = LaterOf(m.Updated, c.stamp)
		} else {
			m.Updated = c.now
		}
		if err := c.tx.UpdateMilestone(ctx, m); err != nil {
			return err
		}
	}
	return nil
}
