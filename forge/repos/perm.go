package repos

import (
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// Permission is the access the actor has to repo, given the owner and the
// actor's collaborator mode: a pure rule.
//
//   - site administrators and the owner: owner access;
//   - collaborators: their mode;
//   - anyone else: read on a public repository of a visible owner (public
//     owners, or limited owners for signed-in actors), nothing otherwise;
//   - tokens restricted to public resources see private repositories as
//     absent, whatever the user's rights.
func Permission(actor forge.Actor, repo *forge.Repository, owner *forge.User, collab forge.AccessMode) forge.AccessMode {
	if actor.Scoped && actor.Scope.PublicOnly && (repo.Private || (owner.Visibility != forge.VisibilityPublic && owner.Visibility != "")) {
		return forge.AccessNone
	}
	if actor.IsSiteAdmin() || (actor.IsSignedIn() && actor.User.ID == repo.OwnerID) {
		return forge.AccessModeOwner
	}
	mode := collab
	if !repo.Private && mode < forge.AccessModeRead {
		switch owner.Visibility {
		case forge.VisibilityPublic, "":
			mode = forge.AccessModeRead
		case forge.VisibilityLimited:
			if actor.IsSignedIn() {
				mode = forge.AccessModeRead
			}
		}
	}
	return mode
}

// LogString renders a repository as Forgejo's messages do:
// `<Repository 5:alice/tools>`.
func LogString(r *forge.Repository) string {
	return fmt.Sprintf("<Repository %d:%s>", r.ID, r.FullName())
}

// checkWritable is Forgejo's mustNotBeArchived: forge.ErrArchived
// `<Repository ID:owner/name> is archived`.
func checkWritable(r *forge.Repository) error {
	if r.Archived {
		return forge.Errorf(forge.ErrArchived, "%s is archived", LogString(r))
	}
	return nil
}
