package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/forge/sshkeys"
	"github.com/hearthforge/hearth/quota"
)

// GitStreamServer serves git's pack protocol over a stream once a request
// is authorised (storage/gitstore.Stream implements it): a fetch is one
// UploadPack; a push is AdvertiseReceivePack, then, once the caller read
// and authorised the client's commands, ReceivePack, which replays them
// from in, applies Hearth's hooks (fastForwardOnly, the quota reservation
// ctx carries) and returns the updates git applied. protocol is the
// client's GIT_PROTOCOL.
type GitStreamServer interface {
	UploadPack(ctx context.Context, repo forge.ID, protocol, remoteUser string, in io.Reader, out, errw io.Writer) error
	AdvertiseReceivePack(ctx context.Context, repo forge.ID, protocol string, out io.Writer) error
	ReceivePack(ctx context.Context, repo forge.ID, protocol, remoteUser string, fastForwardOnly []string, in io.Reader, out, errw io.Writer) ([]repos.RefUpdate, error)
}

// SSHConfig configures git over SSH (API.ServeSSH).
type SSHConfig struct {
	// HostKeys are the server's host keys. At least one is required.
	HostKeys []ssh.Signer
	// Keys authenticates connections by the public key the client holds
	// (users' keys and deploy keys). Required.
	Keys *sshkeys.Ports
	// Git runs git for authorised requests. Required.
	Git GitStreamServer
	// HandshakeTimeout bounds a connection's SSH handshake; zero is 30
	// seconds.
	HandshakeTimeout time.Duration
}

// ServeSSH serves git over SSH on ln until ctx ends, then closes ln, ends
// the open connections and returns nil (or the listener's error). A client
// authenticates with a public key that a user or a repository has
// (forge/sshkeys); `git-upload-pack '<owner>/<repo>.git'` and
// `git-receive-pack …` then take the same path as smart HTTP
// (authorizeGit and beginPush, gitcore.go): the account state, the token
// scope, read or write access, protection, quota and the after-push
// step. An unknown key is refused at authentication; a refused request
// gets its reason on stderr and exit status 1, which git reports as "Could
// not read from remote repository"; a refused update is reported in git's
// push report, as over HTTP. The session's GIT_PROTOCOL variable selects
// the protocol (version 2 for fetches).
func (a *API) ServeSSH(ctx context.Context, ln net.Listener, cfg SSHConfig) error {
	if len(cfg.HostKeys) == 0 || cfg.Keys == nil || cfg.Git == nil || a.cfg.Repos == nil {
		return errors.New("httpapi: ServeSSH needs host keys, Keys, Git and Config.Repos")
	}
	conf := &ssh.ServerConfig{
		ServerVersion: "SSH-2.0-Hearth",
		PublicKeyCallback: func(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			fp := ssh.FingerprintSHA256(key)
			if _, _, err := cfg.Keys.ActorOf(ctx, fp); err != nil {
				return nil, err
			}
			// The key is looked up again at each command: a key removed,
			// or an account disabled, since the connection opened stops
			// working at once.
			return &ssh.Permissions{Extensions: map[string]string{"fingerprint": fp}}, nil
		},
	}
	for _, k := range cfg.HostKeys {
		conf.AddHostKey(k)
	}
	handshake := cfg.HandshakeTimeout
	if handshake <= 0 {
		handshake = 30 * time.Second
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns = map[net.Conn]struct{}{}
	)
	stop := context.AfterFunc(ctx, func() {
		ln.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	defer stop()
	defer wg.Wait()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		mu.Lock()
		conns[nc] = struct{}{}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				mu.Lock()
				delete(conns, nc)
				mu.Unlock()
				nc.Close()
			}()
			a.sshConn(ctx, nc, conf, handshake, cfg)
		}()
	}
}

// sshConn serves one connection: its session channels, one command each.
func (a *API) sshConn(ctx context.Context, nc net.Conn, conf *ssh.ServerConfig, handshake time.Duration, cfg SSHConfig) {
	nc.SetDeadline(time.Now().Add(handshake))
	sc, chans, reqs, err := ssh.NewServerConn(nc, conf)
	if err != nil {
		return
	}
	defer sc.Close()
	nc.SetDeadline(time.Time{})
	go ssh.DiscardRequests(reqs)
	fp := sc.Permissions.Extensions["fingerprint"]
	var wg sync.WaitGroup
	defer wg.Wait()
	for nch := range chans {
		if nch.ChannelType() != "session" {
			nch.Reject(ssh.UnknownChannelType, "only sessions are served")
			continue
		}
		ch, reqs, err := nch.Accept()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer ch.Close()
			a.sshSession(ctx, fp, ch, reqs, cfg)
		}()
	}
}

// sshSession serves one session: env requests (GIT_PROTOCOL kept), then
// one exec, whose exit status it sends.
func (a *API) sshSession(ctx context.Context, fp string, ch ssh.Channel, reqs <-chan *ssh.Request, cfg SSHConfig) {
	protocol := ""
	for req := range reqs {
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			if ssh.Unmarshal(req.Payload, &kv) == nil && kv.Name == "GIT_PROTOCOL" {
				protocol = kv.Value
			}
			req.Reply(true, nil)
		case "exec":
			var cmd struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &cmd); err != nil {
				req.Reply(false, nil)
				continue
			}
			req.Reply(true, nil)
			go ssh.DiscardRequests(reqs)
			status := a.sshGit(ctx, fp, protocol, cmd.Command, ch, cfg)
			ch.CloseWrite()
			ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
			return
		case "shell":
			// Forgejo greets an interactive login and closes.
			req.Reply(true, nil)
			fmt.Fprintf(ch.Stderr(), "Hi there! You've successfully authenticated, but Hearth does not provide shell access.\n")
			ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{1}))
			return
		default:
			req.Reply(false, nil)
		}
	}
}

// parseSSHCommand reads git's remote command: `git-upload-pack '<path>'`
// or `git-receive-pack '<path>'` (also `git upload-pack`), the path
// single-quoted as git quotes it. It returns the service and the path
// without quotes and leading slash; ok is false for anything else.
func parseSSHCommand(command string) (service, path string, ok bool) {
	command = strings.TrimSpace(command)
	for _, s := range []string{"git-upload-pack", "git-receive-pack", "git upload-pack", "git receive-pack"} {
		if rest, found := strings.CutPrefix(command, s+" "); found {
			service = strings.Replace(s, " ", "-", 1)
			path = strings.TrimSpace(rest)
			break
		}
	}
	if service == "" {
		return "", "", false
	}
	if len(path) >= 2 && path[0] == '\'' && path[len(path)-1] == '\'' {
		path = path[1 : len(path)-1]
	}
	if strings.ContainsAny(path, "'\"\\ \t\n\x00") {
		return "", "", false
	}
	path = strings.TrimPrefix(path, "/")
	return service, path, path != ""
}

// splitRepoPath splits "<owner>/<repo>(.git)" as the smart HTTP routes do
// ("/{owner}/{repo}/…"): exactly two segments, the repository name as
// given (the service drops ".git").
func splitRepoPath(path string) (owner, name string, ok bool) {
	owner, name, ok = strings.Cut(path, "/")
	return owner, name, ok && owner != "" && name != "" && !strings.Contains(name, "/")
}

// sshGit runs one git command for the key of fingerprint fp and returns
// its exit status.
func (a *API) sshGit(ctx context.Context, fp, protocol, command string, ch ssh.Channel, cfg SSHConfig) int {
	stderr := ch.Stderr()
	fail := func(msg string) int {
		fmt.Fprintf(stderr, "Hearth: %s\n", msg)
		return 1
	}
	service, path, ok := parseSSHCommand(command)
	if !ok {
		return fail("only git-upload-pack and git-receive-pack are served")
	}
	owner, name, ok := splitRepoPath(path)
	if !ok {
		return fail("Repository does not exist")
	}
	actor, _, err := cfg.Keys.ActorOf(ctx, fp)
	if err != nil {
		return fail("Public key is unknown")
	}
	deny := func(err error) int {
		switch {
		case errors.Is(err, forge.ErrNotFound):
			return fail("Repository does not exist")
		case errors.Is(err, forge.ErrForbidden), errors.Is(err, forge.ErrArchived), errors.Is(err, forge.ErrInvalid),
			errors.Is(err, forge.ErrUnauthenticated):
			return fail(err.Error())
		}
		a.log.ErrorContext(ctx, "git over ssh", "repo", path, "err", err)
		return fail("Internal error")
	}
	user := remoteUser(actor)
	if service == "git-upload-pack" {
		repo, _, err := a.authorizeGit(ctx, actor, owner, name, false, nil) // gitcore.go
		if err != nil {
			return deny(err)
		}
		if err := cfg.Git.UploadPack(ctx, repo, protocol, user, ch, ch, stderr); err != nil {
			return 1
		}
		return 0
	}
	// A push: may the actor push at all (before the advertisement), then
	// its commands, as the HTTP transport reads them.
	repo, _, err := a.authorizeGit(ctx, actor, owner, name, true, nil)
	if err != nil {
		return deny(err)
	}
	if err := cfg.Git.AdvertiseReceivePack(ctx, repo, protocol, ch); err != nil {
		return fail("Internal error")
	}
	updates, caps, body, err := readPushCommands(io.NopCloser(ch), false)
	if err != nil {
		return 1 // the client hung up (nothing to push) or sent garbage
	}
	if len(updates) == 0 {
		return 0
	}
	_, plan, err := a.authorizeGit(ctx, actor, owner, name, true, updates)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, quota.ErrExceeded) {
			msg = "Quota exceeded"
		}
		report := pushRefusal(updates, caps, msg)
		if report == nil || !errors.Is(err, forge.ErrForbidden) && !errors.Is(err, quota.ErrExceeded) {
			return deny(err)
		}
		// git's own report, as from a declined hook; then let the client
		// finish sending its pack and read the report.
		ch.Write(report)
		drain(ch, 30*time.Second)
		return 0
	}
	pushCtx, end := a.beginPush(ctx, actor, plan, path) // gitcore.go
	applied, err := cfg.Git.ReceivePack(pushCtx, repo, protocol, user, plan.FastForwardOnly, body, ch, stderr)
	end(applied)
	if err != nil {
		return 1
	}
	return 0
}

// drain reads r to its end, for at most d.
func drain(r io.Reader, d time.Duration) {
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, r)
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
