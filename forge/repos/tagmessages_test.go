package repos_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/repos"
)

func TestStripTagSignature(t *testing.T) {
	t.Parallel()
	pgp := "-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n"
	ssh := "-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----\n"
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain\n", "plain\n"},
		{"signed\n" + pgp, "signed\n"},
		{"signed\n" + ssh, "signed\n"},
		{"two\n\n" + pgp + "\n" + pgp, "two\n\n" + pgp + "\n"},
		{"no end\n-----BEGIN PGP SIGNATURE-----\nabc\n", "no end\n-----BEGIN PGP SIGNATURE-----\nabc\n"},
		{pgp, pgp}, // no newline before it: not a signature block
	} {
		if got := repos.StripTagSignature(tc.in); got != tc.want {
			t.Errorf("StripTagSignature(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
