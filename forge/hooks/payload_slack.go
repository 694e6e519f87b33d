package hooks

import (
	"fmt"
	"strings"
)

// SlackMessage is the body of a slack delivery (Forgejo's SlackPayload).
type SlackMessage struct {
	Channel     string            `json:"channel"`
	Text        string            `json:"text"`
	Username    string            `json:"username"`
	IconURL     string            `json:"icon_url"`
	UnfurlLinks int               `json:"unfurl_links"`
	LinkNames   int               `json:"link_names"`
	Attachments []SlackAttachment `json:"attachments"`
}

// SlackAttachment is an attachment of a slack message.
type SlackAttachment struct {
	Fallback  string `json:"fallback"`
	Color     string `json:"color"`
	Title     string `json:"title"`
	TitleLink string `json:"title_link"`
	Text      string `json:"text"`
}

var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// slackEscape replaces &, < and > by their entities (slack's formatting).
func slackEscape(s string) string { return slackEscaper.Replace(s) }

// slackName puts a name in an inline code span, so that it notifies no
// one.
func slackName(name string) string {
	return "`" + slackEscape(strings.ReplaceAll(name, "`", "'")) + "`"
}

// slackLink is slack's <url|text> link.
func slackLink(u, text string) string { return "<" + u + "|" + slackEscape(text) + ">" }

var slackStyle = textStyle{link: slackLink, name: slackName, sender: true, repoName: true}

// slackConverter reads the hook's meta: channel, username, icon_url and
// color (the colour of push attachments).
type slackConverter map[string]string

func (c slackConverter) message(text string, att []SlackAttachment) SlackMessage {
	return SlackMessage{Channel: strings.TrimSpace(c["channel"]), Text: text, Username: c["username"],
		IconURL: c["icon_url"], Attachments: att}
}

func (c slackConverter) create(p *CreatePayload) (any, error) {
	link := slackLink(refURL(p.Repo.HTMLURL, p.Ref), refShort(p.Ref))
	return c.message(fmt.Sprintf("[%s:%s] %s created by %s", p.Repo.FullName, link, p.RefType, slackName(p.Sender.UserName)), nil), nil
}

func (c slackConverter) delete(p *DeletePayload) (any, error) {
	repo := slackLink(p.Repo.HTMLURL, p.Repo.FullName)
	return c.message(fmt.Sprintf("[%s:%s] %s deleted by %s", repo, refShort(p.Ref), p.RefType, slackName(p.Sender.UserName)), nil), nil
}

func (c slackConverter) fork(p *ForkPayload) (any, error) {
	return c.message(fmt.Sprintf("%s is forked to %s", slackLink(p.Forkee.HTMLURL, p.Forkee.FullName),
		slackLink(p.Repo.HTMLURL, p.Repo.FullName)), nil), nil
}

func (c slackConverter) push(p *PushPayload) (any, error) {
	desc := commitsDesc(p.TotalCommits)
	if p.CompareURL != "" {
		desc = slackLink(p.CompareURL, desc)
	}
	branch := slackLink(refURL(p.Repo.HTMLURL, p.Ref), refShort(p.Ref))
	text := fmt.Sprintf("[%s:%s] %s pushed by %s", p.Repo.FullName, branch, desc, slackName(p.Pusher.UserName))
	lines := make([]string, len(p.Commits))
	for i, cm := range p.Commits {
		first, _, _ := strings.Cut(cm.Message, "\n")
		lines[i] = fmt.Sprintf("%s: %s - %s", slackLink(cm.URL, shortID(cm.ID, 7)), slackEscape(first), slackName(commitAuthor(cm)))
	}
	return c.message(text, []SlackAttachment{{Color: c["color"], Title: p.Repo.HTMLURL, TitleLink: p.Repo.HTMLURL,
		Text: strings.Join(lines, "\n")}}), nil
}

func (c slackConverter) issue(p *issueEvent) (any, error) {
	text, title, attach, color := slackStyle.issueText(p, rootOf(p.Sender))
	var att []SlackAttachment
	if attach != "" {
		att = []SlackAttachment{{Color: fmt.Sprintf("%x", color), Title: slackEscape(title), TitleLink: p.Issue.HTMLURL,
			Text: slackEscape(attach)}}
	}
	return c.message(text, att), nil
}

func (c slackConverter) comment(p *commentEvent) (any, error) {
	text, title, color := slackStyle.commentText(p)
	return c.message(text, []SlackAttachment{{Color: fmt.Sprintf("%x", color), Title: title, TitleLink: p.Comment.HTMLURL,
		Text: slackEscape(p.Comment.Body)}}), nil
}

func (c slackConverter) pull(p *issueEvent) (any, error) {
	text, title, attach, color := slackStyle.pullText(p, rootOf(p.Sender))
	var att []SlackAttachment
	if attach != "" {
		att = []SlackAttachment{{Color: fmt.Sprintf("%x", color), Title: slackEscape(title), TitleLink: p.Issue.HTMLURL,
			Text: slackEscape(p.Issue.Body)}}
	}
	return c.message(text, att), nil
}

func (c slackConverter) repository(p *RepositoryPayload) (any, error) {
	repo := slackLink(p.Repository.HTMLURL, p.Repository.FullName)
	var text string
	switch p.Action {
	case "created":
		text = fmt.Sprintf("[%s] Repository created by %s", repo, slackName(p.Sender.UserName))
	case "deleted":
		text = fmt.Sprintf("[%s] Repository deleted by %s", repo, slackName(p.Sender.UserName))
	}
	return c.message(text, nil), nil
}
