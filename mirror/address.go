package mirror

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// Reasons below forge.ErrInvalid (and forge.ErrForbidden) that tell apart the
// address refusals Forgejo answers with different messages or statuses
// (models.ErrInvalidCloneAddr; HandleRemoteAddressError, handleRemoteAddrError).
var (
	// ErrAddrURL: the address does not parse (`Invalid Url `, sic).
	ErrAddrURL = errors.New("mirror: address does not parse")
	// ErrAddrCredentials: userinfo inside an http(s)/git address
	// (`The URL contains credentials`).
	ErrAddrCredentials = errors.New("mirror: address contains credentials")
	// ErrAddrProtocol: a scheme other than http, https, git, ssh
	// (`Invalid mirror protocol`).
	ErrAddrProtocol = errors.New("mirror: address protocol refused")
	// ErrAddrBlocked: the host is refused by the Policy
	// (`You can not import from disallowed hosts.`).
	ErrAddrBlocked = errors.New("mirror: address host refused")
	// ErrAddrLocalPath: a local path without permission
	// (`You are not allowed to import local repositories.`).
	ErrAddrLocalPath = errors.New("mirror: local path refused")
)

// Messages of the address refusals, Forgejo's texts.
const (
	MsgURL         = "Invalid Url "
	MsgCredentials = "The URL contains credentials"
	MsgProtocol    = "Invalid mirror protocol"
	MsgBlocked     = "You can not import from disallowed hosts."
	MsgLocalPath   = "You are not allowed to import local repositories."
	// MsgMigrationProtocol is the refusal of a migration source whose
	// scheme is not http, https or git (ssh included), with its host.
	MsgMigrationProtocol = "migration/cloning from '%s' is not allowed: the provided url protocol is not allowed"
)

// CheckMigrationProtocol refuses the migration sources Forgejo's
// IsMigrateURLAllowed refuses for their scheme: anything but http, https,
// git and local paths. ssh remotes — `ssh://…` and SCP-like `user@host:path`,
// which Forgejo's ParseRemoteAddr turns into `ssh://` first — are refused
// for migrations and pull mirrors, as Forgejo does (they are allowed only
// as push-mirror targets, with use_ssh): the server would need an ssh key
// the migrating user cannot give, and ssh would bypass the address policy
// of the http transport. The refusal is forge.ErrInvalid with the reason
// ErrAddrProtocol and Forgejo's message (422 `migration/cloning from
// '<host>' is not allowed: the provided url protocol is not allowed`,
// the host with its port). Other addresses return nil, whatever else may
// be wrong with them (ParseRemoteAddress tells).
func CheckMigrationProtocol(addr string) error {
	addr = strings.TrimSpace(addr)
	host := ""
	if m := scpRegex.FindStringSubmatch(addr); m != nil && !strings.Contains(addr, "://") {
		host = m[2]
	} else if u, err := url.Parse(addr); err == nil && len(u.Scheme) > 1 {
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "git", "file":
			return nil
		}
		host = u.Host
	} else {
		return nil
	}
	return forge.Reasonf(forge.ErrInvalid, ErrAddrProtocol, MsgMigrationProtocol, host)
}

// Credentials authenticate to a remote. They are kept apart from the
// address, sealed at rest, and print as "[redacted]" through fmt, slog and
// JSON so that no log line or answer can carry them.
type Credentials struct {
	Username, Password string
	// PrivateKey is an SSH private key (push mirrors with use_ssh), PEM.
	PrivateKey []byte
}

// Empty reports whether c holds nothing.
func (c Credentials) Empty() bool {
	return c.Username == "" && c.Password == "" && len(c.PrivateKey) == 0
}

func (Credentials) String() string               { return "[redacted]" }
func (Credentials) GoString() string             { return "[redacted]" }
func (Credentials) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
func (Credentials) MarshalJSON() ([]byte, error) { return []byte(`"[redacted]"`), nil }
func (c Credentials) Format(f fmt.State, _ rune) { f.Write([]byte(c.String())) }
func (Credentials) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// RemoteAddress is a parsed remote: URL without any userinfo (what is shown
// and stored in the clear) and the credentials apart. A local path has
// Local set and URL "" .
type RemoteAddress struct {
	// URL is the address with its userinfo removed (ssh user names too), or
	// the cleaned local path when Local.
	URL   string
	Local bool
	// SSHUser is the user of an ssh:// or SCP-like address (git@…), kept
	// for the transport but not shown.
	SSHUser string
	Creds   Credentials
}

// String is the sanitised address: no userinfo.
func (a RemoteAddress) String() string { return a.URL }

// Host is the host name of a URL address ("" for a local path).
func (a RemoteAddress) Host() string {
	u, err := url.Parse(a.URL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

var scpRegex = regexp.MustCompile(`^([a-zA-Z0-9_]+)@([a-zA-Z0-9._-]+):(.*)$`)

// ParseRemoteAddress is Forgejo's ParseRemoteAddr with the credentials kept
// apart: http, https and git addresses with userinfo are refused
// (ErrAddrCredentials), as is any unparsable one (ErrAddrURL); username and
// password go to Creds; an SCP-like `user@host:path` becomes
// `ssh://host/path` with SSHUser; other schemes than http, https, git and
// ssh are ErrAddrProtocol; an address with no scheme is a local path (Local,
// checked later against Config.AllowLocalPaths). Every error is
// forge.ErrInvalid with Forgejo's message and the reason.
func ParseRemoteAddress(addr, username, password string) (RemoteAddress, error) {
	addr = strings.TrimSpace(addr)
	creds := Credentials{Username: username, Password: password}
	lower := strings.ToLower(addr)
	switch {
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "git://"):
		u, err := url.Parse(addr)
		if err != nil || u.Host == "" {
			return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrURL, MsgURL)
		}
		if u.User != nil {
			return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrCredentials, MsgCredentials)
		}
		return RemoteAddress{URL: u.String(), Creds: creds}, nil
	case strings.HasPrefix(lower, "ssh://"):
		u, err := url.Parse(addr)
		if err != nil || u.Host == "" {
			return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrURL, MsgURL)
		}
		if _, ok := u.User.Password(); ok {
			return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrCredentials, MsgCredentials)
		}
		user := u.User.Username()
		u.User = nil
		return RemoteAddress{URL: u.String(), SSHUser: user, Creds: creds}, nil
	}
	if m := scpRegex.FindStringSubmatch(addr); m != nil {
		u := &url.URL{Scheme: "ssh", Host: m[2], Path: "/" + m[3]}
		return RemoteAddress{URL: u.String(), SSHUser: m[1], Creds: creds}, nil
	}
	if u, err := url.Parse(addr); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrProtocol, MsgProtocol)
	}
	if addr == "" {
		return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrURL, MsgURL)
	}
	return RemoteAddress{URL: addr, Local: true, Creds: creds}, nil
}

// SanitizeURL removes the userinfo of an address (util.SanitizeURL); text
// that does not parse as a URL comes back unchanged.
func SanitizeURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	u.User = nil
	return u.String()
}

// userinfoRe matches a URL's scheme and userinfo: the userinfo ends at the
// last "@" of the authority (as net/url reads it), so a password holding
// "@" is removed whole.
var userinfoRe = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#\s]*@`)

// SanitizeMessage makes a git or network error fit for last_error, logs and
// answers: userinfo of every URL in it removed, every non-empty secret
// replaced by "[redacted]", and git's `exit status N - ` prefix dropped.
func SanitizeMessage(msg string, secrets ...string) string {
	msg = userinfoRe.ReplaceAllString(msg, "$1")
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "[redacted]")
			msg = strings.ReplaceAll(msg, url.QueryEscape(s), "[redacted]")
			msg = strings.ReplaceAll(msg, url.PathEscape(s), "[redacted]")
		}
	}
	if i := strings.Index(msg, "exit status "); i == 0 {
		if j := strings.Index(msg, " - "); j > 0 {
			msg = msg[j+3:]
		}
	}
	return strings.TrimSpace(msg)
}
