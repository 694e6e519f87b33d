package main

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckPprofAddr(t *testing.T) {
	t.Parallel()
	for addr, ok := range map[string]bool{
		"127.0.0.1:6060": true, "[::1]:6060": true, "localhost:0": true, "127.0.0.2:1": true,
		":6060": false, "0.0.0.0:6060": false, "[::]:6060": false, "192.168.1.2:6060": false,
		"example.com:6060": false, "127.0.0.1": false,
	} {
		assert.Equal(t, ok, checkPprofAddr(addr) == nil, addr)
	}
}

// TestPprofFlag: -pprof serves the profiles on its own loopback listener,
// not on the API's; a public address is refused at start.
func TestPprofFlag(t *testing.T) {
	t.Parallel()
	s := start(t, filepath.Join(t.TempDir(), "data"), nil, "-admin-password", "pw-pw-pw-pw", "-pprof", "127.0.0.1:0")
	// The address is logged before the server is ready.
	m := regexp.MustCompile(`pprof listening" addr=(\S+)`).FindStringSubmatch(s.logs.String())
	require.NotNil(t, m, "no pprof address in the log: %s", s.logs.String())
	url := m[1]
	res, err := http.Get(url + "goroutine?debug=1")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
	assert.Contains(t, string(body), "goroutine profile")
	res, err = http.Get(s.url + "/debug/pprof/")
	require.NoError(t, err)
	res.Body.Close()
	assert.NotEqual(t, 200, res.StatusCode, "the API listener serves no profiles")

	var stderr strings.Builder
	_, err = parseFlags([]string{"-pprof", "0.0.0.0:6060"}, func(string) string { return "" }, &stderr)
	assert.ErrorContains(t, err, "loopback")
}
