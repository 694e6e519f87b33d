package issues

import "github.com/hearthforge/hearth/forge"

// trackerSettings returns the internal tracker's settings of r: Forgejo's
// defaults (every feature on) when the repository has neither an internal
// nor an external tracker recorded, none when it uses an external one.
func trackerSettings(r *forge.Repository) forge.InternalTracker {
	switch {
	case !r.HasIssues:
		return forge.InternalTracker{}
	case r.InternalTracker != nil:
		return *r.InternalTracker
	case r.ExternalTracker != nil:
		return forge.InternalTracker{}
	}
	return forge.InternalTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true}
}

// DependenciesEnabled is Forgejo's Repository.IsDependenciesEnabled: the
// repository has its internal issue tracker with dependencies on.
func DependenciesEnabled(r *forge.Repository) bool {
	return trackerSettings(r).EnableIssueDependencies
}

// TimetrackerEnabled is Forgejo's Repository.IsTimetrackerEnabled: the
// repository has its internal issue tracker with time tracking on.
func TimetrackerEnabled(r *forge.Repository) bool {
	return trackerSettings(r).EnableTimeTracker
}

// CanUseTimetracker is Forgejo's Repository.CanUseTimetracker: time
// tracking is on, and either anyone may track time or the user writes the
// issue's unit, posted the issue or is assigned to it.
func CanUseTimetracker(r *forge.Repository, canWrite, isPoster, isAssignee bool) bool {
	if !TimetrackerEnabled(r) {
		return false
	}
	return !trackerSettings(r).AllowOnlyContributorsToTrackTime || canWrite || isPoster || isAssignee
}
