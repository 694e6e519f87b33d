package actions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckSecretName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want error
	}{
		{"TOKEN", nil},
		{"token", nil},
		{"_UNDER", nil},
		{"A1_B2", nil},
		{"CI_TOKEN", nil}, // only variables refuse CI
		{"", ErrInvalidName},
		{"1ABC", ErrInvalidName},
		{"WITH-DASH", ErrInvalidName},
		{"WITH SPACE", ErrInvalidName},
		{"DOT.TED", ErrInvalidName},
		{"ÜBER", ErrInvalidName},
		{"GITHUB_TOKEN", ErrInvalidName},
		{"github_token", ErrInvalidName},
		{"Gitea_X", ErrInvalidName},
		{"FORGEJO_X", ErrInvalidName},
		{"FORGEJOX", nil},
		{strings.Repeat("A", MaxNameLength), nil},
		{strings.Repeat("A", MaxNameLength+1), ErrInvalidName},
	} {
		assert.Equal(t, tc.want, CheckSecretName(tc.name), "%q", tc.name)
	}
}

func TestCheckVariableName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want error
	}{
		{"VAR", nil},
		{"CI", ErrCIName},
		{"ci_thing", ErrCIName},
		{"CIRCLE", ErrCIName}, // Forgejo's (?i)^CI
		{"XCI", nil},
		{"GITEA_X", ErrInvalidName},
		{"9X", ErrInvalidName},
	} {
		assert.Equal(t, tc.want, CheckVariableName(tc.name), "%q", tc.name)
	}
}

func TestDataRules(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a\nb\n\rc", NormalizeData("a\r\nb\n\rc"))
	for _, tc := range []struct {
		data     string
		required bool
		want     error
	}{
		{"", true, ErrEmptyData},
		{"", false, nil},
		{"x", true, nil},
		{strings.Repeat("x", MaxDataBytes), true, nil},
		{strings.Repeat("x", MaxDataBytes+1), true, ErrDataTooLong},
		{strings.Repeat("x", MaxDataBytes+1), false, ErrDataTooLong},
	} {
		assert.Equal(t, tc.want, CheckData(tc.data, tc.required), "len %d required %v", len(tc.data), tc.required)
	}
	assert.Equal(t, "ABC_D", CanonicalName("abC_d"))
}
