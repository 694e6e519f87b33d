package federation

import (
	"context"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// NodeInfo is the NodeInfo 2.1 document (Forgejo's structs.NodeInfo).
type NodeInfo struct {
	Version           string           `json:"version"`
	Software          NodeInfoSoftware `json:"software"`
	Protocols         []string         `json:"protocols"`
	Services          NodeInfoServices `json:"services"`
	OpenRegistrations bool             `json:"openRegistrations"`
	Usage             NodeInfoUsage    `json:"usage"`
	Metadata          struct{}         `json:"metadata"`
}

// NodeInfoSoftware names the software.
type NodeInfoSoftware struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	Repository string `json:"repository"`
	Homepage   string `json:"homepage"`
}

// NodeInfoServices are the third-party services the server talks to.
type NodeInfoServices struct {
	Inbound  []string `json:"inbound"`
	Outbound []string `json:"outbound"`
}

// NodeInfoUsage is the usage statistics, zero when they are not shared.
type NodeInfoUsage struct {
	Users         NodeInfoUsageUsers `json:"users"`
	LocalPosts    int64              `json:"localPosts,omitempty"`
	LocalComments int64              `json:"localComments,omitempty"`
}

// NodeInfoUsageUsers counts the accounts.
type NodeInfoUsageUsers struct {
	Total          int64 `json:"total,omitempty"`
	ActiveHalfyear int64 `json:"activeHalfyear,omitempty"`
	ActiveMonth    int64 `json:"activeMonth,omitempty"`
}

// NodeInfo is GET /nodeinfo (Forgejo's misc.NodeInfo): version 2.1,
// software "forgejo" (the name federated servers know the API by),
// protocol activitypub, outbound service rss2.0, whether registration is
// open, and, unless Config.HideUserStatistics, the usage: individual
// accounts in all, signed in within a month and within six months,
// issues (with pull requests) as local posts, comments as local comments.
// The answer is kept for 180 seconds.
func (s *Service) NodeInfo(ctx context.Context, actor forge.Actor) (*NodeInfo, error) {
	if err := s.check(actor, "getNodeInfo"); err != nil {
		return nil, err
	}
	now := s.cfg.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodeInfo != nil && now.Sub(s.cachedAt) < nodeInfoCacheTTL && !now.Before(s.cachedAt) {
		out := *s.nodeInfo
		return &out, nil
	}
	var usage NodeInfoUsage
	if !s.cfg.HideUserStatistics {
		err := s.cfg.Store.View(ctx, func(tx Tx) error {
			var err error
			if usage.Users.Total, err = tx.CountIndividuals(ctx, time.Time{}); err != nil {
				return err
			}
			if usage.Users.ActiveMonth, err = tx.CountIndividuals(ctx, now.AddDate(0, -1, 0)); err != nil {
				return err
			}
			if usage.Users.ActiveHalfyear, err = tx.CountIndividuals(ctx, now.AddDate(0, -6, 0)); err != nil {
				return err
			}
			if usage.LocalPosts, err = tx.CountIssues(ctx); err != nil {
				return err
			}
			usage.LocalComments, err = tx.CountComments(ctx)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	info := &NodeInfo{
		Version: "2.1",
		Software: NodeInfoSoftware{Name: "forgejo", Version: s.cfg.Version,
			Repository: "https://codeberg.org/forgejo/forgejo.git", Homepage: "https://forgejo.org/"},
		Protocols:         []string{"activitypub"},
		Services:          NodeInfoServices{Inbound: []string{}, Outbound: []string{"rss2.0"}},
		OpenRegistrations: s.cfg.OpenRegistrations,
		Usage:             usage,
	}
	s.nodeInfo, s.cachedAt = info, now
	out := *info
	return &out, nil
}
