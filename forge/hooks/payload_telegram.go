package hooks

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
)

// TelegramMessage is the body of a telegram delivery (Forgejo's
// TelegramPayload), sent to the Bot API's sendMessage.
type TelegramMessage struct {
	Message           string `json:"text"`
	ParseMode         string `json:"parse_mode"`
	DisableWebPreview bool   `json:"disable_web_page_preview"`
}

var telegramStyle = textStyle{link: htmlLink, name: plainName, sender: true, repoName: true}

type telegramConverter struct{}

func telegramText(msg string) TelegramMessage {
	return TelegramMessage{Message: sanitizeHTML(strings.TrimSpace(msg)), ParseMode: "HTML", DisableWebPreview: true}
}

// telegramRequest posts the message to the hook's URL (the Bot API's
// https://api.telegram.org/bot<token>/sendMessage?chat_id=…, as Forgejo's
// form builds it). A URL without chat_id takes the chat_id and thread_id
// of the hook's meta.
func telegramRequest(h *Hook, t *Task) (Request, error) {
	v, err := convert(telegramConverter{}, t)
	if err != nil {
		return Request{}, err
	}
	target := h.URL
	if chat := h.Meta["chat_id"]; chat != "" {
		if u, err := url.Parse(h.URL); err == nil && u.Query().Get("chat_id") == "" {
			q := u.Query()
			q.Set("chat_id", chat)
			q.Set("message_thread_id", h.Meta["thread_id"])
			u.RawQuery = q.Encode()
			target = u.String()
		}
	}
	return jsonRequest(h, t, v, target)
}

func (telegramConverter) create(p *CreatePayload) (any, error) {
	ref := refShort(p.Ref)
	return telegramText(fmt.Sprintf(`[%s] %s <a href="%s">%s</a> created`, p.Repo.FullName, p.RefType,
		p.Repo.HTMLURL+"/src/"+ref, ref)), nil
}

func (telegramConverter) delete(p *DeletePayload) (any, error) {
	ref := refShort(p.Ref)
	return telegramText(fmt.Sprintf(`[%s] %s <a href="%s">%s</a> deleted`, p.Repo.FullName, p.RefType,
		p.Repo.HTMLURL+"/src/"+ref, ref)), nil
}

func (telegramConverter) fork(p *ForkPayload) (any, error) {
	return telegramText(fmt.Sprintf(`%s is forked to <a href="%s">%s</a>`, p.Forkee.FullName, p.Repo.HTMLURL, p.Repo.FullName)), nil
}

func (telegramConverter) push(p *PushPayload) (any, error) {
	title := fmt.Sprintf("[%s:%s] %s", p.Repo.FullName, refShort(p.Ref), commitsDesc(p.TotalCommits))
	lines := make([]string, len(p.Commits))
	for i, cm := range p.Commits {
		lines[i] = fmt.Sprintf(`[<a href="%s">%s</a>] %s`, cm.URL, shortID(cm.ID, 7), strings.TrimRight(cm.Message, "\r\n"))
		if cm.Author != nil {
			lines[i] += " - " + cm.Author.Name
		}
	}
	return telegramText(title + "\n" + strings.Join(lines, "\n")), nil
}

func (telegramConverter) issue(p *issueEvent) (any, error) {
	text, _, attach, _ := telegramStyle.issueText(p, rootOf(p.Sender))
	return telegramText(text + "\n\n" + attach), nil
}

func (telegramConverter) comment(p *commentEvent) (any, error) {
	text, _, _ := telegramStyle.commentText(p)
	return telegramText(text + "\n" + p.Comment.Body), nil
}

func (telegramConverter) pull(p *issueEvent) (any, error) {
	text, _, attach, _ := telegramStyle.pullText(p, rootOf(p.Sender))
	return telegramText(text + "\n" + attach), nil
}

func (telegramConverter) repository(p *RepositoryPayload) (any, error) {
	switch p.Action {
	case "created":
		return telegramText(fmt.Sprintf(`[<a href="%s">%s</a>] Repository created`, p.Repository.HTMLURL, p.Repository.FullName)), nil
	case "deleted":
		return telegramText(fmt.Sprintf("[%s] Repository deleted", p.Repository.FullName)), nil
	}
	return TelegramMessage{}, nil
}

var (
	htmlTag  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^<>]*)>`)
	htmlHref = regexp.MustCompile(`(?i)\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)
	// telegramTags are the tags kept: those of Telegram's HTML parse mode.
	telegramTags = map[string]bool{"a": true, "b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true,
		"s": true, "strike": true, "del": true, "code": true, "pre": true}
)

// sanitizeHTML is what Forgejo's markup.Sanitize does to telegram
// messages: text is re-escaped, links keep their http(s) or relative href
// and get rel="nofollow", Telegram's formatting tags stay and every other
// tag is dropped (its text kept).
func sanitizeHTML(s string) string {
	var b strings.Builder
	last := 0
	text := func(t string) { b.WriteString(html.EscapeString(html.UnescapeString(t))) }
	for _, m := range htmlTag.FindAllStringSubmatchIndex(s, -1) {
		text(s[last:m[0]])
		last = m[1]
		closing, name, attrs := s[m[2]:m[3]] == "/", strings.ToLower(s[m[4]:m[5]]), s[m[6]:m[7]]
		if !telegramTags[name] {
			continue
		}
		switch {
		case closing:
			b.WriteString("</" + name + ">")
		case name == "a":
			href := ""
			if h := htmlHref.FindStringSubmatch(attrs); h != nil {
				href = html.UnescapeString(h[1] + h[2] + h[3])
			}
			if u, err := url.Parse(href); href != "" && err == nil && (u.Scheme == "" || u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "mailto") {
				fmt.Fprintf(&b, `<a href="%s" rel="nofollow">`, html.EscapeString(href))
			} else {
				b.WriteString("<a>")
			}
		default:
			b.WriteString("<" + name + ">")
		}
	}
	text(s[last:])
	return b.String()
}
