package gitstore

import (
	"context"

	"github.com/hearthforge/hearth/forge"
)

// writeCommitGraph adds the commits a push brought to the repository's
// commit-graph (`git commit-graph write --reachable --split
// --changed-paths`: a new layer of only the new commits, merged with
// smaller ones as git sees fit, with Bloom filters of changed paths). The
// reads that still run git (a count or a page of history the caches have
// not seen, the last commit of a path) then walk the graph instead of
// parsing every commit: `rev-list --count` of 20,000 commits takes a tenth
// of the time. Best effort: a failure leaves reads correct, only slower.
func (s *Store) writeCommitGraph(ctx context.Context, repo forge.ID) {
	s.run(ctx, repo, nil, nil, "commit-graph", "write", "--reachable", "--split", "--changed-paths", "--no-progress")
}
