package issues

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge"
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

func TestParseTeamMentions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"@alice", nil},
		{"@acme/devs", []string{"acme/devs"}},
		{"cc @acme/devs, @acme/ops and @bob.", []string{"acme/devs", "acme/ops"}},
		{"@acme/Devs @ACME/devs", []string{"acme/Devs"}},
		{"(@acme/devs)", []string{"acme/devs"}},
		{"`@acme/devs` @acme/ops", []string{"acme/ops"}},
		{"mail x@acme/devs", nil},
		{"@acme/", nil},
	} {
		assert.Equal(t, tc.want, ParseTeamMentions(tc.text), "%q", tc.text)
	}
}

func TestTeamMentionable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		team          forge.Team
		issues, pulls bool
	}{
		{"owners", forge.Team{Mode: forge.AccessModeOwner}, true, true},
		{"admin, no units", forge.Team{Mode: forge.AccessModeAdmin}, true, true},
		{"issues read", forge.Team{Mode: forge.AccessModeRead, Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessModeRead}}, true, false},
		{"pulls write", forge.Team{Mode: forge.AccessModeWrite, Units: map[forge.Unit]forge.AccessMode{forge.UnitPulls: forge.AccessModeWrite}}, false, true},
		{"issues none", forge.Team{Mode: forge.AccessModeWrite, Units: map[forge.Unit]forge.AccessMode{forge.UnitIssues: forge.AccessNone}}, false, false},
		{"code only", forge.Team{Mode: forge.AccessModeWrite, Units: map[forge.Unit]forge.AccessMode{forge.UnitCode: forge.AccessModeWrite}}, false, false},
	} {
		assert.Equal(t, tc.issues, TeamMentionable(&tc.team, false), tc.name+": issues")
		assert.Equal(t, tc.pulls, TeamMentionable(&tc.team, true), tc.name+": pulls")
	}
}
