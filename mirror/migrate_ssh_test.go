package mirror_test

import (
	"errors"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/mirror"
)

func TestCheckMigrationProtocol(t *testing.T) {
	t.Parallel()
	const msg = "migration/cloning from '%s' is not allowed: the provided url protocol is not allowed"
	for _, c := range []struct{ in, host string }{
		{"ssh://git@example.com/owner/repo.git", "example.com"},
		{"ssh://example.com:2222/owner/repo.git", "example.com:2222"},
		{"SSH://git@example.com/x", "example.com"},
		{"git@example.com:owner/repo.git", "example.com"},
		{"  git@example.com:owner/repo.git  ", "example.com"},
		{"ftp://example.com/x.git", "example.com"},
		{"git+ssh://example.com/x.git", "example.com"},
		{"https://example.com/x.git", ""},
		{"http://example.com/x.git", ""},
		{"git://example.com/x.git", ""},
		{"/srv/git/x.git", ""},
		{"relative/path", ""},
		{"", ""},
	} {
		err := mirror.CheckMigrationProtocol(c.in)
		if c.host == "" {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		want := forge.Errorf(forge.ErrInvalid, msg, c.host).Error()
		if err == nil || err.Error() != want || !errors.Is(err, mirror.ErrAddrProtocol) || !errors.Is(err, forge.ErrInvalid) {
			t.Errorf("%q: %v, want %q", c.in, err, want)
		}
	}
}

// TestMigrationRefusesSSH: CheckMigration refuses ssh sources (plain and
// mirror) before any address resolution; push mirrors still take them.
func TestMigrationRefusesSSH(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mirror.Config{})
	admin := e.user("boss", forge.AccessModeAdmin)
	for _, m := range []bool{false, true} {
		for _, addr := range []string{"ssh://git@src.example/a.git", "git@src.example:a.git"} {
			_, err := mirror.CheckMigration(e.svc, e.ctx, admin, mirror.MigrateOptions{CloneAddr: addr, Mirror: m})
			if !errors.Is(err, mirror.ErrAddrProtocol) ||
				err.Error() != "migration/cloning from 'src.example' is not allowed: the provided url protocol is not allowed" {
				t.Errorf("%s (mirror %v): %v", addr, m, err)
			}
		}
	}
	if len(e.git.snapshot()) != 0 {
		t.Errorf("git ran for a refused source")
	}
}
