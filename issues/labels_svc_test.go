package issues_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// labelEnv: alice owns alice/r with issue #1 and labels prio/high, prio/low,
// prio/mid (exclusive), prio/plain (not exclusive) and docs.
func labelEnv(t *testing.T) (*env, forge.Actor, map[string]*issues.Label) {
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "one")
	ls := map[string]*issues.Label{}
	for _, n := range []string{"prio/mid", "prio/high", "prio/low"} {
		ls[n] = e.label(alice, "alice", "r", n, true)
	}
	ls["prio/plain"] = e.label(alice, "alice", "r", "prio/plain", false)
	ls["docs"] = e.label(alice, "alice", "r", "docs", false)
	return e, alice, ls
}

func ids(ls map[string]*issues.Label, names ...string) []forge.ID {
	var out []forge.ID
	for _, n := range names {
		out = append(out, ls[n].ID)
	}
	return out
}

func TestExclusiveAdd(t *testing.T) {
	t.Parallel()
	for _, byName := range []bool{false, true} {
		t.Run(fmt.Sprint("byName=", byName), func(t *testing.T) {
			t.Parallel()
			e, alice, ls := labelEnv(t)
			opt := func(names ...string) issues.LabelsOption {
				if byName {
					return issues.LabelsOption{Names: names}
				}
				return issues.LabelsOption{IDs: ids(ls, names...)}
			}
			add := func(names ...string) string {
				got, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, opt(names...))
				require.NoError(t, err)
				return labelNames(got)
			}
			// several of one scope in one request: the alphabetically last
			require.Equal(t, "docs prio/mid", add("prio/mid", "docs", "prio/high"))
			// a new one evicts the one there, even if alphabetically earlier
			require.Equal(t, "docs prio/high", add("prio/high"))
			// non-exclusive label of the same prefix stays
			require.Equal(t, "docs prio/high prio/plain", add("prio/plain"))
			require.Equal(t, "docs prio/low prio/plain", add("prio/low"))
			v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
			require.NoError(t, err)
			require.Equal(t, "docs prio/low prio/plain", labelNames(v.Labels))
		})
	}
}

func TestExclusiveReplace(t *testing.T) {
	t.Parallel()
	for _, byName := range []bool{false, true} {
		t.Run(fmt.Sprint("byName=", byName), func(t *testing.T) {
			t.Parallel()
			e, alice, ls := labelEnv(t)
			opt := func(names ...string) issues.LabelsOption {
				if byName {
					return issues.LabelsOption{Names: names}
				}
				return issues.LabelsOption{IDs: ids(ls, names...)}
			}
			replace := func(names ...string) string {
				got, err := e.svc.ReplaceLabels(e.ctx, alice, "alice", "r", 1, opt(names...))
				require.NoError(t, err)
				return labelNames(got)
			}
			require.Equal(t, "docs prio/mid prio/plain", replace("prio/low", "prio/mid", "docs", "prio/high", "prio/plain"))
			require.Equal(t, "prio/low", replace("prio/high", "prio/low"))
			require.Equal(t, "", replace())
		})
	}
}

func TestLabelsUnknownIgnoredAndOtherRepos(t *testing.T) {
	t.Parallel()
	e, alice, ls := labelEnv(t)
	e.repo(alice, "other", false)
	foreign := e.label(alice, "alice", "other", "foreign", false)
	got, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{IDs: []forge.ID{ls["docs"].ID, foreign.ID, 9999}})
	require.NoError(t, err)
	require.Equal(t, "docs", labelNames(got))
	got, err = e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{Names: []string{"foreign", "nope"}})
	require.NoError(t, err)
	require.Equal(t, "docs", labelNames(got))
	// remove: unknown identifier is ErrInvalid (422), a label not on the issue is fine
	_, err = e.svc.RemoveLabel(e.ctx, alice, "alice", "r", 1, "nope", nil)
	require.True(t, errors.Is(err, forge.ErrInvalid) && errors.Is(err, issues.ErrLabelNotFound), "%v", err)
	// the label named is returned, even when the issue does not bear it
	rm, err := e.svc.RemoveLabel(e.ctx, alice, "alice", "r", 1, "prio/low", nil)
	require.NoError(t, err)
	require.Equal(t, ls["prio/low"].ID, rm.ID)
	got, err = e.svc.IssueLabels(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Equal(t, "docs", labelNames(got))
	rm, err = e.svc.RemoveLabel(e.ctx, alice, "alice", "r", 1, fmt.Sprint(ls["docs"].ID), nil)
	require.NoError(t, err)
	require.Equal(t, "docs", rm.Name)
	got, err = e.svc.IssueLabels(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Empty(t, got)
}

// Archived labels: the time of archiving is kept while archived, cleared
// on un-archiving; an edit without is_archived un-archives (Forgejo's BUG,
// kept); archived labels can be put on issues and stay there.
func TestArchivedLabelRoundTrip(t *testing.T) {
	t.Parallel()
	e, alice, ls := labelEnv(t)
	_, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{IDs: ids(ls, "docs")})
	require.NoError(t, err)
	t1 := e.clock.Step(time.Hour)
	yes, no := true, false
	l, err := e.svc.EditLabel(e.ctx, alice, "alice", "r", ls["docs"].ID, issues.EditLabelOption{IsArchived: &yes})
	require.NoError(t, err)
	require.Equal(t, t1, l.Archived)
	e.clock.Step(time.Hour)
	desc := "d"
	l, err = e.svc.EditLabel(e.ctx, alice, "alice", "r", ls["docs"].ID, issues.EditLabelOption{IsArchived: &yes, Description: &desc})
	require.NoError(t, err)
	require.Equal(t, t1, l.Archived, "archiving again keeps the first time")
	got, err := e.svc.GetLabel(e.ctx, alice, "alice", "r", "docs")
	require.NoError(t, err)
	require.True(t, got.IsArchived())
	require.Equal(t, t1, got.Archived)
	// still on the issue, and an archived label can be added
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Equal(t, "docs", labelNames(v.Labels))
	require.True(t, v.Labels[0].IsArchived())
	_, err = e.svc.EditLabel(e.ctx, alice, "alice", "r", ls["prio/low"].ID, issues.EditLabelOption{IsArchived: &yes})
	require.NoError(t, err)
	added, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{Names: []string{"prio/low"}})
	require.NoError(t, err)
	require.Equal(t, "docs prio/low", labelNames(added))
	// an edit without is_archived un-archives
	l, err = e.svc.EditLabel(e.ctx, alice, "alice", "r", ls["docs"].ID, issues.EditLabelOption{Description: &desc})
	require.NoError(t, err)
	require.False(t, l.IsArchived())
	l, err = e.svc.EditLabel(e.ctx, alice, "alice", "r", ls["docs"].ID, issues.EditLabelOption{IsArchived: &no})
	require.NoError(t, err)
	require.True(t, l.Archived.IsZero())
	// created archived
	c, err := e.svc.CreateLabel(e.ctx, alice, "alice", "r", issues.CreateLabelOption{Name: "old", Color: "fff", IsArchived: true})
	require.NoError(t, err)
	require.Equal(t, e.clock.Now(), c.Archived)
	require.Equal(t, "#ffffff", c.Color)
}

func TestLabelValidation(t *testing.T) {
	t.Parallel()
	e, alice, _ := labelEnv(t)
	for _, tt := range []struct {
		opt issues.CreateLabelOption
		msg string
	}{
		{issues.CreateLabelOption{Color: "fff"}, "[Name]: Required"},
		{issues.CreateLabelOption{Name: "x"}, "[Color]: Required"},
		{issues.CreateLabelOption{Name: "x", Color: "#ggg"}, "bad color code: #ggg"},
	} {
		_, err := e.svc.CreateLabel(e.ctx, alice, "alice", "r", tt.opt)
		require.True(t, errors.Is(err, forge.ErrInvalid), "%v", err)
		require.Equal(t, tt.msg, err.Error())
	}
	bad := "12345"
	_, err := e.svc.EditLabel(e.ctx, alice, "alice", "r", 1, issues.EditLabelOption{Color: &bad})
	require.Equal(t, "bad color code: 12345", err.Error())
	_, err = e.svc.EditLabel(e.ctx, alice, "alice", "r", 999, issues.EditLabelOption{})
	require.True(t, errors.Is(err, forge.ErrNotFound) && errors.Is(err, issues.ErrLabelNotFound), "%v", err)
}

// 50 parallel adds of labels of one exclusive scope leave exactly one.
func TestExclusiveConcurrentAdds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	e.issue(alice, "alice", "r", "one")
	var ls []*issues.Label
	for i := range 50 {
		ls = append(ls, e.label(alice, "alice", "r", fmt.Sprintf("scope/v%02d", i), true))
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(ls))
	for _, l := range ls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.svc.AddLabels(e.ctx, alice, "alice", "r", 1, issues.LabelsOption{IDs: []forge.ID{l.ID}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	v, err := e.svc.Get(e.ctx, alice, "alice", "r", 1)
	require.NoError(t, err)
	require.Len(t, v.Labels, 1)
	// the label counters agree: one issue on one label in all
	all, _, err := e.svc.ListLabels(e.ctx, alice, "alice", "r", "", forge.ListOptions{})
	require.NoError(t, err)
	n := 0
	for _, l := range all {
		n += l.NumIssues
	}
	require.Equal(t, 1, n)
}

// 200 parallel creations in one repository give 200 distinct indexes.
func TestIndexConcurrentCreates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	e.repo(alice, "r", false)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		got = map[int64]bool{}
	)
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := e.svc.Create(e.ctx, alice, "alice", "r", issues.CreateIssueOption{Title: fmt.Sprint("t", i)})
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			got[v.Issue.Index] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, got, 200)
	for i := int64(1); i <= 200; i++ {
		require.True(t, got[i], "index %d missing", i)
	}
	// a deleted issue's index is not reused
	require.NoError(t, e.svc.Delete(e.ctx, alice, "alice", "r", 200))
	v, err := e.svc.Create(e.ctx, alice, "alice", "r", issues.CreateIssueOption{Title: "next"})
	require.NoError(t, err)
	require.EqualValues(t, 201, v.Issue.Index)
}

// GET /labels/{id}: a number is an id, never a name (Forgejo's GetLabel).
func TestGetLabelNumberIsID(t *testing.T) {
	t.Parallel()
	e, alice, ls := labelEnv(t)
	numeric := e.label(alice, "alice", "r", "404", false)
	got, err := e.svc.GetLabel(e.ctx, alice, "alice", "r", fmt.Sprint(ls["docs"].ID))
	require.NoError(t, err)
	require.Equal(t, "docs", got.Name)
	got, err = e.svc.GetLabel(e.ctx, alice, "alice", "r", "docs")
	require.NoError(t, err)
	require.Equal(t, ls["docs"].ID, got.ID)
	_, err = e.svc.GetLabel(e.ctx, alice, "alice", "r", "404")
	require.True(t, errors.Is(err, issues.ErrLabelNotFound), "label %d named 404 found by name: %v", numeric.ID, err)
}
