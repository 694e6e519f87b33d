package rules

import (
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// The product's triage bot, built on Hearth's issue rules with no
// database: it imports issues from another tracker keeping their dates
// (issues.CheckUpdatedAt, the updated_at rule) and sets priority labels,
// of which an issue bears one at most (issues.ApplyExclusive, the
// exclusive-scope rule).

// ImportStamp returns the date an imported change is recorded with: the
// source tracker's date when the importer may give one (repository admin
// or owner) and it lies between the issue's creation and now, now when the
// source has no date. Refusals are forge.ErrForbidden with Forgejo's
// messages, exactly as the API answers them.
func ImportStamp(perm forge.Permission, created time.Time, source *time.Time, now time.Time) (time.Time, error) {
	stamp, _, err := issues.CheckUpdatedAt(perm, created, source, now)
	return stamp, err
}

// Prioritise puts the priority label prio on an issue bearing labels,
// and returns the labels afterwards and the ones the bot took off. Labels
// named "priority/…" are exclusive: the new priority replaces the old one,
// other labels stay.
func Prioritise(labels []*issues.Label, prio *issues.Label) (after, removed []*issues.Label) {
	after, _, removed = issues.ApplyExclusive(labels, []*issues.Label{prio})
	return after, removed
}
