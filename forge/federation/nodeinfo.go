package federation

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// NodeInfo is what GET /nodeinfo reports of the server (Forgejo's
// misc.NodeInfo): the software version, whether registration is open,
// and the usage unless the host does not share it.
type NodeInfo struct {
	SoftwareVersion   string
	OpenRegistrations bool
	// Usage is nil when Config.HideUserStatistics.
	Usage *Usage
}

// Usage is NodeInfo's usage: individual accounts in all, signed in within
// a month and within six months of the clock; issues (with pull requests),
// Forgejo's local posts; comments of every kind, its local comments.
type Usage struct {
	Users, ActiveMonth, ActiveHalfyear int64
	Issues, Comments                   int64
}

// NodeInfo is GET /nodeinfo. The answer is kept for 180 seconds
// (Forgejo's cache of it).
func (s *Service) NodeInfo(ctx context.Context, actor forge.Actor) (*NodeInfo, error) {
	if err := s.check(actor, "getNodeInfo"); err != nil {
		return nil, err
	}
	now := s.cfg.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodeInfo != nil && now.Sub(s.cachedAt) < nodeInfoCacheTTL && !now.Before(s.cachedAt) {
		return s.nodeInfo.clone(), nil
	}
	info := &NodeInfo{SoftwareVersion: s.cfg.Version, OpenRegistrations: s.cfg.OpenRegistrations}
	if !s.cfg.HideUserStatistics {
		var u Usage
		err := s.cfg.Store.View(ctx, func(tx Tx) error {
			var err error
			if u.Users, err = tx.CountIndividuals(ctx, time.Time{}); err != nil {
				return err
			}
			if u.ActiveMonth, err = tx.CountIndividuals(ctx, now.AddDate(0, -1, 0)); err != nil {
				return err
			}
			if u.ActiveHalfyear, err = tx.CountIndividuals(ctx, now.AddDate(0, -6, 0)); err != nil {
				return err
			}
			if u.Issues, err = tx.CountIssues(ctx); err != nil {
				return err
			}
			u.Comments, err = tx.CountComments(ctx)
			return err
		})
		if err != nil {
			return nil, err
		}
		info.Usage = &u
	}
	s.nodeInfo, s.cachedAt = info, now
	return info.clone(), nil
}

func (n *NodeInfo) clone() *NodeInfo {
	out := *n
	if n.Usage != nil {
		u := *n.Usage
		out.Usage = &u
	}
	return &out
}
