package httpapi

import "testing"

// TestParseSSHCommand: only git's two pack services with one repository
// path are run; anything else (other commands, shell syntax, extra
// arguments) is refused.
func TestParseSSHCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cmd, service, owner, name string
		ok                        bool
	}{
		{"git-upload-pack '/alice/r.git'", "git-upload-pack", "alice", "r.git", true},
		{"git-receive-pack 'alice/r.git'", "git-receive-pack", "alice", "r.git", true},
		{"git upload-pack '/alice/r'", "git-upload-pack", "alice", "r", true},
		{"git-upload-pack alice/r.wiki.git", "git-upload-pack", "alice", "r.wiki.git", true},
		{"git-upload-archive '/alice/r.git'", "", "", "", false},
		{"ls -la", "", "", "", false},
		{"git-upload-pack '/alice/r.git'; rm -rf /", "", "", "", false},
		{"git-upload-pack 'a/b' 'c/d'", "", "", "", false},
		{"git-upload-pack '/alice'", "", "", "", false},
		{"git-upload-pack '/a/b/c'", "", "", "", false},
		{"git-upload-pack ''", "", "", "", false},
		{"git-upload-pack", "", "", "", false},
	} {
		service, path, ok := parseSSHCommand(c.cmd)
		owner, name := "", ""
		if ok {
			owner, name, ok = splitRepoPath(path)
		}
		if ok != c.ok || ok && (service != c.service || owner != c.owner || name != c.name) {
			t.Errorf("%q: %q %q %q %v, want %q %q %q %v", c.cmd, service, owner, name, ok, c.service, c.owner, c.name, c.ok)
		}
	}
}
