package httpapi

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge/repos"
)

func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

func TestReadPushCommands(t *testing.T) {
	t.Parallel()
	zero, a, b := "0000000000000000000000000000000000000000", "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	raw := pkt(zero+" "+a+" refs/heads/new\x00report-status side-band-64k") + pkt(b+" "+zero+" refs/heads/old") + "0000PACKDATA"
	want := []repos.RefUpdate{{Ref: "refs/heads/new", OldID: zero, NewID: a}, {Ref: "refs/heads/old", OldID: b, NewID: zero}}

	updates, caps, body, err := readPushCommands(io.NopCloser(bytes.NewBufferString(raw)), false)
	require.NoError(t, err)
	assert.Equal(t, want, updates)
	assert.Equal(t, []string{"report-status", "side-band-64k"}, caps)
	replay, _ := io.ReadAll(body)
	assert.Equal(t, raw, string(replay), "git gets the request unchanged")

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(raw))
	zw.Close()
	updates, _, body, err = readPushCommands(io.NopCloser(&z), true)
	require.NoError(t, err)
	assert.Equal(t, want, updates)
	replay, _ = io.ReadAll(body)
	assert.Equal(t, raw, string(replay), "a gzipped request is handed on uncompressed")

	for _, bad := range []string{"", "zzzz", "0003", pkt("xyz")[:6]} {
		_, _, _, err := readPushCommands(io.NopCloser(bytes.NewBufferString(bad)), false)
		assert.Error(t, err, "%q", bad)
	}
}
