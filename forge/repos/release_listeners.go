package repos

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// ReleaseOp is what happened to a release.
type ReleaseOp string

// Release operations of a ReleaseEvent.
const (
	ReleaseCreated ReleaseOp = "create"
	ReleaseEdited  ReleaseOp = "edit"
	ReleaseRemoved ReleaseOp = "delete"
)

// ReleaseEvent is a release created, edited or deleted, told to
// Config.ReleaseListeners after the change is committed.
type ReleaseEvent struct {
	Op ReleaseOp
	// Release is the release as stored (as it was, for ReleaseRemoved),
	// with its assets; a copy the listener may keep.
	Release *Release
	// WasDraft tells, for ReleaseEdited, that the release was a draft
	// before the edit; TagCreated that the edit created its tag.
	WasDraft, TagCreated bool
}

// ReleaseListener is told of releases created, edited and deleted, after
// the change is committed (webhooks' release event). It runs in the
// request that made the change and cannot fail it: errors are the
// listener's to log.
type ReleaseListener interface {
	AfterRelease(ctx context.Context, actor forge.Actor, repo *forge.Repository, e ReleaseEvent)
}

// notifyRelease tells the listeners of a release change.
func (s *Service) notifyRelease(ctx context.Context, actor forge.Actor, repo *forge.Repository, e ReleaseEvent) {
	if e.Release == nil || repo == nil {
		return
	}
	for _, l := range s.cfg.ReleaseListeners {
		rel := *e.Release
		rel.Assets = append([]*Attachment(nil), e.Release.Assets...)
		c := e
		c.Release = &rel
		l.AfterRelease(ctx, actor, copyRepo(repo), c)
	}
}
