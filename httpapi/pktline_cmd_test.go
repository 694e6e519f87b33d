package httpapi

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/forge/repos"
)

func TestParsePushCommand(t *testing.T) {
	t.Parallel()
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	a256 := strings.Repeat("a", 64)
	for _, tc := range []struct {
		line string
		want *repos.RefUpdate // nil: skipped
		bad  bool
	}{
		{line: a + " " + b + " refs/heads/x\x00report-status", want: &repos.RefUpdate{OldID: a, NewID: b, Ref: "refs/heads/x"}},
		{line: a + " " + b + " refs/heads/x\n", want: &repos.RefUpdate{OldID: a, NewID: b, Ref: "refs/heads/x"}},
		{line: a256 + " " + a256 + " refs/heads/y", want: &repos.RefUpdate{OldID: a256, NewID: a256, Ref: "refs/heads/y"}},
		// git takes everything after the second space as the name.
		{line: a + " " + b + " refs/heads/a b", want: &repos.RefUpdate{OldID: a, NewID: b, Ref: "refs/heads/a b"}},
		{line: "shallow " + a},
		{line: "push-cert\x00report-status", bad: true},
		{line: a + "  " + b + " refs/heads/x", bad: true},
		{line: a + " " + a256 + " refs/heads/x", bad: true},
		{line: strings.ToUpper(a) + " " + b + " refs/heads/x", bad: true},
		{line: a + " " + b + " ", bad: true},
		{line: a + " " + b, bad: true},
		{line: "", bad: true},
	} {
		u, ok, err := parsePushCommand(tc.line)
		if tc.bad {
			assert.Error(t, err, "%q", tc.line)
			continue
		}
		assert.NoError(t, err, "%q", tc.line)
		if tc.want == nil {
			assert.False(t, ok, "%q", tc.line)
			continue
		}
		assert.True(t, ok)
		assert.Equal(t, *tc.want, u)
	}
}

func TestPushRefusal(t *testing.T) {
	t.Parallel()
	ups := []repos.RefUpdate{{Ref: "refs/heads/main"}}
	assert.Nil(t, pushRefusal(ups, []string{"side-band-64k"}, "no"), "without report-status")
	assert.Nil(t, pushRefusal(nil, []string{"report-status"}, "no"))
	assert.Equal(t, "000eunpack ok\n001ang refs/heads/main no\n0000",
		string(pushRefusal(ups, []string{"report-status"}, "no")))
	assert.Equal(t, "000f\x02error: no\n"+"0031\x01000eunpack ok\n001ang refs/heads/main no\n0000"+"0000",
		string(pushRefusal(ups, []string{"report-status-v2", "side-band-64k"}, "no")))
	assert.Contains(t, string(pushRefusal(ups, []string{"report-status"}, "a\nb")), "ng refs/heads/main a b\n",
		"a message cannot break the framing")
}
