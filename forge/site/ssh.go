package site

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/crypto/ssh"

	"github.com/hearthforge/hearth/httpapi"
)

// SSH configures git over SSH (Config.SSH): Run serves it.
type SSH struct {
	// Listener is what to serve on; nil: listen on Addr.
	Listener net.Listener
	// Addr is the TCP address to listen on when Listener is nil
	// (":2222").
	Addr string
	// HostKey is the server's host key. Nil: the key kept in the data
	// directory (HostKeyFile under Config.Dir, made on first start), or
	// a new one for this process without Dir.
	HostKey ssh.Signer
	// Domain, Port and User make repositories' ssh_url (Forgejo's
	// SSH_DOMAIN, SSH_PORT, BUILTIN_SSH_SERVER_USER). Empty Domain: the
	// listener's host ("localhost" for an unspecified address); zero
	// Port: the listener's; empty User: "git".
	Domain string
	Port   int
	User   string
}

// HostKeyFile is where New keeps the SSH host key in Config.Dir.
const HostKeyFile = "ssh/hearth_host_ed25519_key"

// LoadOrCreateHostKey returns the SSH host key in the OpenSSH private key
// file at path, first making one (ed25519, mode 0600, its directory 0700)
// when there is none.
func LoadOrCreateHostKey(path string) (ssh.Signer, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		block, err := ssh.MarshalPrivateKey(priv, "hearth host key")
		if err != nil {
			return nil, err
		}
		b = pem.EncodeToMemory(block)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) { // another process made it first
			return LoadOrCreateHostKey(path)
		}
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(b); err != nil {
			f.Close()
			os.Remove(path)
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	return ssh.ParsePrivateKey(b)
}

// openSSH prepares git over SSH for cfg (nil when off): its listener,
// host key and the ssh_url maker. The listener is closed by Close.
func (s *Site) openSSH(cfg *Config) (*httpapi.SSHCloneURL, error) {
	c := cfg.SSH
	if c == nil {
		return nil, nil
	}
	key := c.HostKey
	if key == nil {
		var err error
		if cfg.Dir != "" {
			key, err = LoadOrCreateHostKey(filepath.Join(cfg.Dir, HostKeyFile))
		} else {
			var priv ed25519.PrivateKey
			if _, priv, err = ed25519.GenerateKey(rand.Reader); err == nil {
				key, err = ssh.NewSignerFromKey(priv)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	ln := c.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", c.Addr); err != nil {
			return nil, err
		}
	}
	s.closers = append(s.closers, func() error {
		if err := ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			return err
		}
		return nil
	})
	s.sshLn, s.sshKey = ln, key
	u := &httpapi.SSHCloneURL{Domain: c.Domain, Port: c.Port, User: c.User}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if u.Domain == "" {
		u.Domain = host
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			u.Domain = "localhost"
		}
	}
	if u.Port == 0 {
		u.Port, _ = strconv.Atoi(port)
	}
	return u, nil
}
