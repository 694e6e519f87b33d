// Package rules shows a product testing its own logic against Hearth's
// rules with no database. The product here is a small release tool: it
// decides who may publish a release tag, and onboards new people with a
// starter repository. Its decisions are built on Hearth's pure rules
// (forge.ParseScope, repos.Permission, repos.ProtectionFor,
// repos.CanChangeTag, auth.ValidateUsername/ValidateEmail), and its
// onboarding drives Hearth's services, which its tests run on
// storage/memstore: fast, in memory, with the same transactions and errors
// as the SQL backends.
package rules

import (
	"context"
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// ErrNotAllowed is the category of MayPublish's refusals.
var ErrNotAllowed = errors.New("not allowed")

// Target is what MayPublish decides about: a repository as stored, its
// owner, the actor's collaborator mode and the repository's tag rules.
type Target struct {
	Repo     *forge.Repository
	Owner    *forge.User
	Collab   forge.AccessMode
	TagRules []*repos.TagProtection
}

// MayPublish reports whether actor may publish tag in t: a signed-in actor
// whose credential allows write:repository, with write access to a
// repository that is not archived, and allowed by the tag rules. The error
// wraps ErrNotAllowed and says why.
func MayPublish(actor forge.Actor, t Target, tag string) error {
	if !actor.IsSignedIn() {
		return fmt.Errorf("%w: sign in first", ErrNotAllowed)
	}
	if err := actor.RequireScope(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return fmt.Errorf("%w: %v", ErrNotAllowed, err)
	}
	switch perm := repos.Permission(actor, t.Repo, t.Owner, t.Collab); {
	case perm < forge.AccessModeRead:
		return fmt.Errorf("%w: no such repository", ErrNotAllowed) // never tell private ones apart
	case perm < forge.AccessModeWrite:
		return fmt.Errorf("%w: write access needed", ErrNotAllowed)
	}
	if t.Repo.Archived {
		return fmt.Errorf("%w: %s is archived", ErrNotAllowed, t.Repo.Name)
	}
	if !repos.CanChangeTag(t.TagRules, actor.UserID(), tag) {
		return fmt.Errorf("%w: tag %s is protected", ErrNotAllowed, tag)
	}
	return nil
}

// ReleaseBranchGuarded reports whether the product's release branch is
// under a protection rule that refuses direct pushes.
func ReleaseBranchGuarded(rules []*repos.BranchProtection, branch string) bool {
	r := repos.ProtectionFor(rules, branch)
	return r != nil && (!r.EnablePush || r.EnablePushWhitelist)
}

// Onboarding creates accounts and their starter repositories. Users and
// Repos are Hearth's services; Admin is the site administrator acting.
type Onboarding struct {
	Users *auth.Service
	Repos *repos.Service
	Admin forge.Actor
}

// Onboard creates the user name with a private repository "starter" whose
// main branch takes pushes only from that user. Bad names and e-mail
// addresses are refused (forge.ErrInvalid) before anything is written;
// a taken name is forge.ErrConflict.
func (o *Onboarding) Onboard(ctx context.Context, name, email, password string) (*repos.View, error) {
	if err := auth.ValidateUsername(name); err != nil {
		return nil, err
	}
	if err := auth.ValidateEmail(email); err != nil {
		return nil, err
	}
	must := false
	u, err := o.Users.CreateUser(ctx, o.Admin, auth.CreateUserOptions{Name: name, Email: email, Password: password,
		MustChangePassword: &must})
	if err != nil {
		return nil, err
	}
	v, err := o.Repos.Create(ctx, o.Admin, u.Name, repos.CreateOptions{Name: "starter", Private: true, AutoInit: true,
		Readme: "Default"})
	if err != nil {
		return nil, err
	}
	_, err = o.Repos.CreateProtection(ctx, o.Admin, u.Name, "starter", repos.BranchProtection{RuleName: "main",
		EnablePush: true, EnablePushWhitelist: true, PushWhitelistUsernames: []string{u.Name}})
	return v, err
}
