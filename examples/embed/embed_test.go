package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmbeddedHost: the host's own route, the API and git's smart HTTP
// all answer on one mux: a repository created through the API is cloned
// with the real git client.
func TestEmbeddedHost(t *testing.T) {
	t.Parallel()
	h, closeDB, err := handler(context.Background(), t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { closeDB() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	res, err := http.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	body, _ := json.Marshal(map[string]any{"name": "site", "auto_init": true})
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/user/repos", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("host", "change-me-please")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode)

	dir := t.TempDir()
	cmd := exec.Command("git", "clone", "-q", strings.Replace(srv.URL, "http://", "http://host:change-me-please@", 1)+"/host/site.git", dir+"/site")
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	_, err = os.Stat(filepath.Join(dir, "site", "README.md"))
	assert.NoError(t, err, "the clone has the initial README")
}

// TestREADMEShowsThisProgram: the README's embedding section is this
// program's handler, word for word.
func TestREADMEShowsThisProgram(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("serve.go")
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	start := bytes.Index(src, []byte("func handler("))
	end := bytes.Index(src[start:], []byte("\n}\n"))
	require.True(t, start >= 0 && end > 0)
	fn := string(src[start : start+end+2])
	assert.Contains(t, string(readme), "```go\n"+fn+"\n```\n", "README.md must show examples/embed/serve.go's handler as it is, in a closed Go block")
}
