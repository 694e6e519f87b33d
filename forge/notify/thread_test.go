package notify_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/notify"
)

func TestRecipients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                   string
		actor                  forge.ID
		watchers, participants []forge.ID
		want                   []forge.ID
	}{
		{"none", 1, nil, nil, nil},
		{"actor is never notified", 1, []forge.ID{1}, []forge.ID{1}, nil},
		{"watchers and participants once each, sorted", 1, []forge.ID{5, 2}, []forge.ID{2, 3, 1}, []forge.ID{2, 3, 5}},
		{"zero ids are dropped", 1, []forge.ID{0}, []forge.ID{4}, []forge.ID{4}},
	} {
		assert.Equal(t, tc.want, notify.Recipients(tc.actor, tc.watchers, tc.participants), tc.name)
	}
}

func TestBump(t *testing.T) {
	t.Parallel()
	t0, t1 := time.Unix(100, 0), time.Unix(200, 0)
	for _, tc := range []struct {
		name       string
		status     notify.Status
		wantStatus notify.Status
		wantCmt    forge.ID
	}{
		{"read becomes unread and points at the new comment", notify.StatusRead, notify.StatusUnread, 9},
		{"unread keeps the first comment not read", notify.StatusUnread, notify.StatusUnread, 3},
		{"pinned stays pinned", notify.StatusPinned, notify.StatusPinned, 3},
	} {
		got := notify.Bump(notify.Thread{Status: tc.status, CommentID: 3, UpdatedBy: 1, Updated: t0}, 9, 7, t1)
		assert.Equal(t, tc.wantStatus, got.Status, tc.name)
		assert.Equal(t, tc.wantCmt, got.CommentID, tc.name)
		assert.Equal(t, forge.ID(7), got.UpdatedBy, tc.name)
		assert.Equal(t, t1, got.Updated, tc.name)
	}
}

func TestParseStatuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		words, defaults []string
		want            []notify.Status
	}{
		{nil, []string{"unread", "pinned"}, []notify.Status{notify.StatusUnread, notify.StatusPinned}},
		{[]string{" READ ", "bogus"}, []string{"unread"}, []notify.Status{notify.StatusRead}},
		{[]string{"bogus"}, []string{"unread"}, []notify.Status{}},
	} {
		assert.Equal(t, tc.want, notify.ParseStatuses(tc.words, tc.defaults), "%v", tc.words)
	}
	st, ok := notify.ParseStatus("Pinned")
	assert.True(t, ok)
	assert.Equal(t, notify.StatusPinned, st)
	_, ok = notify.ParseStatus("done")
	assert.False(t, ok)
}

func TestParseSources(t *testing.T) {
	t.Parallel()
	assert.Nil(t, notify.ParseSources(nil))
	assert.Equal(t, []notify.Source{notify.SourceIssue, notify.SourcePull}, notify.ParseSources([]string{"Issue", "pull", "x"}))
	assert.Equal(t, []notify.Source{}, notify.ParseSources([]string{"x"}))
	assert.Equal(t, forge.UnitPulls, notify.SourcePull.Unit())
	assert.Equal(t, forge.UnitIssues, notify.SourceOf(false).Unit())
}

func TestMark(t *testing.T) {
	t.Parallel()
	now := time.Unix(300, 0)
	got := notify.Mark(notify.Thread{Status: notify.StatusUnread, CommentID: 4}, notify.StatusPinned, now)
	assert.Equal(t, notify.Thread{Status: notify.StatusPinned, CommentID: 4, Updated: now}, got)
}
