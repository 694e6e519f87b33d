package mirror

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Repos is what the service needs of forge/repos (the wiring adapts
// repos.Service).
type Repos interface {
	// RepoAccess finds owner/name and the actor's permission; a not-found
	// error for repositories the actor may not see.
	RepoAccess(ctx context.Context, actor forge.Actor, owner, name string) (*forge.Repository, forge.Permission, error)
	// RepoByID returns a repository with OwnerName set, no access check
	// (the scheduler). forge.ErrNotFound if none.
	RepoByID(ctx context.Context, id forge.ID) (*forge.Repository, error)
	// Refresh brings the stored state of a repository (size, emptiness,
	// default branch) up to date after a sync changed its references by
	// updates (none when nothing moved; quota counts size), then tells the
	// push listeners of updates as after a push: webhooks get push, create
	// and delete events, pull requests whose head moved are updated, push
	// mirrors with sync_on_commit run. An update with OldID "" created its
	// reference, one with NewID "" deleted it.
	Refresh(ctx context.Context, id forge.ID, updates []RefUpdate) error
}

// GitQuota checks the git quota of a repository's owner before a manual
// sync (repos.Ports.CheckGitQuota): a *quota.ExceededError refuses it.
type GitQuota interface {
	CheckGitQuota(ctx context.Context, r *forge.Repository) error
}

// ReposQuota checks the size:repos:all quota of a repository's owner
// before a scheduled sync (repos.Ports.CheckReposQuota); a Config.Quota
// that also implements it makes scheduled syncs of owners over quota skip.
type ReposQuota interface {
	CheckReposQuota(ctx context.Context, r *forge.Repository) error
}

// SyncListener is told of the references a pull-mirror sync changed,
// after Refresh (the wiring turns it into push listeners: webhooks, push
// mirrors with sync_on_commit).
type SyncListener interface {
	AfterSync(ctx context.Context, repo *forge.Repository, updates []RefUpdate)
}

// Errors of the service that Forgejo answers with their own status.
var (
	// ErrDisabled: [mirror] ENABLED=false (400 `Mirror feature is disabled`).
	ErrDisabled = forge.Errorf(forge.ErrInvalid, "Mirror feature is disabled")
	// ErrNotMirror: mirror-sync on a repository that is not a pull mirror
	// (400 `Repository is not a mirror`).
	ErrNotMirror = forge.Errorf(forge.ErrInvalid, "Repository is not a mirror")
)

// Service manages pull and push mirrors. Safe for concurrent use.
type Service struct {
	cfg   Config
	clock forge.Clock
	log   *slog.Logger

	wakeMu sync.Mutex
	wakers []chan struct{}

	busyMu sync.Mutex
	busy   map[Key]bool // mirrors this process is syncing
	holder string
}

// New returns a Service for cfg; forge.ErrInvalid without Store, Repos or Git.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.Store == nil:
		return nil, forge.Errorf(forge.ErrInvalid, "mirror: Config.Store is required")
	case cfg.Repos == nil:
		return nil, forge.Errorf(forge.ErrInvalid, "mirror: Config.Repos is required")
	case cfg.Git == nil:
		return nil, forge.Errorf(forge.ErrInvalid, "mirror: Config.Git is required")
	}
	s := &Service{cfg: cfg, clock: forge.ClockOrSystem(cfg.Clock), log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return s, nil
}

// PullEdit is the mirror part of EditRepoOption: nil fields are left as
// they are; each applies alone.
type PullEdit struct {
	Interval    *string
	EnablePrune *bool
}

// PushMirrorOptions is CreatePushMirrorOption.
type PushMirrorOptions struct {
	RemoteAddress, RemoteUsername, RemotePassword string
	Interval                                      string
	SyncOnCommit                                  bool
	UseSSH                                        bool
	BranchFilter                                  string
}

func (s *Service) now() time.Time { return s.clock.Now() }

func (s *Service) timeout() time.Duration {
	if s.cfg.Timeout > 0 {
		return s.cfg.Timeout
	}
	return DefaultTimeout
}

// seal seals credentials for storage; "" when empty.
func (s *Service) seal(c Credentials) (string, error) {
	if c.Empty() {
		return "", nil
	}
	raw, err := json.Marshal(sealedCreds{U: c.Username, P: c.Password, K: c.PrivateKey})
	if err != nil {
		return "", err
	}
	return forge.Seal(s.cfg.Secret, raw)
}

// unseal reverses seal.
func (s *Service) unseal(sealed string) (Credentials, error) {
	if sealed == "" {
		return Credentials{}, nil
	}
	raw, err := forge.Unseal(s.cfg.Secret, sealed)
	if err != nil {
		return Credentials{}, err
	}
	var sc sealedCreds
	if err := json.Unmarshal(raw, &sc); err != nil {
		return Credentials{}, forge.Errorf(forge.ErrInvalid, "sealed credentials are malformed")
	}
	return Credentials{Username: sc.U, Password: sc.P, PrivateKey: sc.K}, nil
}

type sealedCreds struct {
	U string `json:"u,omitempty"`
	P string `json:"p,omitempty"`
	K []byte `json:"k,omitempty"`
}

const remoteNameChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func (s *Service) newRemoteName() string {
	if s.cfg.NewRemoteName != nil {
		return s.cfg.NewRemoteName()
	}
	b := make([]byte, 11)
	rand.Read(b)
	for i := range b {
		b[i] = remoteNameChars[int(b[i])%len(remoteNameChars)]
	}
	return "remote_mirror_" + string(b)
}

// checkAddress parses and checks a remote address for actor.
func (s *Service) checkAddress(ctx context.Context, actor forge.Actor, addr, user, pass string) (RemoteAddress, error) {
	a, err := ParseRemoteAddress(addr, user, pass)
	if err != nil {
		return a, err
	}
	if a.Local {
		if !s.cfg.AllowLocalPaths || !actor.IsSiteAdmin() {
			return RemoteAddress{}, forge.Reasonf(forge.ErrInvalid, ErrAddrLocalPath, MsgLocalPath)
		}
		return a, nil
	}
	return a, s.cfg.Policy.CheckAddress(ctx, a)
}

// Enabled reports whether mirrors are enabled (Config.Disabled unset,
// Forgejo's [mirror] ENABLED).
func (s *Service) Enabled() bool { return !s.cfg.Disabled }
