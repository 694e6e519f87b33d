package issues

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseMentions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"@alice", []string{"alice"}},
		{"hi @alice and @bob.", []string{"alice", "bob"}},
		{"@alice @bob", []string{"alice", "bob"}},
		{"(@alice) [@bob]", []string{"alice", "bob"}},
		{"@alice: look, @bob, @carol; @dave? @erin!", []string{"alice", "bob", "carol", "dave", "erin"}},
		{"@alice's idea", []string{"alice"}},
		{"line\n@alice\n", []string{"alice"}},
		{"@a.b-c_d", []string{"a.b-c_d"}},
		{"@alice. end", []string{"alice"}},
		{"@Alice @alice @ALICE", []string{"Alice"}},
		{"mail me@example.com", nil},
		{"x@alice", nil},
		{"@alice/team @org/devs", nil},
		{"@", nil},
		{"@ alice", nil},
		{"@alice.", []string{"alice"}},
		{"@-dash", []string{"-dash"}},
		{"@alice#1", nil},
		{"`@alice` and @bob", []string{"bob"}},
		{"```\n@alice\n```\n@bob", []string{"bob"}},
	} {
		assert.Equal(t, tc.want, ParseMentions(tc.text), "%q", tc.text)
	}
}
