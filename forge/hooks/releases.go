package hooks

// Release actions (Forgejo's HookReleaseAction values).
const (
	ReleasePublished = "published"
	ReleaseUpdated   = "updated"
	ReleaseDeleted   = "deleted"
)

// ReleaseAction is the action of the release event Forgejo sends for a
// release change, "" for none (services/release): a release created
// published is "published"; an edit of a published release is
// "published" when it was a draft or its tag was created by the edit,
// "updated" otherwise; deleting a published release is "deleted"; drafts
// send nothing. op is "create", "edit" or "delete"; wasDraft and
// tagCreated matter for "edit".
func ReleaseAction(op string, draft, wasDraft, tagCreated bool) string {
	if draft {
		return ""
	}
	switch op {
	case "create":
		return ReleasePublished
	case "edit":
		if wasDraft || tagCreated {
			return ReleasePublished
		}
		return ReleaseUpdated
	case "delete":
		return ReleaseDeleted
	}
	return ""
}
