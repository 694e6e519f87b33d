package gitstore

import (
	"context"
	"errors"
	"io"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Stream serves git's pack protocol over one bidirectional stream, as
// git over SSH runs it, once the caller authorised the request: the same
// git commands, hooks and limits as HTTP, in the order a stream needs. A
// fetch is one UploadPack; a push is AdvertiseReceivePack, then (once the
// caller read and authorised the client's commands) ReceivePack.
type Stream struct {
	Store *Store
	// MaxPushBytes caps what one push sends (commands and pack): past it
	// git is stopped and nothing is updated. Zero means
	// DefaultMaxPushBytes; negative means unlimited.
	MaxPushBytes int64
}

// ErrBusy is returned when every git turn is taken (Options.MaxGitRequests)
// for longer than the wait.
var ErrBusy = errors.New("too many git requests at once, try again later")

// protocolEnv is GIT_PROTOCOL for a client's requested protocol (the SSH
// session's GIT_PROTOCOL variable) when it is well formed, else nothing.
func protocolEnv(protocol string) []string {
	if protocol != "" && safeGitProtocol.MatchString(protocol) {
		return []string{"GIT_PROTOCOL=" + protocol}
	}
	return nil
}

// run runs git args in repo with in, out and errw, under a turn.
func (st Stream) run(ctx context.Context, repo forge.ID, env []string, in io.Reader, out, errw io.Writer, args ...string) error {
	s := st.Store
	release, ok := s.serveTurn(ctx)
	if !ok {
		return ErrBusy
	}
	defer release()
	c := s.cmd(ctx, repo, env, args...)
	c.Stdin, c.Stdout, c.Stderr = in, out, errw
	return c.Run()
}

// UploadPack serves a clone or fetch of repo: `git upload-pack`, the
// whole conversation (protocol v2 when protocol asks it), filters allowed
// as over HTTP. git's messages go to errw.
func (st Stream) UploadPack(ctx context.Context, repo forge.ID, protocol, remoteUser string, in io.Reader, out, errw io.Writer) error {
	env := append([]string{"REMOTE_USER=" + remoteUser}, protocolEnv(protocol)...)
	return st.run(ctx, repo, env, in, out, errw, "-c", "uploadpack.allowFilter=true", "upload-pack", ".")
}

// AdvertiseReceivePack writes repo's reference advertisement for a push to
// out (what `git receive-pack` says first).
func (st Stream) AdvertiseReceivePack(ctx context.Context, repo forge.ID, protocol string, out io.Writer) error {
	return st.run(ctx, repo, protocolEnv(protocol), nil, out, io.Discard, "receive-pack", "--stateless-rpc", "--advertise-refs", ".")
}

// ReceivePack runs the rest of a push whose commands the caller read and
// authorised: in replays them, then the pack. It runs git receive-pack
// with Hearth's hooks (fastForwardOnly, the quota allowance and
// reservation ctx carries: see HTTP.ServeGitRPC) and returns the updates
// git applied. A push over the size limit is stopped and applies nothing.
func (st Stream) ReceivePack(ctx context.Context, repo forge.ID, protocol, remoteUser string, fastForwardOnly []string, in io.Reader, out, errw io.Writer) ([]repos.RefUpdate, error) {
	hooks, err := st.Store.preparePush(ctx, fastForwardOnly)
	if err != nil {
		return nil, err
	}
	defer hooks.close()
	env := append([]string{"REMOTE_USER=" + remoteUser}, protocolEnv(protocol)...)
	env = append(env, hooks.env...)
	limited := &streamLimit{r: in, left: cmpOr(st.MaxPushBytes, DefaultMaxPushBytes)}
	args := append(append([]string{}, hooks.args...), "receive-pack", "--stateless-rpc", ".")
	if err := st.run(ctx, repo, env, limited, out, errw, args...); err != nil {
		if limited.over {
			return nil, forge.Errorf(forge.ErrInvalid, "push exceeds the maximum size of %d bytes", st.MaxPushBytes)
		}
		return nil, err
	}
	updates := readPushLog(hooks.log)
	if len(updates) > 0 {
		st.Store.writeCommitGraph(ctx, repo)
	}
	return updates, nil
}

// streamLimit reads at most left bytes (negative: no limit), then fails.
type streamLimit struct {
	r    io.Reader
	left int64
	over bool
}

func (l *streamLimit) Read(p []byte) (int, error) {
	if l.left < 0 {
		return l.r.Read(p)
	}
	if l.left == 0 {
		l.over = true
		return 0, errPushTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
