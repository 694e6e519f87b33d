package httpapi

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// The hottest answers (GET /user, GET /repos/{owner}/{repo}) are encoded
// without reflection: appendFastJSON writes wire.User and wire.Repository
// field by field, byte for byte as encoding/json does (declaration order,
// omitempty, HTML-safe string escaping, time.Time as RFC 3339 with
// nanoseconds). TestFastJSONMatchesEncodingJSON compares the two on
// values with every field set (found by reflection, so a field added to
// the generated types fails it until it is written here) and on zero
// values.

// appendFastJSON appends v's JSON (as json.Marshal, without the newline)
// and reports whether it could; when it cannot (another type, or a value
// encoding/json refuses, such as a time outside years 0–9999), the caller
// uses encoding/json.
func appendFastJSON(b []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case wire.User:
		return appendUserJSON(b, &v)
	case *wire.User:
		if v == nil {
			return append(b, "null"...), true
		}
		return appendUserJSON(b, v)
	case wire.Repository:
		return appendRepositoryJSON(b, &v)
	case *wire.Repository:
		if v == nil {
			return append(b, "null"...), true
		}
		return appendRepositoryJSON(b, v)
	}
	return b, false
}

func appendUserJSON(b []byte, u *wire.User) ([]byte, bool) {
	ok := true
	b = append(b, `{"active":`...)
	b = strconv.AppendBool(b, u.IsActive)
	b = append(b, `,"avatar_url":`...)
	b = appendJSONString(b, u.AvatarURL)
	b = append(b, `,"created":`...)
	b, ok = appendJSONTime(b, u.Created, ok)
	b = append(b, `,"description":`...)
	b = appendJSONString(b, u.Description)
	b = append(b, `,"email":`...)
	b = appendJSONString(b, u.Email)
	b = append(b, `,"followers_count":`...)
	b = strconv.AppendInt(b, u.Followers, 10)
	b = append(b, `,"following_count":`...)
	b = strconv.AppendInt(b, u.Following, 10)
	b = append(b, `,"full_name":`...)
	b = appendJSONString(b, u.FullName)
	b = append(b, `,"html_url":`...)
	b = appendJSONString(b, u.HTMLURL)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, u.ID, 10)
	b = append(b, `,"is_admin":`...)
	b = strconv.AppendBool(b, u.IsAdmin)
	b = append(b, `,"language":`...)
	b = appendJSONString(b, u.Language)
	b = append(b, `,"last_login":`...)
	b, ok = appendJSONTime(b, u.LastLogin, ok)
	b = append(b, `,"location":`...)
	b = appendJSONString(b, u.Location)
	b = append(b, `,"login":`...)
	b = appendJSONString(b, u.UserName)
	b = append(b, `,"login_name":`...)
	b = appendJSONString(b, u.LoginName)
	b = append(b, `,"prohibit_login":`...)
	b = strconv.AppendBool(b, u.ProhibitLogin)
	b = append(b, `,"pronouns":`...)
	b = appendJSONString(b, u.Pronouns)
	b = append(b, `,"restricted":`...)
	b = strconv.AppendBool(b, u.Restricted)
	b = append(b, `,"source_id":`...)
	b = strconv.AppendInt(b, u.SourceID, 10)
	b = append(b, `,"starred_repos_count":`...)
	b = strconv.AppendInt(b, u.StarredRepos, 10)
	b = append(b, `,"visibility":`...)
	b = appendJSONString(b, u.Visibility)
	b = append(b, `,"website":`...)
	b = appendJSONString(b, u.Website)
	b = append(b, '}')
	return b, ok
}

func appendRepositoryJSON(b []byte, r *wire.Repository) ([]byte, bool) {
	ok := true
	b = append(b, `{"allow_fast_forward_only_merge":`...)
	b = strconv.AppendBool(b, r.AllowFastForwardOnly)
	b = append(b, `,"allow_merge_commits":`...)
	b = strconv.AppendBool(b, r.AllowMerge)
	b = append(b, `,"allow_rebase":`...)
	b = strconv.AppendBool(b, r.AllowRebase)
	b = append(b, `,"allow_rebase_explicit":`...)
	b = strconv.AppendBool(b, r.AllowRebaseMerge)
	b = append(b, `,"allow_rebase_update":`...)
	b = strconv.AppendBool(b, r.AllowRebaseUpdate)
	b = append(b, `,"allow_squash_merge":`...)
	b = strconv.AppendBool(b, r.AllowSquash)
	b = append(b, `,"archived":`...)
	b = strconv.AppendBool(b, r.Archived)
	b = append(b, `,"archived_at":`...)
	b, ok = appendJSONTime(b, r.ArchivedAt, ok)
	b = append(b, `,"avatar_url":`...)
	b = appendJSONString(b, r.AvatarURL)
	b = append(b, `,"clone_url":`...)
	b = appendJSONString(b, r.CloneURL)
	b = append(b, `,"created_at":`...)
	b, ok = appendJSONTime(b, r.Created, ok)
	b = append(b, `,"default_allow_maintainer_edit":`...)
	b = strconv.AppendBool(b, r.DefaultAllowMaintainerEdit)
	b = append(b, `,"default_branch":`...)
	b = appendJSONString(b, r.DefaultBranch)
	b = append(b, `,"default_delete_branch_after_merge":`...)
	b = strconv.AppendBool(b, r.DefaultDeleteBranchAfterMerge)
	b = append(b, `,"default_merge_style":`...)
	b = appendJSONString(b, r.DefaultMergeStyle)
	b = append(b, `,"default_update_style":`...)
	b = appendJSONString(b, r.DefaultUpdateStyle)
	b = append(b, `,"description":`...)
	b = appendJSONString(b, r.Description)
	b = append(b, `,"empty":`...)
	b = strconv.AppendBool(b, r.Empty)
	if r.ExternalTracker != nil {
		b = append(b, `,"external_tracker":`...)
		b, ok = appendReflectJSON(b, r.ExternalTracker, ok)
	}
	if r.ExternalWiki != nil {
		b = append(b, `,"external_wiki":`...)
		b, ok = appendReflectJSON(b, r.ExternalWiki, ok)
	}
	b = append(b, `,"fork":`...)
	b = strconv.AppendBool(b, r.Fork)
	b = append(b, `,"forks_count":`...)
	b = strconv.AppendInt(b, r.Forks, 10)
	b = append(b, `,"full_name":`...)
	b = appendJSONString(b, r.FullName)
	b = append(b, `,"globally_editable_wiki":`...)
	b = strconv.AppendBool(b, r.GloballyEditableWiki)
	b = append(b, `,"has_actions":`...)
	b = strconv.AppendBool(b, r.HasActions)
	b = append(b, `,"has_issues":`...)
	b = strconv.AppendBool(b, r.HasIssues)
	b = append(b, `,"has_packages":`...)
	b = strconv.AppendBool(b, r.HasPackages)
	b = append(b, `,"has_projects":`...)
	b = strconv.AppendBool(b, r.HasProjects)
	b = append(b, `,"has_pull_requests":`...)
	b = strconv.AppendBool(b, r.HasPullRequests)
	b = append(b, `,"has_releases":`...)
	b = strconv.AppendBool(b, r.HasReleases)
	b = append(b, `,"has_wiki":`...)
	b = strconv.AppendBool(b, r.HasWiki)
	b = append(b, `,"has_wiki_contents":`...)
	b = strconv.AppendBool(b, r.HasWikiContents)
	b = append(b, `,"html_url":`...)
	b = appendJSONString(b, r.HTMLURL)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `,"ignore_whitespace_conflicts":`...)
	b = strconv.AppendBool(b, r.IgnoreWhitespaceConflicts)
	b = append(b, `,"internal":`...)
	b = strconv.AppendBool(b, r.Internal)
	if t := r.InternalTracker; t != nil {
		b = append(b, `,"internal_tracker":{"allow_only_contributors_to_track_time":`...)
		b = strconv.AppendBool(b, t.AllowOnlyContributorsToTrackTime)
		b = append(b, `,"enable_issue_dependencies":`...)
		b = strconv.AppendBool(b, t.EnableIssueDependencies)
		b = append(b, `,"enable_time_tracker":`...)
		b = strconv.AppendBool(b, t.EnableTimeTracker)
		b = append(b, '}')
	}
	b = append(b, `,"language":`...)
	b = appendJSONString(b, r.Language)
	b = append(b, `,"languages_url":`...)
	b = appendJSONString(b, r.LanguagesURL)
	b = append(b, `,"link":`...)
	b = appendJSONString(b, r.Link)
	b = append(b, `,"mirror":`...)
	b = strconv.AppendBool(b, r.Mirror)
	b = append(b, `,"mirror_interval":`...)
	b = appendJSONString(b, r.MirrorInterval)
	b = append(b, `,"mirror_updated":`...)
	b, ok = appendJSONTime(b, r.MirrorUpdated, ok)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, r.Name)
	b = append(b, `,"object_format_name":`...)
	b = appendJSONString(b, string(r.ObjectFormatName))
	b = append(b, `,"open_issues_count":`...)
	b = strconv.AppendInt(b, r.OpenIssues, 10)
	b = append(b, `,"open_pr_counter":`...)
	b = strconv.AppendInt(b, r.OpenPulls, 10)
	b = append(b, `,"original_url":`...)
	b = appendJSONString(b, r.OriginalURL)
	b = append(b, `,"owner":`...)
	var uok bool
	b, uok = appendUserJSON(b, &r.Owner)
	ok = ok && uok
	b = append(b, `,"parent":`...)
	if r.Parent == nil {
		b = append(b, "null"...)
	} else {
		var pok bool
		b, pok = appendRepositoryJSON(b, r.Parent)
		ok = ok && pok
	}
	if p := r.Permissions; p != nil {
		b = append(b, `,"permissions":{"admin":`...)
		b = strconv.AppendBool(b, p.Admin)
		b = append(b, `,"pull":`...)
		b = strconv.AppendBool(b, p.Pull)
		b = append(b, `,"push":`...)
		b = strconv.AppendBool(b, p.Push)
		b = append(b, '}')
	}
	b = append(b, `,"private":`...)
	b = strconv.AppendBool(b, r.Private)
	b = append(b, `,"release_counter":`...)
	b = strconv.AppendInt(b, r.Releases, 10)
	b = append(b, `,"repo_transfer":`...)
	if r.RepoTransfer == nil {
		b = append(b, "null"...)
	} else {
		b, ok = appendReflectJSON(b, r.RepoTransfer, ok)
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, r.Size, 10)
	b = append(b, `,"ssh_url":`...)
	b = appendJSONString(b, r.SSHURL)
	b = append(b, `,"stars_count":`...)
	b = strconv.AppendInt(b, r.Stars, 10)
	b = append(b, `,"template":`...)
	b = strconv.AppendBool(b, r.Template)
	b = append(b, `,"topics":`...)
	if r.Topics == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range r.Topics {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, t)
		}
		b = append(b, ']')
	}
	b = append(b, `,"updated_at":`...)
	b, ok = appendJSONTime(b, r.Updated, ok)
	b = append(b, `,"url":`...)
	b = appendJSONString(b, r.URL)
	b = append(b, `,"watchers_count":`...)
	b = strconv.AppendInt(b, r.Watchers, 10)
	b = append(b, `,"website":`...)
	b = appendJSONString(b, r.Website)
	if r.WikiBranch != nil {
		b = append(b, `,"wiki_branch":`...)
		b = appendJSONString(b, *r.WikiBranch)
	}
	b = append(b, `,"wiki_clone_url":`...)
	b = appendJSONString(b, r.WikiCloneURL)
	b = append(b, `,"wiki_ssh_url":`...)
	b = appendJSONString(b, r.WikiSSHURL)
	b = append(b, '}')
	return b, ok
}

// appendReflectJSON appends json.Marshal(v), for the rare parts of a fast
// type (external trackers, transfers); ok turns false on an error.
func appendReflectJSON(b []byte, v any, ok bool) ([]byte, bool) {
	data, err := json.Marshal(v)
	if err != nil {
		return b, false
	}
	return append(b, data...), ok
}

// appendJSONTime appends t as time.Time.MarshalJSON does (RFC 3339 with
// nanoseconds, quoted); ok turns false where MarshalJSON fails (a year
// outside 0–9999 or a zone offset of a day or more).
func appendJSONTime(b []byte, t time.Time, ok bool) ([]byte, bool) {
	if y := t.Year(); y < 0 || y > 9999 {
		return b, false
	}
	if _, off := t.Zone(); off <= -24*3600 || off >= 24*3600 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), ok
}

// appendJSONString appends s quoted as encoding/json does with HTML
// escaping (json.Marshal's and an Encoder's default): `"` and `\` escaped,
// \b \f \n \r \t by name, other control bytes and < > & as \u00XX, invalid
// UTF-8 as \ufffd, U+2028 and U+2029 as \u2028 and \u2029.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
