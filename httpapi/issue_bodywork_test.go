package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi"
	"github.com/hearthforge/hearth/issues"
)

// actedStore counts what a text makes the issue service do: the
// cross-references it writes, the mentioned names it looks up (those
// starting with "who") and the mentions it records.
type actedStore struct {
	issues.Store
	refs, lookups, mentions atomic.Int64
}

func (s *actedStore) View(ctx context.Context, fn func(issues.Tx) error) error {
	return s.Store.View(ctx, func(tx issues.Tx) error { return fn(actedTx{tx, s}) })
}

func (s *actedStore) Update(ctx context.Context, fn func(issues.Tx) error) error {
	return s.Store.Update(ctx, func(tx issues.Tx) error { return fn(actedTx{tx, s}) })
}

func (s *actedStore) reset() { s.refs.Store(0); s.lookups.Store(0); s.mentions.Store(0) }

type actedTx struct {
	issues.Tx
	s *actedStore
}

func (x actedTx) CreateCrossRef(ctx context.Context, r *issues.CrossRef) error {
	x.s.refs.Add(1)
	return x.Tx.CreateCrossRef(ctx, r)
}

func (x actedTx) UserByName(ctx context.Context, name string) (*forge.User, error) {
	if strings.HasPrefix(name, "who") {
		x.s.lookups.Add(1)
	}
	return x.Tx.UserByName(ctx, name)
}

func (x actedTx) AddMentions(ctx context.Context, issueID forge.ID, ids []forge.ID) error {
	x.s.mentions.Add(int64(len(ids)))
	return x.Tx.AddMentions(ctx, issueID, ids)
}

// fill returns head followed by repetitions of tail cut to exactly n bytes.
func fill(head, tail string, n int) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len() < n {
		b.WriteString(tail)
	}
	return b.String()[:n]
}

// TestMaximalBodyBoundedWork posts the largest bodies the API accepts
// (a request of httpapi.DefaultMaxBodyBytes) as a comment, a comment
// edit and a new issue: each is accepted, and what it makes the server
// do is bounded by the caps, not by its size: exactly DefaultMaxTextRefs
// cross-references written (the first ones; more issues exist) and
// exactly DefaultMaxTextMentions mentioned names looked up, however many the
// body holds. One byte more is 413. (Pull request bodies, reviews,
// commit messages and release notes are not searched for references or
// mentions: nothing to bound there.)
func TestMaximalBodyBoundedWork(t *testing.T) {
	t.Parallel()
	as := &actedStore{}
	e := newIssueEnv(t, func(c *issues.Config) { as.Store = c.Store; c.Store = as })
	for i := 1; i <= issues.DefaultMaxTextRefs+10; i++ {
		e.newIssue(e.alice, fmt.Sprintf("issue %d", i))
	}
	target := e.newIssue(e.alice, "the commented one") // referenced by no body
	var head strings.Builder
	for i := 1; i <= issues.DefaultMaxTextRefs+10; i++ {
		fmt.Fprintf(&head, "#%d ", i)
	}
	head.WriteString("@bob ")
	for i := 0; i < issues.DefaultMaxTextMentions+10; i++ {
		fmt.Fprintf(&head, "@who%d ", i)
	}
	const tail = "#1 x/y#1 alice/proj!2 @who0 @bob `#3` "
	sized := func(extra map[string]any, n int) map[string]any {
		m := map[string]any{"body": ""}
		for k, v := range extra {
			m[k] = v
		}
		empty, err := json.Marshal(m)
		require.NoError(t, err)
		m["body"] = fill(head.String(), tail, n-len(empty))
		return m
	}
	acted := func(what string, refs int) {
		t.Helper()
		assert.EqualValues(t, refs, as.refs.Load(), "%s: cross-references written", what)
		assert.EqualValues(t, issues.DefaultMaxTextMentions-1, as.lookups.Load(), "%s: mentioned names looked up (bob is one)", what)
		as.reset()
	}
	max := httpapi.DefaultMaxBodyBytes

	as.reset()
	e.send(e.alice, "POST", e.issuePath(target, "/comments"), sized(nil, max+1), 413)
	c := e.send(e.alice, "POST", e.issuePath(target, "/comments"), sized(nil, max), 201).json(t)
	assert.EqualValues(t, 1, as.mentions.Load(), "bob's mention recorded")
	acted("a new comment", issues.DefaultMaxTextRefs)

	e.send(e.alice, "PATCH", fmt.Sprintf("%s/issues/comments/%v", e.proj, c["id"]), sized(nil, max), 200)
	acted("an edit keeping the references", 0)

	e.send(e.alice, "POST", e.proj+"/issues", sized(map[string]any{"title": "t"}, max), 201)
	acted("a new issue", issues.DefaultMaxTextRefs)

	e.send(e.alice, "PATCH", e.issuePath(target, ""), sized(nil, max), 201)
	acted("an issue's body edited", issues.DefaultMaxTextRefs)
}

// TestTextCapsConfigured: issues.Config's MaxTextRefs and MaxTextMentions
// set the caps (negative: none).
func TestTextCapsConfigured(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ max, refs, lookups int }{{1, 1, 1}, {2, 2, 2}, {-1, 3, 3}} {
		as := &actedStore{}
		e := newIssueEnv(t, func(c *issues.Config) {
			as.Store, c.Store, c.MaxTextRefs, c.MaxTextMentions = c.Store, as, tc.max, tc.max
		})
		for i := 0; i < 4; i++ {
			e.newIssue(e.alice, "an issue")
		}
		as.reset()
		e.send(e.alice, "POST", e.issuePath(4, "/comments"), map[string]any{"body": "#1 #2 #3 #1 @who1 @who2 @who3 @who1"}, 201)
		assert.EqualValues(t, tc.refs, as.refs.Load(), "max %d: cross-references", tc.max)
		assert.EqualValues(t, tc.lookups, as.lookups.Load(), "max %d: names looked up", tc.max)
	}
}
