package main

import "testing"

// TestMirrorHoldersOfServersSharingADataDirectoryDiffer: several forged
// servers may share one -data directory (with PostgreSQL); were their
// mirror lease holders one name, each would renew, take and (at start,
// ReleaseLeases) release the others' live leases, and two syncs of one
// mirror would run at once. A server's holder stays its own across a
// restart, so that the restart releases what its crash left.
func TestMirrorHoldersOfServersSharingADataDirectoryDiffer(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	a, err := mirrorHolder(data, "127.0.0.1:3000")
	if err != nil {
		t.Fatal(err)
	}
	b, err := mirrorHolder(data, "127.0.0.1:3001")
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatalf("two servers on one host sharing %s hold leases as one: %q", data, a)
	}
	again, err := mirrorHolder(data, "127.0.0.1:3000")
	if err != nil {
		t.Fatal(err)
	}
	if again != a {
		t.Fatalf("a restarted server holds as %q, before as %q: it can't release what its crash left", again, a)
	}
}
