package hooks

import (
	"context"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ReleaseInfo is what the release payloads show of a release (the wiring
// fills it from repos.Release, which hooks does not import).
type ReleaseInfo struct {
	ID               int64
	TagName          string
	Target           string
	Name, Body       string
	Draft            bool
	Prerelease       bool
	HideArchiveLinks bool
	AuthorID         forge.ID
	Created          time.Time
	Assets           []AssetInfo
}

// AssetInfo is a release asset of a release payload.
type AssetInfo struct {
	ID          int64
	UUID        string
	Name        string
	Size        int64
	Downloads   int64
	ExternalURL string
	Created     time.Time
}

// Release actions (Forgejo's HookReleaseAction values).
const (
	ReleasePublished = "published"
	ReleaseUpdated   = "updated"
	ReleaseDeleted   = "deleted"
)

// PayloadAsset is a release asset (Forgejo's api.Attachment).
type PayloadAsset struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Size        int64     `json:"size"`
	Downloads   int64     `json:"download_count"`
	Created     time.Time `json:"created_at"`
	UUID        string    `json:"uuid"`
	DownloadURL string    `json:"browser_download_url"`
	Type        string    `json:"type"`
}

// ArchiveDownloads is Forgejo's api.TagArchiveDownloadCount (Hearth counts
// none: zeros).
type ArchiveDownloads struct {
	Zip   int64 `json:"zip"`
	TarGz int64 `json:"tar_gz"`
}

// PayloadRelease is the release object of release payloads (Forgejo's
// api.Release, as convert.ToAPIRelease fills it).
type PayloadRelease struct {
	ID               int64             `json:"id"`
	TagName          string            `json:"tag_name"`
	Target           string            `json:"target_commitish"`
	Title            string            `json:"name"`
	Note             string            `json:"body"`
	URL              string            `json:"url"`
	HTMLURL          string            `json:"html_url"`
	TarURL           string            `json:"tarball_url"`
	ZipURL           string            `json:"zipball_url"`
	HideArchiveLinks bool              `json:"hide_archive_links"`
	UploadURL        string            `json:"upload_url"`
	Draft            bool              `json:"draft"`
	Prerelease       bool              `json:"prerelease"`
	Created          time.Time         `json:"created_at"`
	Published        time.Time         `json:"published_at"`
	Author           *PayloadUser      `json:"author"`
	Assets           []PayloadAsset    `json:"assets"`
	ArchiveDownloads *ArchiveDownloads `json:"archive_download_count"`
}

// ReleasePayload is Forgejo's release event.
type ReleasePayload struct {
	Action     string          `json:"action"`
	Release    *PayloadRelease `json:"release"`
	Repository *PayloadRepo    `json:"repository"`
	Sender     *PayloadUser    `json:"sender"`
}

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

// payloadRelease converts a release of repo with its author.
func (s *Service) payloadRelease(repo *forge.Repository, rel ReleaseInfo, author *forge.User) *PayloadRelease {
	full := repo.OwnerName + "/" + repo.Name
	api, html := s.cfg.RootURL+"api/v1/repos/"+full, s.cfg.RootURL+full
	id := strconv.FormatInt(rel.ID, 10)
	p := &PayloadRelease{ID: rel.ID, TagName: rel.TagName, Target: rel.Target, Title: rel.Name, Note: rel.Body,
		URL: api + "/releases/" + id, HTMLURL: html + "/releases/tag/" + rel.TagName,
		TarURL: html + "/archive/" + rel.TagName + ".tar.gz", ZipURL: html + "/archive/" + rel.TagName + ".zip",
		HideArchiveLinks: rel.HideArchiveLinks, UploadURL: api + "/releases/" + id + "/assets",
		Draft: rel.Draft, Prerelease: rel.Prerelease, Created: rel.Created, Published: rel.Created,
		Author: s.payloadUser(author), Assets: []PayloadAsset{}, ArchiveDownloads: &ArchiveDownloads{}}
	for _, a := range rel.Assets {
		pa := PayloadAsset{ID: a.ID, Name: a.Name, Size: a.Size, Downloads: a.Downloads, Created: a.Created, UUID: a.UUID,
			DownloadURL: s.cfg.RootURL + "attachments/" + a.UUID, Type: "attachment"}
		if a.ExternalURL != "" {
			pa.DownloadURL, pa.Type = a.ExternalURL, "external"
		}
		p.Assets = append(p.Assets, pa)
	}
	return p
}

// ReleaseChanged queues the release event (word release) with action
// (ReleasePublished, ReleaseUpdated, ReleaseDeleted) for the release rel
// of repo, as Forgejo's notifier sendReleaseHook. forge.ErrInvalid for
// another action.
func (s *Service) ReleaseChanged(ctx context.Context, actor forge.Actor, repo *forge.Repository, rel ReleaseInfo, action string) error {
	switch action {
	case ReleasePublished, ReleaseUpdated, ReleaseDeleted:
	default:
		return forge.Errorf(forge.ErrInvalid, "hooks: release action: %q", action)
	}
	us := s.users(ctx, repo.OwnerID, rel.AuthorID)
	return s.Enqueue(ctx, Event{Word: "release", Repo: repo, Payload: ReleasePayload{Action: action,
		Release: s.payloadRelease(repo, rel, us[1]), Repository: s.payloadRepo(repo, us[0]), Sender: s.payloadUser(actor.User)}})
}
