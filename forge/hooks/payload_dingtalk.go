package hooks

import (
	"fmt"
	"net/url"
	"strings"
)

// DingtalkMessage is the body of a dingtalk delivery (Forgejo's
// DingtalkPayload).
type DingtalkMessage struct {
	MsgType string `json:"msgtype"`
	Text    struct {
		Content string `json:"content"`
	} `json:"text"`
	ActionCard DingtalkActionCard `json:"actionCard"`
}

// DingtalkActionCard is a dingtalk action card.
type DingtalkActionCard struct {
	Text        string `json:"text"`
	Title       string `json:"title"`
	HideAvatar  string `json:"hideAvatar"`
	SingleTitle string `json:"singleTitle"`
	SingleURL   string `json:"singleURL"`
}

var dingtalkStyle = textStyle{link: plainLink, name: plainName, sender: true, repoName: true}

type dingtalkConverter struct{}

// card is an action card whose button opens link in the browser.
func (dingtalkConverter) card(title, text, button, link string) DingtalkMessage {
	return DingtalkMessage{MsgType: "actionCard", ActionCard: DingtalkActionCard{
		Text: strings.TrimSpace(text), Title: strings.TrimSpace(title), HideAvatar: "0", SingleTitle: button,
		SingleURL: "dingtalk://dingtalkclient/page/link?pc_slide=false&url=" + url.QueryEscape(link)}}
}

func (c dingtalkConverter) create(p *CreatePayload) (any, error) {
	ref := refShort(p.Ref)
	title := fmt.Sprintf("[%s] %s %s created", p.Repo.FullName, p.RefType, ref)
	return c.card(title, title, "view ref "+ref, p.Repo.HTMLURL+"/src/"+pathEscapeSegments(ref)), nil
}

func (c dingtalkConverter) delete(p *DeletePayload) (any, error) {
	ref := refShort(p.Ref)
	title := fmt.Sprintf("[%s] %s %s deleted", p.Repo.FullName, p.RefType, ref)
	return c.card(title, title, "view ref "+ref, p.Repo.HTMLURL+"/src/"+pathEscapeSegments(ref)), nil
}

func (c dingtalkConverter) fork(p *ForkPayload) (any, error) {
	title := fmt.Sprintf("%s is forked to %s", p.Forkee.FullName, p.Repo.FullName)
	return c.card(title, title, "view forked repo "+p.Repo.FullName, p.Repo.HTMLURL), nil
}

func (c dingtalkConverter) push(p *PushPayload) (any, error) {
	branch := refShort(p.Ref)
	button := "view commits"
	if p.TotalCommits == 1 {
		button = "view commit"
	}
	title := fmt.Sprintf("[%s:%s] %s", p.Repo.FullName, branch, commitsDesc(p.TotalCommits))
	lines := make([]string, len(p.Commits))
	for i, cm := range p.Commits {
		lines[i] = fmt.Sprintf("[%s](%s) %s", shortID(cm.ID, 7), cm.URL, strings.TrimRight(cm.Message, "\r\n"))
		if cm.Author != nil {
			lines[i] += " - " + cm.Author.Name
		}
	}
	return c.card(title, strings.Join(lines, "\r\n"), button, pushTarget(p, branch)), nil
}

func (c dingtalkConverter) issue(p *issueEvent) (any, error) {
	text, title, attach, _ := dingtalkStyle.issueText(p, rootOf(p.Sender))
	return c.card(title, text+"\r\n\r\n"+attach, "view issue", p.Issue.HTMLURL), nil
}

func (c dingtalkConverter) comment(p *commentEvent) (any, error) {
	text, title, _ := dingtalkStyle.commentText(p)
	return c.card(title, text+"\r\n\r\n"+p.Comment.Body, "view issue comment", p.Comment.HTMLURL), nil
}

func (c dingtalkConverter) pull(p *issueEvent) (any, error) {
	text, title, attach, _ := dingtalkStyle.pullText(p, rootOf(p.Sender))
	return c.card(title, text+"\r\n\r\n"+attach, "view pull request", p.Issue.HTMLURL), nil
}

func (c dingtalkConverter) repository(p *RepositoryPayload) (any, error) {
	switch p.Action {
	case "created":
		title := fmt.Sprintf("[%s] Repository created", p.Repository.FullName)
		return c.card(title, title, "view repository", p.Repository.HTMLURL), nil
	case "deleted":
		m := DingtalkMessage{MsgType: "text"}
		m.Text.Content = fmt.Sprintf("[%s] Repository deleted", p.Repository.FullName)
		return m, nil
	}
	return DingtalkMessage{}, nil
}
