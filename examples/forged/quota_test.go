package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/quota"
)

func TestQuotaFlags(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	o, err := parseFlags(nil, none, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, quota.Config{DefaultTotal: -1}, o.quota, "off by default, as Forgejo")
	o, err = parseFlags([]string{"-quota", "-quota-default-groups", "small, big,", "-quota-default-total", "1 GiB"}, none, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, quota.Config{Enabled: true, DefaultGroups: []string{"small", "big"}, DefaultTotal: 1 << 30}, o.quota)
}

// TestQuotaEndToEnd: forged -quota serves the quota API and refuses a
// repository over the default total; without -quota the API is absent.
func TestQuotaEndToEnd(t *testing.T) {
	t.Parallel()
	env := map[string]string{"FORGED_ADMIN_USER": "boss", "FORGED_ADMIN_PASSWORD": "boss-password"}
	off := start(t, filepath.Join(t.TempDir(), "data"), env)
	r := off.do(t, call{method: "GET", path: "/api/v1/user/quota", user: "boss", pass: "boss-password"})
	assert.Equal(t, 404, r.status, "%s", r.raw)

	s := start(t, filepath.Join(t.TempDir(), "data"), env, "-quota", "-quota-default-total", "1")
	boss := call{user: "boss", pass: "boss-password"}
	boss.method, boss.path = "GET", "/api/v1/user/quota"
	r = s.do(t, boss)
	require.Equal(t, 200, r.status, "%s", r.raw)
	assert.Equal(t, []any{}, r.body["groups"])
	boss.method, boss.path, boss.body = "POST", "/api/v1/user/repos", map[string]any{"name": "one"}
	r = s.do(t, boss)
	require.Equal(t, 201, r.status, "%s", r.raw) // no usage yet: 0 < 1
	boss.body = map[string]any{"name": "two"}
	r = s.do(t, boss)
	require.Equal(t, 413, r.status, "%s", r.raw)
	assert.Equal(t, map[string]any{"message": "quota exceeded", "user_id": float64(1), "username": "boss"}, r.body)
}
