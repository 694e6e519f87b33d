package httpapi

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
)

// SSHCloneURL is how repositories' ssh_url is made when git is served over
// SSH (Forgejo's [server] SSH_DOMAIN, SSH_PORT, BUILTIN_SSH_SERVER_USER
// and [repository] USE_COMPAT_SSH_URI).
type SSHCloneURL struct {
	// User is the SSH user name in the URL ("git" when empty).
	User string
	// Domain is the host name clients reach the SSH server at.
	Domain string
	// Port is the SSH port (22 when zero).
	Port int
	// CompatURI writes ssh://user@host/owner/repo.git on port 22 too.
	CompatURI bool
}

// URL is Forgejo's ComposeSSHCloneURL for owner/name: on a port other than
// 22 ssh://user@host:port/owner/name.git; on 22 the scp-like
// user@host:owner/name.git (an IPv6 host in brackets), or the ssh:// form
// with CompatURI.
func (s *SSHCloneURL) URL(owner, name string) string {
	user := s.User
	if user == "" {
		user = "git"
	}
	port := s.Port
	if port == 0 {
		port = 22
	}
	path := url.PathEscape(owner) + "/" + url.PathEscape(name) + ".git"
	if port != 22 {
		return fmt.Sprintf("ssh://%s@%s/%s", user, net.JoinHostPort(s.Domain, strconv.Itoa(port)), path)
	}
	host := s.Domain
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		host = "[" + host + "]"
	}
	if s.CompatURI {
		return fmt.Sprintf("ssh://%s@%s/%s", user, host, path)
	}
	return fmt.Sprintf("%s@%s:%s", user, host, path)
}
