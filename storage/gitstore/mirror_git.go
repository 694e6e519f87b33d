package gitstore

import (
	"context"
	"path"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

// Mirror is the Store as package mirror's Git: the remote's policy is
// enforced (Policy.Resolve before git runs, Policy.Control on the probe's
// dials, no redirects), its credentials passed apart, MaxSize applied;
// ctx carries the time-out.
type Mirror struct{ Store *Store }

var _ mirror.Git = Mirror{}

func (m Mirror) remote(r mirror.Remote) MirrorRemote {
	return MirrorRemote{
		URL:      r.Address.URL,
		Username: r.Address.Creds.Username,
		Password: r.Address.Creds.Password,
		Resolve:  r.Policy.Resolve,
		Control:  r.Policy.Control,
		Local:    r.Address.Local,
		MaxBytes: r.MaxSize,
	}
}

// Clone is Store.Clone; o.Format, when set, must be the remote's
// (forge.ErrInvalid otherwise, and nothing is left).
func (m Mirror) Clone(ctx context.Context, repo forge.ID, r mirror.Remote, o mirror.CloneOptions) (forge.ObjectFormat, error) {
	format, err := m.Store.Clone(ctx, repo, m.remote(r))
	if err != nil {
		return "", err
	}
	if o.Format != "" && o.Format != format {
		m.Store.Remove(ctx, repo)
		return "", transferError("the remote's object format is %s, not %s", format, o.Format)
	}
	return format, nil
}

// Fetch is Store.Fetch with created and deleted references' ids "".
func (m Mirror) Fetch(ctx context.Context, repo forge.ID, r mirror.Remote, prune bool) ([]mirror.RefUpdate, error) {
	ups, err := m.Store.Fetch(ctx, repo, m.remote(r), prune)
	out := make([]mirror.RefUpdate, 0, len(ups))
	for _, u := range ups {
		u2 := mirror.RefUpdate{Ref: u.Ref, OldID: u.OldID, NewID: u.NewID}
		if strings.Trim(u2.OldID, "0") == "" {
			u2.OldID = ""
		}
		if strings.Trim(u2.NewID, "0") == "" {
			u2.NewID = ""
		}
		out = append(out, u2)
	}
	return out, err
}

// Push is Store.PushMirror; with a branch filter (comma-separated globs)
// only the matching branches are pushed (forced, nothing deleted).
func (m Mirror) Push(ctx context.Context, repo forge.ID, r mirror.Remote, branchFilter string) error {
	if strings.TrimSpace(branchFilter) == "" {
		return m.Store.PushMirror(ctx, repo, m.remote(r))
	}
	refs, err := m.Store.Refs(ctx, repo)
	if err != nil {
		return err
	}
	var specs []string
	for _, ref := range refs {
		name, ok := strings.CutPrefix(ref.Name, "refs/heads/")
		if !ok {
			continue
		}
		for _, g := range strings.Split(branchFilter, ",") {
			if ok, _ := path.Match(strings.TrimSpace(g), name); ok {
				specs = append(specs, "+"+ref.Name+":"+ref.Name)
				break
			}
		}
	}
	if len(specs) == 0 {
		return nil
	}
	return m.Store.PushRefs(ctx, repo, m.remote(r), specs)
}
