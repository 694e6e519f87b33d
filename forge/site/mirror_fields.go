package site

import (
	"context"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/mirror"
)

// MirrorFields is repos.PullMirrorReader over the pull mirrors, as New
// wires the repository presentation (exported for hosts and tests that
// build the services one by one; package mirror does not import package
// repos, so the adapter lives here). Trusted as the port is: it checks
// nothing.
type MirrorFields struct{ Mirrors mirror.PullMirrorReader }

var _ repos.PullMirrorReader = MirrorFields{}

// PullMirrorFields implements repos.PullMirrorReader: one read of the
// pull mirrors of repoIDs, the remote address without credentials
// (mirror.SanitizeURL).
func (f MirrorFields) PullMirrorFields(ctx context.Context, repoIDs []forge.ID) (map[forge.ID]repos.MirrorFields, error) {
	ms, err := f.Mirrors.PullMirrors(ctx, repoIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[forge.ID]repos.MirrorFields, len(ms))
	for id, m := range ms {
		out[id] = repos.MirrorFields{Interval: m.Interval, Updated: m.Updated, OriginalURL: mirror.SanitizeURL(m.RemoteAddress)}
	}
	return out, nil
}
