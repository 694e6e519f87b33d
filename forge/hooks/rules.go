package hooks

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gobwas/glob"

	"github.com/hearthforge/hearth/forge"
)

// Type is a hook type: the receiver's kind, as Forgejo's webhook_module.HookType.
type Type string

// Hook types Forgejo v15 offers (routers/api/v1/utils/hook.go).
const (
	TypeForgejo         Type = "forgejo"
	TypeGitea           Type = "gitea"
	TypeGogs            Type = "gogs"
	TypeSlack           Type = "slack"
	TypeDiscord         Type = "discord"
	TypeDingtalk        Type = "dingtalk"
	TypeTelegram        Type = "telegram"
	TypeMSTeams         Type = "msteams"
	TypeFeishu          Type = "feishu"
	TypeMatrix          Type = "matrix"
	TypeWechatwork      Type = "wechatwork"
	TypePackagist       Type = "packagist"
	TypeSourcehutBuilds Type = "sourcehut_builds"
)

var types = []Type{TypeForgejo, TypeGitea, TypeGogs, TypeSlack, TypeDiscord, TypeDingtalk, TypeTelegram,
	TypeMSTeams, TypeFeishu, TypeMatrix, TypeWechatwork, TypePackagist, TypeSourcehutBuilds}

// Valid reports whether t is a hook type Forgejo offers.
func (t Type) Valid() bool { return slices.Contains(types, t) }

// Native reports whether the type receives Forgejo's own JSON payloads
// (forgejo, gitea, gogs); the other types receive their own format (see
// NewRequest).
func (t Type) Native() bool { return t == TypeForgejo || t == TypeGitea || t == TypeGogs }

// ContentType is how a payload is sent.
type ContentType string

// Content types.
const (
	ContentJSON ContentType = "json"
	ContentForm ContentType = "form"
)

// ParseContentType accepts "json" and "form".
func ParseContentType(s string) (ContentType, bool) {
	switch ContentType(s) {
	case ContentJSON, ContentForm:
		return ContentType(s), true
	}
	return "", false
}

// Event words a hook may subscribe to (Forgejo's HookEvents). "issues" and
// "pull_request" stand for all their sub-events.
var eventWords = []string{
	"create", "delete", "fork", "push",
	"issues", "issues_only", "issue_assign", "issue_label", "issue_milestone", "issue_comment",
	"pull_request", "pull_request_only", "pull_request_assign", "pull_request_label", "pull_request_milestone",
	"pull_request_comment", "pull_request_review", "pull_request_review_request", "pull_request_sync",
	"wiki", "repository", "release", "package",
	"action_run_failure", "action_run_recover", "action_run_success",
}

// groups are the event words that stand for a family of events, as
// Forgejo's issuesHook and pullHook read them in a create or edit: "issues"
// sets every issue event, comments included, "pull_request" every pull
// request event.
var groups = map[string][]string{
	"issues": {"issues_only", "issue_assign", "issue_label", "issue_milestone", "issue_comment"},
	"pull_request": {"pull_request_only", "pull_request_assign", "pull_request_label", "pull_request_milestone",
		"pull_request_comment", "pull_request_review", "pull_request_review_request", "pull_request_sync"},
}

// NormalizeEvents returns the events of a create or edit as Forgejo reads
// them: ["push"] when none is given; otherwise the known words, compared
// ignoring case, with "issues" and "pull_request" replaced by the events
// of their family (groups), without duplicates, in eventWords' order.
// Unknown words are ignored, as Forgejo's form binding ignores them (a
// hook given only unknown words subscribes to nothing).
func NormalizeEvents(in []string) []string {
	if len(in) == 0 {
		return []string{"push"}
	}
	set := map[string]bool{}
	for _, w := range in {
		w = strings.ToLower(strings.TrimSpace(w))
		if !slices.Contains(eventWords, w) {
			continue
		}
		if members, ok := groups[w]; ok {
			for _, m := range members {
				set[m] = true
			}
			continue
		}
		set[w] = true
	}
	out := []string{}
	for _, w := range eventWords {
		if set[w] {
			out = append(out, w)
		}
	}
	return out
}

// ShownEvents returns a hook's events as Forgejo's API shows them (its
// HookEvents keys set): issues_only is "issues" and pull_request_only
// "pull_request"; a family word stored by an earlier version stands for
// its members. In eventWords' order, without duplicates.
func ShownEvents(events []string) []string {
	set := map[string]bool{}
	for _, w := range events {
		members, ok := groups[w]
		if !ok {
			members = []string{w}
		}
		for _, m := range members {
			switch m {
			case "issues_only":
				m = "issues"
			case "pull_request_only":
				m = "pull_request"
			}
			set[m] = true
		}
	}
	out := []string{}
	for _, w := range eventWords {
		if set[w] {
			out = append(out, w)
		}
	}
	return out
}

// Subscribes reports whether a hook with events receives event (an event
// word such as "push", "issues_only" or "issue_comment").
func Subscribes(events []string, event string) bool {
	for _, w := range events {
		if w == event || slices.Contains(groups[w], event) {
			return true
		}
	}
	return false
}

// MatchBranchFilter reports whether a branch filter lets an event of
// branch through: an empty filter or "*" passes everything; otherwise the
// filter is a gobwas glob (Forgejo compiles it without separators), and an
// event without a branch (tags, issues) passes. A filter that does not
// compile, or whose match panics, passes nothing.
func MatchBranchFilter(filter, branch string) bool {
	if filter == "" || filter == "*" || branch == "" {
		return true
	}
	g, err := glob.Compile(filter)
	if err != nil {
		return false
	}
	return globMatch(g, branch)
}

// globMatch is g.Match, false when it panics: gobwas/glob's Match panics
// on some patterns with an unclosed '{' ("a{" against "a"), which a hook's
// branch filter or an allowed host list may hold.
func globMatch(g glob.Glob, s string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return g.Match(s)
}

// ValidBranchFilter reports whether filter compiles as a glob.
func ValidBranchFilter(filter string) bool {
	if filter == "" {
		return true
	}
	_, err := glob.Compile(filter)
	return err == nil
}

// ValidURL reports whether s is an absolute http or https URL with a host
// (Forgejo's validation.IsValidURL).
func ValidURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return false
	}
	return u.Scheme == "http" || u.Scheme == "https"
}

// metaKeys are the configuration keys each type keeps besides url,
// content_type, secret and http_method: the fields of Forgejo's
// <Type>Meta. Forgejo's API stores slack's only; Hearth also keeps the
// others' from the create and edit config, as Forgejo's forms do.
var metaKeys = map[Type][]string{
	TypeSlack:           {"channel", "username", "icon_url", "color"},
	TypeDiscord:         {"username", "icon_url"},
	TypeTelegram:        {"bot_token", "chat_id", "thread_id"},
	TypeMatrix:          {"homeserver_url", "room_id", "message_type"},
	TypePackagist:       {"username", "api_token", "package_url"},
	TypeSourcehutBuilds: {"manifest_path", "visibility", "secrets"},
}

// Settings is the "config" object of a create or edit option.
type Settings map[string]string

// CheckConfig validates the config of a new hook of type t, as Forgejo's
// checkCreateHookOption (messages are its 422 texts).
func CheckConfig(t Type, c Settings) error {
	for _, k := range []string{"url", "content_type"} {
		if _, ok := c[k]; !ok {
			return forge.Errorf(forge.ErrInvalid, "Missing config option: %s", k)
		}
	}
	if _, ok := ParseContentType(c["content_type"]); !ok {
		return forge.Errorf(forge.ErrInvalid, "Invalid content type")
	}
	if !ValidURL(c["url"]) {
		return forge.Errorf(forge.ErrInvalid, "Invalid url")
	}
	return checkMeta(t, c)
}

// checkMeta checks the type's own keys (slack needs a channel).
func checkMeta(t Type, c Settings) error {
	if t == TypeSlack {
		ch, ok := c["channel"]
		if !ok {
			return forge.Errorf(forge.ErrInvalid, "Missing config option: channel")
		}
		if !validSlackChannel(ch) {
			return &BadRequestError{"Invalid slack channel name"}
		}
	}
	return nil
}

// validSlackChannel is Forgejo's IsValidSlackChannel: a non-empty name,
// optionally after "#".
func validSlackChannel(ch string) bool {
	ch = strings.TrimPrefix(strings.TrimSpace(ch), "#")
	return ch != "" && !strings.ContainsAny(ch, " \t")
}

// BadRequestError is a refusal Forgejo answers with 400 rather than 422.
// It is a forge.ErrInvalid.
type BadRequestError struct{ Msg string }

func (e *BadRequestError) Error() string { return e.Msg }

// Is makes it a forge.ErrInvalid.
func (e *BadRequestError) Is(target error) bool { return target == forge.ErrInvalid }

// ParseSystemFlag reads config.is_system_webhook: absent is false; any
// value strconv.ParseBool refuses is forge.ErrInvalid.
func ParseSystemFlag(c Settings) (bool, error) {
	v, ok := c["is_system_webhook"]
	if !ok {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, forge.Errorf(forge.ErrInvalid, "Invalid is_system_webhook value")
	}
	return b, nil
}

// MetaOf returns the type's own keys of c.
func MetaOf(t Type, c Settings) map[string]string {
	m := map[string]string{}
	for _, k := range metaKeys[t] {
		if v, ok := c[k]; ok {
			m[k] = v
		}
	}
	return m
}

// HookConfig is the "config" object Forgejo shows for a hook: url,
// content_type and, for slack, its own keys; never the secret (nor the
// other types' meta, which Forgejo does not show in config).
func HookConfig(h *Hook) map[string]string {
	c := map[string]string{"url": h.URL, "content_type": string(h.ContentType)}
	if h.Type == TypeSlack {
		for k, v := range h.Meta {
			c[k] = v
		}
	}
	return c
}
