package issues_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

func TestParseRefs(t *testing.T) {
	t.Parallel()
	local := func(n int64) issues.IssueRef { return issues.IssueRef{Index: n} }
	cross := func(o, r string, n int64) issues.IssueRef { return issues.IssueRef{Owner: o, Repo: r, Index: n} }
	for _, tc := range []struct {
		text string
		want []issues.IssueRef
	}{
		{"", nil},
		{"#1", []issues.IssueRef{local(1)}},
		{"see #2, and #3.", []issues.IssueRef{local(2), local(3)}},
		{"#1 #2 #1", []issues.IssueRef{local(1), local(2)}},
		{"(#4) [#5]", []issues.IssueRef{local(4), local(5)}},
		{"a#1 #x #0 #12abc", nil},
		{"fixes ann/proj#7!", []issues.IssueRef{cross("ann", "proj", 7)}},
		{"#1 then ann/proj#1 and ann/proj!2", []issues.IssueRef{local(1), cross("ann", "proj", 1), cross("ann", "proj", 2)}},
		{"`#1` and\n```\n#2\n```\n#3", []issues.IssueRef{local(3)}},
		{"http://x/#9", nil},
	} {
		assert.Equal(t, tc.want, issues.ParseRefs(tc.text), "%q", tc.text)
	}
}

func TestMovePin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, from, to int
		want        []int
	}{
		{3, 1, 3, []int{3, 1, 2}},
		{3, 3, 1, []int{2, 3, 1}},
		{3, 2, 2, []int{1, 2, 3}},
		{3, 1, 9, []int{3, 1, 2}}, // past the last is last
		{3, 2, 1, []int{2, 1, 3}},
		{1, 1, 1, []int{1}},
	} {
		assert.Equal(t, tc.want, issues.MovePin(tc.n, tc.from, tc.to), "%+v", tc)
	}
}

func TestCheckReaction(t *testing.T) {
	t.Parallel()
	for _, ok := range issues.AllowedReactions {
		assert.NoError(t, issues.CheckReaction(ok))
	}
	for _, bad := range []string{"", "smile", "+2", "HEART"} {
		err := issues.CheckReaction(bad)
		assert.True(t, errors.Is(err, forge.ErrForbidden), "%q", bad)
		assert.EqualError(t, err, "'"+bad+"' is not an allowed reaction")
	}
}

func TestLabelTemplates(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []string{"Advanced", "Default"}, issues.LabelTemplateNames())
	list, err := issues.LabelTemplates("Default")
	assert.NoError(t, err)
	assert.Equal(t, issues.LabelTemplate{Name: "bug", Color: "#ee0701", Description: "Something is not working"}, list[0])
	_, err = issues.LabelTemplates("Advanced")
	assert.NoError(t, err) // its entries: labeltemplates_test.go
	for _, bad := range []string{"nope", "../label/Default", ""} {
		_, err = issues.LabelTemplates(bad)
		assert.ErrorIs(t, err, forge.ErrNotFound, bad)
	}
}
