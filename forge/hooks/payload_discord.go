package hooks

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// DiscordMessage is the body of a discord delivery (Forgejo's
// DiscordPayload).
type DiscordMessage struct {
	Username  string         `json:"username"`
	AvatarURL string         `json:"avatar_url,omitempty"`
	Embeds    []DiscordEmbed `json:"embeds"`
}

// DiscordEmbed is the one embed of a discord message.
type DiscordEmbed struct {
	Title       string              `json:"title"`
	Description string              `json:"description"`
	URL         string              `json:"url"`
	Color       int                 `json:"color"`
	Footer      *DiscordEmbedFooter `json:"footer,omitempty"`
	Author      DiscordEmbedAuthor  `json:"author"`
	Fields      []DiscordEmbedField `json:"fields,omitempty"`
}

// DiscordEmbedFooter is an embed's footer.
type DiscordEmbedFooter struct {
	Text string `json:"text"`
}

// DiscordEmbedAuthor is an embed's author: the sender.
type DiscordEmbedAuthor struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	IconURL string `json:"icon_url"`
}

// DiscordEmbedField is a field of an embed.
type DiscordEmbedField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// discordDescriptionLimit is where descriptions are cut (Forgejo's
// discordDescriptionCharactersLimit).
const discordDescriptionLimit = 2000

var discordStyle = textStyle{link: plainLink, name: plainName, repoName: true}

// discordConverter reads the hook's meta: username and icon_url.
type discordConverter map[string]string

func (c discordConverter) message(s *PayloadUser, title, text, u string, color int) DiscordMessage {
	if utf8.RuneCountInString(title) > 256 {
		title = string([]rune(title)[:253]) + "..."
	}
	if utf8.RuneCountInString(text) > 4096 {
		text = string([]rune(text)[:4093]) + "..."
	}
	return DiscordMessage{Username: c["username"], AvatarURL: c["icon_url"], Embeds: []DiscordEmbed{{
		Title: title, Description: truncateRunes(text, discordDescriptionLimit), URL: u, Color: color,
		Author: DiscordEmbedAuthor{Name: s.UserName, URL: rootOf(s) + s.UserName, IconURL: s.AvatarURL},
	}}}
}

func (c discordConverter) create(p *CreatePayload) (any, error) {
	ref := refShort(p.Ref)
	return c.message(p.Sender, fmt.Sprintf("[%s] %s %s created", p.Repo.FullName, p.RefType, ref), "",
		p.Repo.HTMLURL+"/src/"+pathEscapeSegments(ref), colorGreen), nil
}

func (c discordConverter) delete(p *DeletePayload) (any, error) {
	ref := refShort(p.Ref)
	return c.message(p.Sender, fmt.Sprintf("[%s] %s %s deleted", p.Repo.FullName, p.RefType, ref), "",
		p.Repo.HTMLURL+"/src/"+pathEscapeSegments(ref), colorRed), nil
}

func (c discordConverter) fork(p *ForkPayload) (any, error) {
	return c.message(p.Sender, fmt.Sprintf("%s is forked to %s", p.Forkee.FullName, p.Repo.FullName), "",
		p.Repo.HTMLURL, colorGreen), nil
}

func (c discordConverter) push(p *PushPayload) (any, error) {
	branch := refShort(p.Ref)
	title := fmt.Sprintf("[%s:%s] %s", p.Repo.FullName, branch, commitsDesc(p.TotalCommits))
	lines := make([]string, len(p.Commits))
	for i, cm := range p.Commits {
		// Forgejo cuts with SplitN(msg, "\n", 1), which keeps the whole
		// message; only a trailing "\r" goes.
		msg := escapeMarkdown(strings.TrimRight(cm.Message, "\r"))
		if utf8.RuneCountInString(msg) > 50 {
			msg = string([]rune(msg)[:47]) + "..."
		}
		lines[i] = fmt.Sprintf("[`%s`](%s) %s \\- %s", shortID(cm.ID, 7), cm.URL, msg, commitAuthor(cm))
	}
	return c.message(p.Sender, title, strings.Join(lines, "\n"), pushTarget(p, branch), colorGreen), nil
}

func (c discordConverter) issue(p *issueEvent) (any, error) {
	text, _, attach, color := discordStyle.issueText(p, rootOf(p.Sender))
	return c.message(p.Sender, text, attach, p.Issue.HTMLURL, color), nil
}

func (c discordConverter) comment(p *commentEvent) (any, error) {
	text, _, color := discordStyle.commentText(p)
	return c.message(p.Sender, text, p.Comment.Body, p.Comment.HTMLURL, color), nil
}

func (c discordConverter) pull(p *issueEvent) (any, error) {
	text, _, attach, color := discordStyle.pullText(p, rootOf(p.Sender))
	return c.message(p.Sender, text, attach, p.Issue.HTMLURL, color), nil
}

func (c discordConverter) repository(p *RepositoryPayload) (any, error) {
	var title, u string
	var color int
	switch p.Action {
	case "created":
		title, u, color = fmt.Sprintf("[%s] Repository created", p.Repository.FullName), p.Repository.HTMLURL, colorGreen
	case "deleted":
		title, color = fmt.Sprintf("[%s] Repository deleted", p.Repository.FullName), colorRed
	}
	return c.message(p.Sender, title, "", u, color), nil
}

var (
	mdOrderedList = regexp.MustCompile(`(\d+)\.`)
	mdPairs       = []struct {
		char string
		re   *regexp.Regexp
	}{
		{"~", regexp.MustCompile(`~(.*?)~`)},
		{"*", regexp.MustCompile(`\*(.*?)\*`)},
		{"_", regexp.MustCompile(`_(.*?)_`)},
	}
	mdEscapes = strings.NewReplacer("* ", "\\* ", "`", "\\`", "[", "\\[", "]", "\\]", "(", "\\(", ")", "\\)",
		"#", "\\#", "+ ", "\\+ ", "- ", "\\- ", "---", "\\---", "!", "\\!", "|", "\\|", "<", "\\<", ">", "\\>")
)

// escapeMarkdown escapes what discord would read as markdown in a commit
// message (Forgejo's escapeMarkdown).
func escapeMarkdown(s string) string {
	s = mdOrderedList.ReplaceAllString(s, `$1\.`)
	for _, p := range mdPairs {
		s = p.re.ReplaceAllString(s, `\`+p.char+`$1\`+p.char)
	}
	return mdEscapes.Replace(s)
}
