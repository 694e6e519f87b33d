package mirror

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Kind tells pull mirrors from push mirrors.
type Kind string

// Kinds.
const (
	KindPull Kind = "pull"
	KindPush Kind = "push"
)

// Key names one mirror for scheduling and leases.
type Key struct {
	Kind Kind
	ID   forge.ID
}

// PullMirror is a repository that mirrors a remote (Forgejo's repo.Mirror):
// one per repository; its existence is what makes the repository a mirror.
type PullMirror struct {
	ID     forge.ID
	RepoID forge.ID
	// RemoteAddress is the address without userinfo.
	RemoteAddress string
	// SealedCreds is the credentials sealed with Config.Secret ("" if none).
	SealedCreds string
	Interval    time.Duration
	EnablePrune bool
	LFS         bool
	LFSEndpoint string
	// Updated is the end of the last successful sync (mirror_updated);
	// zero if never.
	Updated time.Time
	// NextUpdate is when the scheduler syncs it next; zero: never on schedule.
	NextUpdate time.Time
	// LastError is the sanitised error of the last failed sync, "" after a
	// success; Failures counts consecutive failures (back-off).
	LastError string
	Failures  int
}

// Key returns the mirror's scheduling key.
func (m *PullMirror) Key() Key { return Key{KindPull, m.ID} }

// PushMirror pushes a repository to a remote (Forgejo's repo.PushMirror).
type PushMirror struct {
	ID            forge.ID
	RepoID        forge.ID
	RemoteName    string // remote_mirror_xxxxxxxxxxx, unique per repository
	RemoteAddress string // without userinfo
	SealedCreds   string // credentials (and SSH private key) sealed; "" if none
	PublicKey     string // SSH mode: the public key shown, "" otherwise
	SyncOnCommit  bool
	Interval      time.Duration
	BranchFilter  string
	Created       time.Time
	LastUpdate    time.Time // zero if never pushed
	NextUpdate    time.Time // zero: never on schedule
	LastError     string
	Failures      int
}

// Key returns the mirror's scheduling key.
func (m *PushMirror) Key() Key { return Key{KindPush, m.ID} }

// Due is a mirror the scheduler may start: its key and next-update time.
type Due struct {
	Key Key
	At  time.Time
}

// Lease is a claim on a mirror's sync by one scheduler (Holder) until Expires.
type Lease struct {
	Key     Key
	Holder  string
	Expires time.Time
}
