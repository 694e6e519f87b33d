package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// repoFlag keys a flag of a repository.
type repoFlag struct {
	repo forge.ID
	name string
}

func (t *tx) RepoFlags(ctx context.Context, repoID forge.ID) ([]string, error) {
	if err := t.read(ctx); err != nil {
		return nil, err
	}
	out := []string{}
	for k := range t.st.repoFlags {
		if k.repo == repoID {
			out = append(out, k.name)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (t *tx) SetRepoFlags(ctx context.Context, repoID forge.ID, flags []string) error {
	if err := writeRef(ctx, t, t.st.repos, repoID, "repository flags"); err != nil {
		return err
	}
	deleteWhere(t.st.repoFlags, func(k repoFlag, _ struct{}) bool { return k.repo == repoID })
	for _, f := range flags {
		t.st.repoFlags[repoFlag{repoID, f}] = struct{}{}
	}
	return nil
}

// noteTopics records, as the SQL backends' topic table, the topics a
// repository took (in now and not in before) at time at: a topic seen the
// first time is created then, one taken again is updated.
func (s *state) noteTopics(before, now []string, at time.Time) {
	for _, name := range now {
		if slices.Contains(before, name) {
			continue
		}
		tp, ok := s.topics[name]
		if !ok {
			tp = repos.Topic{ID: s.nextID("topic"), Name: name, Created: ts(at)}
		}
		tp.Updated = ts(at)
		s.topics[name] = tp
	}
}

func (t *tx) SearchTopics(ctx context.Context, keyword string, o forge.ListOptions) ([]repos.Topic, int64, error) {
	if err := t.read(ctx); err != nil {
		return nil, 0, err
	}
	counts := map[string]int64{}
	for _, r := range t.st.repos {
		for _, name := range r.Topics {
			counts[name]++
		}
	}
	kw := strings.ToLower(keyword)
	var all []repos.Topic
	for name, n := range counts {
		tp, ok := t.st.topics[name]
		if !ok || !strings.Contains(strings.ToLower(name), kw) {
			continue
		}
		tp.RepoCount = n
		all = append(all, tp)
	}
	out, total := pageOf(all, func(a, b repos.Topic) int {
		return cmp.Or(cmp.Compare(b.RepoCount, a.RepoCount), cmp.Compare(a.ID, b.ID))
	}, o)
	return out, total, nil
}
