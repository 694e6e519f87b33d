package actions

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Scope is where a stored Actions object lives: a repository (RepoID set,
// OwnerID zero), a user or organisation (OwnerID set, RepoID zero), or the
// instance (both zero; runners and registration tokens only).
type Scope struct {
	OwnerID forge.ID
	RepoID  forge.ID
}

// Global is the instance-wide scope.
var Global = Scope{}

// Secret is a secret's stored form. Sealed is the value sealed with
// forge.Seal under the server key; the plain value never leaves the
// service.
type Secret struct {
	ID      forge.ID
	Scope   Scope
	Name    string // upper-cased
	Sealed  string
	Created time.Time
}

// Variable is an Actions variable; its value is readable.
type Variable struct {
	ID      forge.ID
	Scope   Scope
	Name    string // upper-cased
	Data    string
	Created time.Time
}

// RunnerToken is a runner registration token of one scope. The latest
// active token of a scope is the one handed out.
type RunnerToken struct {
	ID      forge.ID
	Scope   Scope
	Token   string
	Active  bool
	Created time.Time
}

// Runner is a registered runner. Its secret token is kept as TokenHash
// (hex SHA-256); the plain token is returned once, on registration.
type Runner struct {
	ID          forge.ID
	Scope       Scope
	UUID        string
	Name        string
	Description string
	Ephemeral   bool
	TokenHash   string
	Labels      []string
	Version     string
	Created     time.Time
}

// RunStatus is a run's status, as Forgejo's wire strings.
type RunStatus string

// Run statuses.
const (
	StatusUnknown   RunStatus = "unknown"
	StatusWaiting   RunStatus = "waiting"
	StatusRunning   RunStatus = "running"
	StatusSuccess   RunStatus = "success"
	StatusFailure   RunStatus = "failure"
	StatusCancelled RunStatus = "cancelled"
	StatusSkipped   RunStatus = "skipped"
	StatusBlocked   RunStatus = "blocked"
)

// Run is a recorded workflow run of a repository.
type Run struct {
	ID            forge.ID
	RepoID        forge.ID
	OwnerID       forge.ID // the repository's owner
	Index         int64    // per repository, from 1
	Title         string
	WorkflowID    string // the workflow file name
	Ref           string
	CommitSHA     string
	Event         string // e.g. workflow_dispatch
	TriggerUserID forge.ID
	Status        RunStatus
	Created       time.Time
	Updated       time.Time
}

// RunnerFilter selects runners. With All every runner matches; otherwise
// those of Scope, plus, with Visible, the instance's runners and those of
// VisibleOwner (the owner of a repository scope).
type RunnerFilter struct {
	All          bool
	Scope        Scope
	Visible      bool
	VisibleOwner forge.ID
}

// RunFilter selects a repository's runs; empty fields match everything.
type RunFilter struct {
	RepoID     forge.ID
	Events     []string
	Status     []RunStatus
	Index      int64
	CommitSHA  string
	Ref        string
	WorkflowID string
}
