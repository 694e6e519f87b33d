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
// packet) and returns them with a body that replays what was read.
func readPushCommands(body io.ReadCloser, gzipped bool) ([]repos.RefUpdate, io.ReadCloser, error) {
	var src io.Reader = body
	if gzipped {
		// The commands sit at the start of the compressed stream: hand git
		// the uncompressed body (the caller drops Content-Encoding).
		zr, err := gzip.NewReader(body)
		if err != nil {
			return nil, nil, err
		}
		src = zr
	}
	var seen bytes.Buffer
	br := bufio.NewReader(io.TeeReader(src, &seen))
	var updates []repos.RefUpdate
	for {
		head := make([]byte, 4)
		if _, err := io.ReadFull(br, head); err != nil {
			return nil, nil, errors.New("malformed push request")
		}
		n, err := strconv.ParseUint(string(head), 16, 16)
		if err != nil {
			return nil, nil, errors.New("malformed push request")
		}
		if n == 0 {
			break
		}
		if n < 4 || seen.Len() > maxCommandBytes {
			return nil, nil, errors.New("malformed push request")
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(br, line); err != nil {
			return nil, nil, errors.New("malformed push request")
		}
		cmd, _, _ := strings.Cut(string(line), "\x00")
		f := strings.Fields(cmd)
		if len(f) == 3 {
			updates = append(updates, repos.RefUpdate{OldID: f[0], NewID: f[1], Ref: f[2]})
		}
	}
	// Replay: what the tee saw (the bufio reader may have read ahead; all
	// of it went through the tee), then the rest of the stream.
	return updates, struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(seen.Bytes()), src), body}, nil
}
