package hooks

import (
	"fmt"
	"strings"
)

// FeishuMessage is the body of a feishu delivery (Forgejo's
// FeishuPayload).
type FeishuMessage struct {
	MsgType string `json:"msg_type"`
	Content struct {
		Text string `json:"text"`
	} `json:"content"`
}

type feishuConverter struct{}

func feishuText(text string) FeishuMessage {
	m := FeishuMessage{MsgType: "text"}
	m.Content.Text = strings.TrimSpace(text)
	return m
}

func (feishuConverter) create(p *CreatePayload) (any, error) {
	return feishuText(fmt.Sprintf("[%s] %s %s created", p.Repo.FullName, p.RefType, refShort(p.Ref))), nil
}

func (feishuConverter) delete(p *DeletePayload) (any, error) {
	return feishuText(fmt.Sprintf("[%s] %s %s deleted", p.Repo.FullName, p.RefType, refShort(p.Ref))), nil
}

func (feishuConverter) fork(p *ForkPayload) (any, error) {
	return feishuText(fmt.Sprintf("%s is forked to %s", p.Forkee.FullName, p.Repo.FullName)), nil
}

// push: Forgejo's feishu push message leaves the commit count out (its
// commitDesc is never set), so the first line ends in "] ".
func (feishuConverter) push(p *PushPayload) (any, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s:%s] %s\r\n", p.Repo.FullName, refShort(p.Ref), "")
	for i, cm := range p.Commits {
		fmt.Fprintf(&b, "[%s](%s) %s", shortID(cm.ID, 7), cm.URL, strings.TrimRight(cm.Message, "\r\n"))
		if cm.Author != nil {
			b.WriteString(" - " + cm.Author.Name)
		}
		if i < len(p.Commits)-1 {
			b.WriteString("\r\n")
		}
	}
	return feishuText(b.String()), nil
}

// feishuInfo is Forgejo's getIssuesInfo / getPullRequestInfo: the title,
// link, poster, operator, operation result and assignees lines.
func feishuInfo(kind, by string, p *issueEvent) (title, link, poster, operator, result, assignees string) {
	i := p.Issue
	title = fmt.Sprintf("[%s-%s #%d]: %s\n%s", kind, p.Repository.FullName, i.Number, p.Action, i.Title)
	names := make([]string, len(i.Assignees))
	for k, u := range i.Assignees {
		names[k] = u.UserName
	}
	switch p.Action {
	case "assigned":
		if len(i.Assignees) > 0 {
			result = fmt.Sprintf("%s assign this to %s", p.Sender.UserName, i.Assignees[len(i.Assignees)-1].UserName)
		}
	case "unassigned":
		result = p.Sender.UserName + " unassigned this for someone"
	case "milestoned":
		if i.Milestone != nil {
			result = fmt.Sprintf("%s/milestone/%d", p.Repository.HTMLURL, i.Milestone.ID)
		}
	}
	if len(names) > 0 {
		assignees = "Assignees: " + strings.Join(names, ", ")
	}
	return title, i.HTMLURL, fmt.Sprintf("%s by %s", by, i.User.UserName), "Operator: " + p.Sender.UserName, result, assignees
}

func feishuIssueText(kind, by string, p *issueEvent) FeishuMessage {
	title, link, poster, operator, result, assignees := feishuInfo(kind, by, p)
	body := p.Issue.Body
	if assignees != "" {
		if p.Action == "assigned" || p.Action == "unassigned" || p.Action == "milestoned" {
			return feishuText(fmt.Sprintf("%s\n%s\n%s\n%s\n%s\n%s\n\n%s", title, link, poster, operator, result, assignees, body))
		}
		return feishuText(fmt.Sprintf("%s\n%s\n%s\n%s\n%s\n\n%s", title, link, poster, operator, assignees, body))
	}
	return feishuText(fmt.Sprintf("%s\n%s\n%s\n%s\n\n%s", title, link, poster, operator, body))
}

func (feishuConverter) issue(p *issueEvent) (any, error) {
	return feishuIssueText("Issue", "Issue", p), nil
}

func (feishuConverter) pull(p *issueEvent) (any, error) {
	return feishuIssueText("PullRequest", "PullRequest", p), nil
}

func (feishuConverter) comment(p *commentEvent) (any, error) {
	title := fmt.Sprintf("[Comment-%s #%d]: %s\n%s", p.Repository.FullName, p.Issue.Number, p.Action, p.Issue.Title)
	by := "Issue by "
	if p.IsPull {
		by = "PullRequest by "
	}
	return feishuText(fmt.Sprintf("%s\n%s\n%s\n%s\n\n%s", title, p.Issue.HTMLURL, by+p.Issue.User.UserName,
		"Operator: "+p.Sender.UserName, p.Comment.Body)), nil
}

func (feishuConverter) repository(p *RepositoryPayload) (any, error) {
	switch p.Action {
	case "created":
		return feishuText(fmt.Sprintf("[%s] Repository created", p.Repository.FullName)), nil
	case "deleted":
		return feishuText(fmt.Sprintf("[%s] Repository deleted", p.Repository.FullName)), nil
	}
	return FeishuMessage{}, nil
}
