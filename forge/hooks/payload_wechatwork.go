package hooks

import (
	"fmt"
	"strings"
)

// WechatworkMessage is the body of a wechatwork delivery (Forgejo's
// WechatworkPayload): always a markdown message.
type WechatworkMessage struct {
	Msgtype string `json:"msgtype"`
	Text    struct {
		Content             string   `json:"content"`
		MentionedList       []string `json:"mentioned_list"`
		MentionedMobileList []string `json:"mentioned_mobile_list"`
	} `json:"text"`
	Markdown struct {
		Content string `json:"content"`
	} `json:"markdown"`
}

var wechatworkStyle = textStyle{link: plainLink, name: plainName, sender: true, repoName: true}

type wechatworkConverter struct{}

func wechatworkMarkdown(content string) WechatworkMessage {
	m := WechatworkMessage{Msgtype: "markdown"}
	m.Markdown.Content = content
	return m
}

func (wechatworkConverter) create(p *CreatePayload) (any, error) {
	return wechatworkMarkdown(fmt.Sprintf("[%s] %s %s created", p.Repo.FullName, p.RefType, refShort(p.Ref))), nil
}

func (wechatworkConverter) delete(p *DeletePayload) (any, error) {
	return wechatworkMarkdown(fmt.Sprintf("[%s] %s %s deleted", p.Repo.FullName, p.RefType, refShort(p.Ref))), nil
}

func (wechatworkConverter) fork(p *ForkPayload) (any, error) {
	return wechatworkMarkdown(fmt.Sprintf("%s is forked to %s", p.Forkee.FullName, p.Repo.FullName)), nil
}

// push: as Forgejo's, the heading's commit count is empty (its commitDesc
// is never set).
func (wechatworkConverter) push(p *PushPayload) (any, error) {
	title := fmt.Sprintf("# %s:%s <font color=\"warning\">  %s  </font>", p.Repo.FullName, refShort(p.Ref), "")
	var b strings.Builder
	for i, cm := range p.Commits {
		author := ""
		if cm.Author != nil {
			author = "Author: " + cm.Author.Name
		}
		msg := strings.ReplaceAll(cm.Message, "\n\n", "\r\n")
		fmt.Fprintf(&b, " > [%s](%s) \r\n ><font color=\"info\">%s</font> \n ><font color=\"warning\">%s</font>",
			shortID(cm.ID, 7), cm.URL, msg, author)
		if i < len(p.Commits)-1 {
			b.WriteString("\n")
		}
	}
	return wechatworkMarkdown(title + "\r\n\r\n" + b.String()), nil
}

func (wechatworkConverter) issue(p *issueEvent) (any, error) {
	text, title, attach, _ := wechatworkStyle.issueText(p, rootOf(p.Sender))
	return wechatworkMarkdown(fmt.Sprintf(" ><font color=\"info\">%s</font>\n >%s \n ><font color=\"warning\"> %s</font> \n [%s](%s)",
		text, attach, title, p.Issue.HTMLURL, p.Issue.HTMLURL)), nil
}

func (wechatworkConverter) comment(p *commentEvent) (any, error) {
	text, title, _ := wechatworkStyle.commentText(p)
	return wechatworkMarkdown(fmt.Sprintf(" ><font color=\"info\">%s</font>\n >%s \n ><font color=\"warning\">%s</font> \n [%s](%s)",
		text, p.Comment.Body, title, p.Comment.HTMLURL, p.Comment.HTMLURL)), nil
}

func (wechatworkConverter) pull(p *issueEvent) (any, error) {
	text, title, attach, _ := wechatworkStyle.pullText(p, rootOf(p.Sender))
	return wechatworkMarkdown(fmt.Sprintf("> <font color=\"info\"> %s </font> \r\n > <font color=\"comment\">%s </font> \r\n > <font color=\"comment\">%s </font> \r\n",
		text, title, attach)), nil
}

func (wechatworkConverter) repository(p *RepositoryPayload) (any, error) {
	switch p.Action {
	case "created":
		return wechatworkMarkdown(fmt.Sprintf("[%s] Repository created", p.Repository.FullName)), nil
	case "deleted":
		return wechatworkMarkdown(fmt.Sprintf("[%s] Repository deleted", p.Repository.FullName)), nil
	}
	return WechatworkMessage{}, nil
}
