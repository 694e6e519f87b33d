package actions

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// ErrRunnerNotFound answers a runner that does not exist or that the level
// may not see or delete.
var ErrRunnerNotFound = forge.Errorf(forge.ErrNotFound, "runner does not exist")

// RegistrationToken returns the registration token of t: the latest active
// one, or a new one when there is none (so repeated calls return the same
// token until ResetRegistrationToken). Every level has its own token. The
// access errors of the level.
func (s *Service) RegistrationToken(ctx context.Context, actor forge.Actor, t Target) (string, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return "", err
	}
	var token string
	err = s.store.Update(ctx, func(tx Tx) error {
		cur, err := tx.LatestRunnerToken(ctx, r.scope)
		switch {
		case err == nil && cur.Active:
			token = cur.Token
			return nil
		case err != nil && !errors.Is(err, forge.ErrNotFound):
			return err
		}
		token, err = s.newToken(ctx, tx, r.scope)
		return err
	})
	return token, err
}

// ResetRegistrationToken replaces the registration token of t with a new
// one, which it returns; the old one stops working.
func (s *Service) ResetRegistrationToken(ctx context.Context, actor forge.Actor, t Target) (string, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return "", err
	}
	var token string
	err = s.store.Update(ctx, func(tx Tx) error {
		var err error
		token, err = s.newToken(ctx, tx, r.scope)
		return err
	})
	return token, err
}

func (s *Service) newToken(ctx context.Context, tx Tx, sc Scope) (string, error) {
	tok, err := randomHex(20)
	if err != nil {
		return "", err
	}
	return tok, tx.CreateRunnerToken(ctx, &RunnerToken{Scope: sc, Token: tok, Active: true, Created: s.clock.Now()})
}

// RegisterRunner is the runner registration of the API.
type RegisterRunner struct {
	Name        string
	Description string
	Ephemeral   bool
}

// RegisterRunner registers a runner at the level of t and returns it with
// its secret token (shown this once; only its hash is kept). Errors:
// forge.ErrInvalid for an empty name; the access errors of the level.
func (s *Service) RegisterRunner(ctx context.Context, actor forge.Actor, t Target, opt RegisterRunner) (*Runner, string, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return nil, "", err
	}
	if opt.Name == "" {
		return nil, "", forge.Errorf(forge.ErrInvalid, "[Name]: Required")
	}
	uuid, err := newUUID()
	if err != nil {
		return nil, "", err
	}
	token, err := randomHex(20)
	if err != nil {
		return nil, "", err
	}
	run := &Runner{Scope: r.scope, UUID: uuid, Name: opt.Name, Description: opt.Description,
		Ephemeral: opt.Ephemeral, TokenHash: HashRunnerToken(token), Labels: []string{}, Created: s.clock.Now()}
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.CreateRunner(ctx, run) }); err != nil {
		return nil, "", err
	}
	return run, token, nil
}

// HashRunnerToken is how a runner's token is kept: hex SHA-256.
func HashRunnerToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// ListRunners returns a page of the runners of t: those registered at its
// level, plus, with visible, those it may use (the instance's, and for a
// repository its owner's). Site administrators at the global level see
// every runner.
func (s *Service) ListRunners(ctx context.Context, actor forge.Actor, t Target, visible bool, o forge.ListOptions) ([]*Runner, int64, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return nil, 0, err
	}
	f := runnerFilter(t, r, visible)
	var list []*Runner
	var total int64
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		list, total, err = tx.ListRunners(ctx, f, o.Normalize())
		return err
	})
	return list, total, err
}

func runnerFilter(t Target, r resolved, visible bool) RunnerFilter {
	f := RunnerFilter{All: t.Level == LevelGlobal, Scope: r.scope, Visible: visible}
	if r.repo != nil {
		f.VisibleOwner = r.repo.OwnerID
	}
	return f
}

// RunnerVisible reports whether a level (scope, and for a repository its
// owner) sees runner: its own, the instance's, and for a repository its
// owner's; the global level sees every runner.
func RunnerVisible(run *Runner, sc Scope, repoOwner forge.ID) bool {
	switch {
	case sc == Global, run.Scope == sc, run.Scope == Global:
		return true
	case sc.RepoID != 0 && repoOwner != 0:
		return run.Scope == Scope{OwnerID: repoOwner}
	}
	return false
}

// RunnerEditable reports whether a level may delete runner: its own
// runners, and every runner at the global level.
func RunnerEditable(run *Runner, sc Scope) bool { return sc == Global || run.Scope == sc }

// Runner returns a runner the level of t sees; ErrRunnerNotFound
// otherwise.
func (s *Service) Runner(ctx context.Context, actor forge.Actor, t Target, id forge.ID) (*Runner, error) {
	r, err := s.resolve(ctx, actor, t, forge.AccessRead, needOwner)
	if err != nil {
		return nil, err
	}
	var run *Runner
	err = s.store.View(ctx, func(tx Tx) error {
		var err error
		run, err = s.visibleRunner(ctx, tx, r, id)
		return err
	})
	return run, err
}

func (s *Service) visibleRunner(ctx context.Context, tx Tx, r resolved, id forge.ID) (*Runner, error) {
	run, err := tx.RunnerByID(ctx, id)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, ErrRunnerNotFound
	} else if err != nil {
		return nil, err
	}
	var owner forge.ID
	if r.repo != nil {
		owner = r.repo.OwnerID
	}
	if !RunnerVisible(run, r.scope, owner) {
		return nil, ErrRunnerNotFound
	}
	return run, nil
}

// DeleteRunner removes a runner registered at the level of t (any runner
// at the global level). ErrRunnerNotFound for a runner the level does not
// see, forge.ErrNotFound `No permission to delete this runner` for one it
// sees but does not own.
func (s *Service) DeleteRunner(ctx context.Context, actor forge.Actor, t Target, id forge.ID) error {
	r, err := s.resolve(ctx, actor, t, forge.AccessWrite, needOwner)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		run, err := s.visibleRunner(ctx, tx, r, id)
		if err != nil {
			return err
		}
		if !RunnerEditable(run, r.scope) {
			return forge.Errorf(forge.ErrNotFound, "No permission to delete this runner")
		}
		return tx.DeleteRunner(ctx, id)
	})
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]), nil
}
