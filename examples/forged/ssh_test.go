package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge/site"
)

// TestSSHAddrHostKeyKept: with -ssh-addr forged serves SSH with a host key
// it made on the first start in the data directory, and the same key after
// a restart (ssh-keyscan, the real OpenSSH tool, reads it from the
// server).
func TestSSHAddrHostKeyKept(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ssh-keyscan"); err != nil {
		t.Skip("ssh-keyscan is not installed")
	}
	data := t.TempDir()
	served := func() string {
		s := start(t, data, nil, "-ssh-addr", "127.0.0.1:0")
		m := regexp.MustCompile(`ssh=127\.0\.0\.1:(\d+)`).FindStringSubmatch(s.logs.String())
		require.NotNil(t, m, "the SSH address is logged: %s", s.logs.String())
		out, err := exec.Command("ssh-keyscan", "-t", "ed25519", "-p", m[1], "127.0.0.1").Output()
		require.NoError(t, err)
		require.NoError(t, s.stop())
		fields := strings.Fields(string(out))
		require.Len(t, fields, 3, "%s", out)
		return fields[1] + " " + fields[2]
	}
	first := served()
	b, err := os.ReadFile(filepath.Join(data, site.HostKeyFile))
	require.NoError(t, err, "the host key is kept in the data directory")
	key, err := ssh.ParsePrivateKey(b)
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key.PublicKey()))), first)
	assert.Equal(t, first, served(), "the same host key after a restart")
}
