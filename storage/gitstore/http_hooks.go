package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge/repos"
)

// Directories of the Store root beside the repositories (<id>.git).
const (
	hooksDirName = "hooks"
	tmpDir       = "tmp"
)

// Environment variables read by the hooks.
const (
	// envFastForwardOnly lists, one a line, the references a push may only
	// fast-forward.
	envFastForwardOnly = "HEARTH_FAST_FORWARD_ONLY"
	// envPushLog names the file the post-receive hook writes the applied
	// updates to.
	envPushLog = "HEARTH_PUSH_LOG"
	// envQuotaAllowance is how many bytes the objects a push brings may
	// take (repos.PushAllowance): a larger push is refused with Forgejo's
	// "Quota exceeded" before any reference moves. Unset: no limit.
	envQuotaAllowance = "HEARTH_QUOTA_ALLOWANCE"
	// envQuotaRequest and envQuotaVerdict name the FIFOs of the push's
	// quotaGate. Unset: the push reserves nothing.
	envQuotaRequest = "HEARTH_QUOTA_REQUEST"
	envQuotaVerdict = "HEARTH_QUOTA_VERDICT"
)

// pushQuotaEnv returns the hook environment of the push allowance in ctx.
func pushQuotaEnv(ctx context.Context) []string {
	n, ok := repos.PushAllowance(ctx)
	if !ok {
		return nil
	}
	return []string{envQuotaAllowance + "=" + strconv.FormatInt(n, 10)}
}

// quotaGate serves the reservation request of one push's pre-receive
// hook: the hook writes the size of the objects the push brought to the
// FIFO request; the gate calls the push's repos.PushReserver and writes
// "ok" or "no" to the FIFO verdict. Both FIFOs are opened read-write by
// the gate before git runs, so neither side's open blocks, and closing
// them ends a gate whose hook never ran (a push of deletions, a push git
// refused earlier).
type quotaGate struct {
	dir       string
	req, resp *os.File
	done      chan struct{}
}

// openQuotaGate starts the gate of a push in a new directory under tmp,
// and returns it with the hook's environment. The caller closes it after
// git ended.
func openQuotaGate(ctx context.Context, tmp string, reserve repos.PushReserver) (*quotaGate, []string, error) {
	dir, err := os.MkdirTemp(tmp, "quota-*")
	if err != nil {
		return nil, nil, err
	}
	g := &quotaGate{dir: dir, done: make(chan struct{})}
	req, resp := filepath.Join(dir, "request"), filepath.Join(dir, "verdict")
	for _, p := range []string{req, resp} {
		if err := mkfifo(p); err != nil { // http_fifo_*.go
			os.RemoveAll(dir)
			return nil, nil, err
		}
	}
	if g.req, err = os.OpenFile(req, os.O_RDWR, 0); err == nil {
		if g.resp, err = os.OpenFile(resp, os.O_RDWR, 0); err != nil {
			g.req.Close()
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	go g.serve(ctx, reserve)
	return g, []string{envQuotaRequest + "=" + req, envQuotaVerdict + "=" + resp}, nil
}

// serve answers one request: "ok" when reserve accepted the size.
func (g *quotaGate) serve(ctx context.Context, reserve repos.PushReserver) {
	defer close(g.done)
	line, err := bufio.NewReader(g.req).ReadString('\n')
	if err != nil {
		return // closed: the hook never asked
	}
	verdict := "no\n"
	if n, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64); err == nil && n >= 0 && reserve(ctx, n) == nil {
		verdict = "ok\n"
	}
	g.resp.WriteString(verdict) // a pipe's buffer holds it: never blocks
}

// close ends the gate and removes its FIFOs.
func (g *quotaGate) close() {
	g.req.Close()
	<-g.done
	g.resp.Close()
	os.RemoveAll(g.dir)
}

// preReceiveHook refuses a non-fast-forward update or a deletion of a
// reference listed in HEARTH_FAST_FORWARD_ONLY, with Forgejo's message,
// and a push whose incoming objects (the files git received into its
// quarantine directory: the pack, or the loose objects it was unpacked
// to) take more than HEARTH_QUOTA_ALLOWANCE bytes, with Forgejo's
// "Quota exceeded". Last, when HEARTH_QUOTA_REQUEST is set, it asks the
// server to reserve that many bytes of quota (quotaGate): it writes the
// size to the FIFO HEARTH_QUOTA_REQUEST and reads the verdict ("ok", or
// anything else to refuse with "Quota exceeded") from the FIFO
// HEARTH_QUOTA_VERDICT. A refusal declines the whole push: no reference
// is updated.
const preReceiveHook = `#!/bin/sh
# Installed by Hearth (storage/gitstore): do not edit.
size=0
if { [ -n "$HEARTH_QUOTA_ALLOWANCE" ] || [ -n "$HEARTH_QUOTA_REQUEST" ]; } && [ -n "$GIT_QUARANTINE_PATH" ]; then
	size=$(find "$GIT_QUARANTINE_PATH" -type f -printf '%s\n' 2>/dev/null | awk '{s += $1} END {printf "%d", s}')
	size=${size:-0}
fi
if [ -n "$HEARTH_QUOTA_ALLOWANCE" ] && [ "$size" -gt "$HEARTH_QUOTA_ALLOWANCE" ]; then
	echo "Quota exceeded" >&2
	exit 1
fi
status=0
while read -r old new ref; do
	[ -n "$HEARTH_FAST_FORWARD_ONLY" ] || continue
	printf '%s\n' "$HEARTH_FAST_FORWARD_ONLY" | grep -qxF -- "$ref" || continue
	case "$old" in *[!0]*) ;; *) continue ;; esac
	name=${ref#refs/heads/}
	case "$new" in
	*[!0]*)
		if ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
			echo "error: branch $name is protected from force push" >&2
			status=1
		fi
		;;
	*)
		echo "error: branch $name is protected from deletion" >&2
		status=1
		;;
	esac
done
[ $status -eq 0 ] || exit $status
if [ -n "$HEARTH_QUOTA_REQUEST" ] && [ -n "$HEARTH_QUOTA_VERDICT" ]; then
	printf '%s\n' "$size" >"$HEARTH_QUOTA_REQUEST" || exit 1
	verdict=
	read -r verdict <"$HEARTH_QUOTA_VERDICT"
	if [ "$verdict" != ok ]; then
		echo "Quota exceeded" >&2
		exit 1
	fi
fi
exit 0
`

// postReceiveHook records the updates git applied.
const postReceiveHook = `#!/bin/sh
# Installed by Hearth (storage/gitstore): do not edit.
if [ -n "$HEARTH_PUSH_LOG" ]; then
	cat >"$HEARTH_PUSH_LOG"
else
	cat >/dev/null
fi
`

// hooksDir returns the Store's hooks directory (<root>/hooks), writing the
// hooks when they are missing or differ. It is shared by all repositories
// and passed to receive-pack as core.hooksPath; no repository's own hooks
// run. It also creates <root>/tmp for the hooks' files.
func (s *Store) hooksDir() (string, error) {
	dir := filepath.Join(s.root, hooksDirName)
	if err := os.MkdirAll(filepath.Join(s.root, tmpDir), 0o750); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	for name, body := range map[string]string{"pre-receive": preReceiveHook, "post-receive": postReceiveHook} {
		if err := writeHook(filepath.Join(dir, name), body); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// writeHook makes path an executable file holding body, replacing it
// atomically when it differs.
func writeHook(path, body string) error {
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, []byte(body)) {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o100 != 0 {
			return nil
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".hook-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o755); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
