package httpapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge/repos"
)

// maxCommandBytes bounds the command section of a receive-pack request.
const maxCommandBytes = 1 << 20

// readPushCommands reads the reference updates at the start of a
// git-receive-pack request (pkt-lines "<old> <new> <ref>" up to the flush
// packet) and returns them, with the capabilities the client asked for on
// the first line, and a body that replays what was read.
func readPushCommands(body io.ReadCloser, gzipped bool) ([]repos.RefUpdate, []string, io.ReadCloser, error) {
	var src io.Reader = body
	if gzipped {
		// The commands sit at the start of the compressed stream: hand git
		// the uncompressed body (the caller drops Content-Encoding).
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, nil, nil, err
		}
		src = zr
	}
	var seen bytes.Buffer
	br := bufio.NewReader(io.TeeReader(src, &seen))
	var (
		updates []repos.RefUpdate
		caps    []string
	)
	for {
		head := make([]byte, 4)
		if _, err := io.ReadFull(br, head); err != nil {
			return nil, nil, nil, errors.New("malformed push request")
		}
		n, err := strconv.ParseUint(string(head), 16, 16)
		if err != nil {
			return nil, nil, nil, errors.New("malformed push request")
		}
		if n == 0 {
			break
		}
		if n < 4 || seen.Len() > maxCommandBytes {
			return nil, nil, nil, errors.New("malformed push request")
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(br, line); err != nil {
			return nil, nil, nil, errors.New("malformed push request")
		}
		if len(updates) == 0 {
			if _, c, ok := strings.Cut(strings.TrimSuffix(string(line), "\n"), "\x00"); ok {
				caps = strings.Fields(c)
			}
		}
		u, ok, err := parsePushCommand(string(line))
		if err != nil {
			return nil, nil, nil, err
		}
		if ok {
			updates = append(updates, u)
		}
	}
	// Replay: what the tee saw (the bufio reader may have read ahead; all
	// of it went through the tee), then the rest of the stream.
	return updates, caps, struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(seen.Bytes()), src), body}, nil
}

// parsePushCommand parses one pkt-line payload of a receive-pack command
// list as git does: "<old> <new> <ref>" (object names of 40 or 64
// hexadecimal digits, the reference being everything after the second
// space), capabilities after a NUL, an optional trailing newline. "shallow"
// lines are skipped (ok false). Anything else, notably "push-cert" (whose
// commands git would take from the certificate, unseen here), is an error,
// so that the commands authorised are exactly those git runs.
func parsePushCommand(line string) (repos.RefUpdate, bool, error) {
	line, _, _ = strings.Cut(line, "\x00")
	line = strings.TrimSuffix(line, "\n")
	if strings.HasPrefix(line, "shallow ") {
		return repos.RefUpdate{}, false, nil
	}
	bad := errors.New("malformed push request")
	old, rest, ok1 := strings.Cut(line, " ")
	nw, ref, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || !isObjectName(old) || len(nw) != len(old) || !isObjectName(nw) || ref == "" {
		return repos.RefUpdate{}, false, bad
	}
	return repos.RefUpdate{OldID: old, NewID: nw, Ref: ref}, true, nil
}

// isObjectName reports whether s is a SHA-1 or SHA-256 object name in
// lowercase hexadecimal.
func isObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// pushRefusal is a git-receive-pack result refusing every update with msg,
// as git reports a declined push: the message on the progress band (git
// shows it as "remote: error: …") and each reference "ng" with msg in the
// report (report-status and report-status-v2 agree on "ng" lines). Without
// either, or with a reference too long for its "ng" line to fit a pkt-line,
// it is nil (answer with an HTTP error). msg is cut to maxRefusalMessage
// bytes.
func pushRefusal(updates []repos.RefUpdate, caps []string, msg string) []byte {
	has := func(c string) bool {
		for _, x := range caps {
			if x == c {
				return true
			}
		}
		return false
	}
	if !has("report-status") && !has("report-status-v2") || len(updates) == 0 {
		return nil
	}
	msg = strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, msg)
	// The message goes in one pkt-line of the side band (at most 1000
	// bytes with side-band) and in each "ng" line: cut it short. A
	// reference too long for an "ng" line to fit in a pkt-line gets the
	// HTTP error instead.
	if len(msg) > maxRefusalMessage {
		msg = strings.ToValidUTF8(msg[:maxRefusalMessage], "")
	}
	report := pktLine("unpack ok\n")
	for _, u := range updates {
		line := "ng " + u.Ref + " " + msg + "\n"
		if len(line) > maxPktPayload {
			return nil
		}
		report += pktLine(line)
	}
	report += "0000"
	if !has("side-band-64k") && !has("side-band") {
		return []byte(report)
	}
	max := 65515
	if !has("side-band-64k") {
		max = 995
	}
	out := pktLine("\x02error: " + msg + "\n")
	for len(report) > 0 {
		n := min(len(report), max-1)
		out += pktLine("\x01" + report[:n])
		report = report[n:]
	}
	return []byte(out + "0000")
}

// maxPktPayload is the most a pkt-line carries (git's LARGE_PACKET_DATA_MAX).
const maxPktPayload = 65516

// maxRefusalMessage bounds the message of a pushRefusal, so that its
// side-band line fits git's 1000-byte side-band packets.
const maxRefusalMessage = 900

// pktLine frames s as one pkt-line; s must be at most maxPktPayload bytes.
func pktLine(s string) string {
	n := strconv.FormatInt(int64(len(s)+4), 16)
	return strings.Repeat("0", 4-len(n)) + n + s
}
