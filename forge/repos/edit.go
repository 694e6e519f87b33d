package repos

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// EditOptions are Forgejo's EditRepoOption: every field optional, and each
// field present is applied alone.
type EditOptions struct {
	Name                          *string
	Description                   *string
	Website                       *string
	Private                       *bool
	Template                      *bool
	HasIssues                     *bool
	InternalTracker               *forge.InternalTracker
	ExternalTracker               *forge.ExternalTracker
	HasWiki                       *bool
	ExternalWiki                  *forge.ExternalWiki
	GloballyEditableWiki          *bool
	DefaultBranch                 *string
	WikiBranch                    *string
	HasPullRequests               *bool
	HasProjects                   *bool
	HasReleases                   *bool
	HasPackages                   *bool
	HasActions                    *bool
	IgnoreWhitespaceConflicts     *bool
	AllowMerge                    *bool
	AllowRebase                   *bool
	AllowRebaseExplicit           *bool
	AllowSquash                   *bool
	AllowFastForwardOnly          *bool
	AllowManualMerge              *bool
	AutodetectManualMerge         *bool
	AllowRebaseUpdate             *bool
	DefaultDeleteBranchAfterMerge *bool
	DefaultMergeStyle             *string
	DefaultUpdateStyle            *string
	DefaultAllowMaintainerEdit    *bool
	Archived                      *bool
	// MirrorInterval and EnablePrune are pull-mirror settings: validated,
	// and ignored for repositories that are not mirrors (as Forgejo).
	MirrorInterval *string
	EnablePrune    *bool
}

var mergeStyles = map[string]bool{"merge": true, "rebase": true, "rebase-merge": true, "squash": true,
	"fast-forward-only": true, "manually-merged": true, "rebase-update-only": true}

// Edit applies o to owner/name in one transaction and returns the result.
// Forgejo saves the parts of an edit one after another, so a late failure
// leaves early changes behind; Hearth validates everything first and
// writes once.
//
// A fork's Private is forced to its base repository's (Forgejo's edit
// does the same, without an error), private too when the base's owner is a
// private user or organisation (as Forgejo's fork creation and its
// cascade, below, decide; its edit alone would let such a fork go public);
// a fork whose base is gone is free.
// When Private changes, the forks follow (private if this repository is
// private or its owner is a private user), and their forks in turn.
//
// Errors: forge.ErrForbidden `user should be an owner or a collaborator
// with admin write of a repository`; forge.ErrInvalid for bad values
// (Forgejo's 422 messages); forge.ErrConflict for a taken name.
func (s *Service) Edit(ctx context.Context, actor forge.Actor, owner, name string, o EditOptions) (*View, error) {
	if err := actor.Check(forge.AccessWrite, forge.CategoryRepository); err != nil {
		return nil, err
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	var v *View
	err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		if v, err = load(ctx, tx, actor, owner, name); err != nil {
			return err
		}
		if err := requireAdmin(v); err != nil {
			return err
		}
		r := v.Repo
		now := s.clock.Now()
		if o.Name != nil && *o.Name != r.Name {
			if err := ValidateName(*o.Name); err != nil {
				return err
			}
			if other, err := tx.RepoByName(ctx, r.OwnerID, *o.Name); err == nil && other.ID != r.ID {
				return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", v.Owner.Name, *o.Name)
			}
		}
		if o.DefaultBranch != nil && *o.DefaultBranch != r.DefaultBranch {
			// Applied only if the repository is empty or the branch exists.
			if !r.Empty {
				if _, err := s.git.Resolve(ctx, r.ID, "refs/heads/"+*o.DefaultBranch); err != nil {
					o.DefaultBranch = nil
				}
			}
		}
		if o.Private != nil && r.ForkID != 0 {
			// A fork's visibility follows its base repository's, silently
			// (Forgejo's updateBasicProperties: *opts.Private =
			// BaseRepo.IsPrivate).
			private, err := forkPrivate(ctx, tx, r.ForkID)
			switch {
			case err == nil:
				o.Private = &private
			case !errors.Is(err, forge.ErrNotFound):
				return err
			}
		}
		wasPrivate := r.Private
		o.Apply(r, now)
		r.Updated = now
		if err := tx.UpdateRepo(ctx, r); err != nil {
			if errors.Is(err, forge.ErrConflict) {
				return forge.Errorf(forge.ErrConflict, "repository already exists [uname: %s, name: %s]", v.Owner.Name, r.Name)
			}
			return err
		}
		if r.Private != wasPrivate {
			if err := syncForkVisibility(ctx, tx, r, v.Owner, now); err != nil {
				return err
			}
		}
		// Answer with what was stored.
		return reread(ctx, tx, actor, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (o EditOptions) validate() error {
	if o.Description != nil && len(*o.Description) > 2048 {
		return forge.Errorf(forge.ErrInvalid, "[Description]: MaxSize")
	}
	if o.Website != nil && len(*o.Website) > 1024 {
		return forge.Errorf(forge.ErrInvalid, "[Website]: MaxSize")
	}
	// Forgejo binds no rule to EditRepoOption.default_branch and stores
	// anything in an empty repository (a newline included, which then
	// breaks git); Hearth refuses what is not a branch name with the
	// message of CreateRepoOption's GitRefName binding. A valid name that
	// is not a branch of a non-empty repository is ignored, as in Forgejo.
	if o.DefaultBranch != nil && (!ValidBranchName(*o.DefaultBranch) || len(*o.DefaultBranch) > 100) {
		return forge.Errorf(forge.ErrInvalid, "[DefaultBranch]: GitRefName")
	}
	if o.WikiBranch != nil && *o.WikiBranch != "" && !ValidBranchName(*o.WikiBranch) {
		return forge.Errorf(forge.ErrInvalid, "[WikiBranch]: GitRefName")
	}
	if o.DefaultMergeStyle != nil && !mergeStyles[*o.DefaultMergeStyle] {
		return forge.Errorf(forge.ErrInvalid, "[DefaultMergeStyle]: In")
	}
	if o.DefaultUpdateStyle != nil && *o.DefaultUpdateStyle != "merge" && *o.DefaultUpdateStyle != "rebase" {
		return forge.Errorf(forge.ErrInvalid, "[DefaultUpdateStyle]: In")
	}
	if t := o.ExternalTracker; t != nil {
		if !validURL(t.URL) {
			return forge.Errorf(forge.ErrInvalid, "External tracker URL not valid")
		}
		if t.Format != "" && !validURL(strings.NewReplacer("{user}", "u", "{repo}", "r", "{index}", "1").Replace(t.Format)) {
			return forge.Errorf(forge.ErrInvalid, "External tracker URL format not valid")
		}
	}
	if w := o.ExternalWiki; w != nil && !validURL(w.URL) {
		return forge.Errorf(forge.ErrInvalid, "Invalid external wiki URL")
	}
	if o.MirrorInterval != nil {
		if _, err := time.ParseDuration(*o.MirrorInterval); err != nil {
			return forge.Errorf(forge.ErrInvalid, "%s", err)
		}
	}
	return nil
}

func validURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Apply sets the fields of o on r (now stamps archiving).
func (o EditOptions) Apply(r *forge.Repository, now time.Time) {
	set(&r.Name, o.Name)
	set(&r.Description, o.Description)
	set(&r.Website, o.Website)
	set(&r.Private, o.Private)
	set(&r.Template, o.Template)
	set(&r.HasIssues, o.HasIssues)
	if o.InternalTracker != nil {
		t := *o.InternalTracker
		r.InternalTracker, r.ExternalTracker = &t, nil
	}
	if o.ExternalTracker != nil {
		t := *o.ExternalTracker
		r.ExternalTracker = &t
	}
	set(&r.HasWiki, o.HasWiki)
	if o.ExternalWiki != nil {
		w := *o.ExternalWiki
		r.ExternalWiki = &w
	}
	set(&r.GloballyEditableWiki, o.GloballyEditableWiki)
	set(&r.DefaultBranch, o.DefaultBranch)
	set(&r.WikiBranch, o.WikiBranch)
	set(&r.HasPullRequests, o.HasPullRequests)
	set(&r.HasProjects, o.HasProjects)
	set(&r.HasReleases, o.HasReleases)
	set(&r.HasPackages, o.HasPackages)
	set(&r.HasActions, o.HasActions)
	set(&r.IgnoreWhitespaceConflicts, o.IgnoreWhitespaceConflicts)
	set(&r.AllowMerge, o.AllowMerge)
	set(&r.AllowRebase, o.AllowRebase)
	set(&r.AllowRebaseExplicit, o.AllowRebaseExplicit)
	set(&r.AllowSquash, o.AllowSquash)
	set(&r.AllowFastForwardOnly, o.AllowFastForwardOnly)
	set(&r.AllowManualMerge, o.AllowManualMerge)
	set(&r.AutodetectManualMerge, o.AutodetectManualMerge)
	set(&r.AllowRebaseUpdate, o.AllowRebaseUpdate)
	set(&r.DefaultDeleteBranchAfterMerge, o.DefaultDeleteBranchAfterMerge)
	set(&r.DefaultMergeStyle, o.DefaultMergeStyle)
	set(&r.DefaultUpdateStyle, o.DefaultUpdateStyle)
	set(&r.DefaultAllowMaintainerEdit, o.DefaultAllowMaintainerEdit)
	if o.Archived != nil && *o.Archived != r.Archived {
		r.Archived = *o.Archived
		if r.Archived {
			r.ArchivedAt = now
		}
	}
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
