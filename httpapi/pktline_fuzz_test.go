package httpapi

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge/repos"
)

// FuzzReadPushCommands reads arbitrary receive-pack request bodies. On
// success git gets the body unchanged, every update names two object ids
// of one format and a reference, and writing the updates out again as
// pkt-lines reads back to the same updates; and the refusal Hearth would
// send for them (pushRefusal, with and without side-band) is a well-formed
// pkt-line stream.
func FuzzReadPushCommands(f *testing.F) {
	zero, a := strings.Repeat("0", 40), strings.Repeat("1", 40)
	z64, b64 := strings.Repeat("0", 64), strings.Repeat("b", 64)
	f.Add([]byte(pkt(zero+" "+a+" refs/heads/new\x00report-status side-band-64k")+pkt(a+" "+zero+" refs/heads/old")+"0000PACK"), "denied")
	f.Add([]byte(pkt(z64+" "+b64+" refs/heads/main\n\x00report-status-v2 side-band")+"0000"), "no\nway")
	f.Add([]byte(pkt("shallow "+a)+pkt(zero+" "+a+" refs/tags/v1")+"0000"), "")
	f.Add([]byte(pkt("push-cert\x00report-status")+"0000"), "x")
	f.Add([]byte(pkt(zero+" "+a+" refs/heads/"+strings.Repeat("x", 65400)+"\x00report-status")+"0000"), "refused")
	f.Add([]byte("0003"), "")
	f.Add([]byte("zzzz"), "")
	f.Fuzz(func(t *testing.T, raw []byte, msg string) {
		updates, caps, body, err := readPushCommands(io.NopCloser(bytes.NewReader(raw)), false)
		if err != nil {
			return
		}
		replay, _ := io.ReadAll(body)
		if !bytes.Equal(replay, raw) {
			t.Fatalf("replay %q, want %q", replay, raw)
		}
		var again strings.Builder
		for i, u := range updates {
			if !isObjectName(u.OldID) || len(u.NewID) != len(u.OldID) || !isObjectName(u.NewID) || u.Ref == "" || strings.Contains(u.Ref, "\x00") {
				t.Fatalf("update %+v", u)
			}
			line := u.OldID + " " + u.NewID + " " + u.Ref + "\n"
			if i == 0 {
				line += "\x00report-status"
			}
			again.WriteString(pkt(line))
		}
		again.WriteString("0000")
		back, _, _, err := readPushCommands(io.NopCloser(strings.NewReader(again.String())), false)
		if err != nil || len(back) != len(updates) {
			t.Fatalf("re-read %d updates: %v (%d)", len(updates), err, len(back))
		}
		for i := range back {
			if back[i] != updates[i] {
				t.Fatalf("update %d: %+v read back as %+v", i, updates[i], back[i])
			}
		}
		for _, cs := range [][]string{caps, {"report-status"}, {"report-status", "side-band-64k"}, {"report-status-v2", "side-band"}} {
			checkPktStream(t, pushRefusal(updates, cs, msg))
		}
	})
}

// checkPktStream fails unless out is a sequence of pkt-lines of at most
// 65520 bytes each (LARGE_PACKET_MAX) ending in a flush.
func checkPktStream(t *testing.T, out []byte) {
	t.Helper()
	if out == nil {
		return
	}
	for len(out) > 0 {
		if len(out) < 4 {
			t.Fatalf("truncated pkt-line %q", out)
		}
		n, err := strconv.ParseUint(string(out[:4]), 16, 16)
		if err != nil || n != 0 && n < 4 || n > 65520 || int(n) > len(out) {
			t.Fatalf("bad pkt-line length %q (%v) in a stream of %d bytes", out[:4], err, len(out))
		}
		if n == 0 {
			n = 4
			if len(out) == 4 {
				return
			}
		}
		out = out[n:]
	}
	t.Fatalf("no flush at the end")
}

// TestPushRefusalLongRef is the defect FuzzReadPushCommands found: a
// refused push naming a reference of some 65 KB (one pkt-line holds it)
// made pushRefusal frame an "ng" line too long for a pkt-line, and
// strings.Repeat panicked (a 500 for anyone, anonymous included). Such a
// push now gets the HTTP error, and a long message is cut to fit the
// side band.
func TestPushRefusalLongRef(t *testing.T) {
	t.Parallel()
	zero, a := strings.Repeat("0", 40), strings.Repeat("1", 40)
	long := []repos.RefUpdate{{OldID: zero, NewID: a, Ref: "refs/heads/" + strings.Repeat("x", 65500)}}
	if out := pushRefusal(long, []string{"report-status", "side-band-64k"}, "denied"); out != nil {
		t.Fatalf("pushRefusal of a 65 KB reference = %d bytes, want nil", len(out))
	}
	short := []repos.RefUpdate{{OldID: zero, NewID: a, Ref: "refs/heads/main"}}
	for _, caps := range [][]string{{"report-status"}, {"report-status", "side-band"}, {"report-status", "side-band-64k"}} {
		out := pushRefusal(short, caps, strings.Repeat("é", 40000))
		checkPktStream(t, out)
		if len(caps) == 2 && caps[1] == "side-band" {
			n, _ := strconv.ParseUint(string(out[:4]), 16, 16)
			if n > 1000 {
				t.Fatalf("side-band error line of %d bytes", n)
			}
		}
	}
}
