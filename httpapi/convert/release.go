package convert

import (
	"strconv"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// Attachment converts a release asset as Forgejo's convert.ToAPIAttachment;
// root is the server's root URL (browser_download_url is beside the API).
func Attachment(root string, a *repos.Attachment) wire.Attachment {
	out := wire.Attachment{ID: a.ID, Name: a.Name, Size: a.Size, DownloadCount: a.Downloads, Created: Time(a.Created),
		UUID: a.UUID, DownloadURL: root + "attachments/" + a.UUID, Type: wire.AttachmentTypeAttachment}
	if a.ExternalURL != "" {
		out.DownloadURL, out.Type = a.ExternalURL, wire.AttachmentTypeExternal
	}
	return out
}

// Release converts a release of repository r as Forgejo's
// convert.ToAPIRelease; author is the converted author (nil when unknown). Hearth counts no archive downloads: zeros.
func Release(root string, r *forge.Repository, rel *repos.Release, author *wire.User) wire.Release {
	api, html := RepoAPIURL(root, r), RepoWebURL(root, r)
	id := strconv.FormatInt(rel.ID, 10)
	out := wire.Release{ID: rel.ID, TagName: rel.TagName, Target: rel.Target, Title: rel.Name, Note: rel.Body,
		URL: api + "/releases/" + id, HTMLURL: html + "/releases/tag/" + rel.TagName,
		TarURL: html + "/archive/" + rel.TagName + ".tar.gz", ZipURL: html + "/archive/" + rel.TagName + ".zip",
		HideArchiveLinks: rel.HideArchiveLinks, UploadURL: api + "/releases/" + id + "/assets",
		IsDraft: rel.Draft, IsPrerelease: rel.Prerelease, CreatedAt: Time(rel.Created), PublishedAt: Time(rel.Created),
		Author: author, Attachments: []wire.Attachment{}, ArchiveDownloadCount: &wire.TagArchiveDownloadCount{}}
	for _, a := range rel.Assets {
		out.Attachments = append(out.Attachments, Attachment(root, a))
	}
	return out
}
