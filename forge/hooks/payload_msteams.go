package hooks

import (
	"fmt"
	"strings"
)

// The msteams message is an Adaptive Card (Forgejo's MSTeamsPayload); the
// types below are its elements, with Forgejo's field order and omissions.

// MSTeamsMessage is the body of an msteams delivery.
type MSTeamsMessage struct {
	Type    string             `json:"type"`
	Schema  string             `json:"$schema"`
	Version string             `json:"version"`
	MsTeams MSTeamsOptions     `json:"msteams"`
	Body    []MSTeamsContainer `json:"body"`
	Actions []MSTeamsAction    `json:"actions,omitempty"`
	Style   string             `json:"style,omitempty"`
}

// MSTeamsOptions are the card's Teams settings.
type MSTeamsOptions struct {
	Width string `json:"width"`
}

// MSTeamsAction is a card action (a button, a toggle).
type MSTeamsAction struct {
	Type           string   `json:"type"`
	Title          string   `json:"title,omitempty"`
	URL            string   `json:"url,omitempty"`
	TargetElements []string `json:"targetElements,omitempty"`
}

// MSTeamsTextBlock is a TextBlock element.
type MSTeamsTextBlock struct {
	Type         string         `json:"type"`
	Text         string         `json:"text"`
	Size         string         `json:"size,omitempty"`
	Weight       string         `json:"weight,omitempty"`
	Color        string         `json:"color,omitempty"`
	IsSubtle     *bool          `json:"isSubtle,omitempty"`
	Wrap         *bool          `json:"wrap,omitempty"`
	MaxLines     int            `json:"maxLines,omitempty"`
	HorizAlign   string         `json:"horizontalAlignment,omitempty"`
	Spacing      string         `json:"spacing,omitempty"`
	FontType     string         `json:"fontType,omitempty"`
	Style        string         `json:"style,omitempty"`
	SelectAction *MSTeamsAction `json:"selectAction,omitempty"`
	IsVisible    *bool          `json:"isVisible,omitempty"`
}

// MSTeamsBadge is a Badge element.
type MSTeamsBadge struct {
	Type         string         `json:"type"`
	Text         string         `json:"text,omitempty"`
	Icon         string         `json:"icon,omitempty"`
	Appearance   string         `json:"appearance,omitempty"`
	IconPosition string         `json:"iconPosition,omitempty"`
	Shape        string         `json:"shape,omitempty"`
	Size         string         `json:"size,omitempty"`
	Style        string         `json:"style,omitempty"`
	Spacing      string         `json:"spacing,omitempty"`
	SelectAction *MSTeamsAction `json:"selectAction,omitempty"`
	ID           string         `json:"id,omitempty"`
}

// MSTeamsIcon is an Icon element.
type MSTeamsIcon struct {
	Type         string         `json:"type"`
	Name         string         `json:"name"`
	Color        string         `json:"color,omitempty"`
	Size         string         `json:"size,omitempty"`
	Style        string         `json:"style,omitempty"`
	SelectAction *MSTeamsAction `json:"selectAction,omitempty"`
	ID           string         `json:"id,omitempty"`
}

// MSTeamsColumn is a column of a ColumnSet.
type MSTeamsColumn struct {
	Type          string         `json:"type"`
	Items         []any          `json:"items,omitempty"`
	Width         any            `json:"width,omitempty"`
	Style         string         `json:"style,omitempty"`
	VerticalAlign string         `json:"verticalContentAlignment,omitempty"`
	Bleed         *bool          `json:"bleed,omitempty"`
	Separator     *bool          `json:"separator,omitempty"`
	Spacing       string         `json:"spacing,omitempty"`
	SelectAction  *MSTeamsAction `json:"selectAction,omitempty"`
	IsVisible     *bool          `json:"isVisible,omitempty"`
}

// MSTeamsColumnSet is a row of columns.
type MSTeamsColumnSet struct {
	Type         string          `json:"type"`
	Columns      []MSTeamsColumn `json:"columns"`
	Spacing      string          `json:"spacing,omitempty"`
	Separator    *bool           `json:"separator,omitempty"`
	Bleed        *bool           `json:"bleed,omitempty"`
	SelectAction *MSTeamsAction  `json:"selectAction,omitempty"`
	IsVisible    *bool           `json:"isVisible,omitempty"`
}

// MSTeamsFact is a fact of a FactSet.
type MSTeamsFact struct {
	Title string `json:"title"`
	Value string `json:"value"`
}

// MSTeamsFactSet is a FactSet element.
type MSTeamsFactSet struct {
	Type      string        `json:"type"`
	Facts     []MSTeamsFact `json:"facts"`
	Separator *bool         `json:"separator,omitempty"`
	Spacing   string        `json:"spacing,omitempty"`
}

// MSTeamsContainer is a Container: a section of the card.
type MSTeamsContainer struct {
	Type           string `json:"type"`
	Items          []any  `json:"items,omitempty"`
	ShowBorder     *bool  `json:"showBorder,omitempty"`
	RoundedCorners *bool  `json:"roundedCorners,omitempty"`
	Spacing        string `json:"spacing,omitempty"`
	Bleed          *bool  `json:"bleed,omitempty"`
	Style          string `json:"style,omitempty"`
	ID             string `json:"id,omitempty"`
	IsVisible      *bool  `json:"isVisible,omitempty"`
	VerticalAlign  string `json:"verticalContentAlignment,omitempty"`
}

// Container styles.
const (
	teamsDefault   = "default"
	teamsEmphasis  = "emphasis"
	teamsAccent    = "accent"
	teamsGood      = "good"
	teamsAttention = "attention"
	teamsWarning   = "warning"
)

var msteamsStyle = textStyle{link: plainLink, name: plainName}

type msteamsConverter struct{}

func ptr[T any](v T) *T { return &v }

// markdownLink is [text](url), or text without a url.
func markdownLink(u, text string) string {
	if u == "" {
		return text
	}
	return "[" + text + "](" + u + ")"
}

// teamsCard is Forgejo's createMSTeamsPayload: the repository header, the
// action line (with its sender), the sections and a button to target.
func teamsCard(r *PayloadRepo, s *PayloadUser, title string, sections []MSTeamsContainer, target, style string) MSTeamsMessage {
	repo := ""
	if r != nil {
		repo = fmt.Sprintf(" | [%s](%s)", r.FullName, r.HTMLURL)
	}
	if style == "" {
		style = teamsDefault
	}
	if s != nil {
		name := "@" + s.UserName
		if s.FullName != "" {
			name = s.FullName + " (@" + s.UserName + ")"
		}
		title += " by " + markdownLink(s.HTMLURL, name)
	}
	body := []MSTeamsContainer{
		{Type: "Container", Items: []any{MSTeamsTextBlock{Type: "TextBlock", Text: "💬 Update" + repo, Weight: "Bolder",
			Size: "Small", IsSubtle: ptr(true)}}},
		{Type: "Container", Style: style, Items: []any{MSTeamsTextBlock{Type: "TextBlock", Style: "heading", Text: title}}},
	}
	body = append(body, sections...)
	return MSTeamsMessage{Type: "AdaptiveCard", Schema: "http://adaptivecards.io/schemas/adaptive-card.json", Version: "1.5",
		MsTeams: MSTeamsOptions{Width: "Full"}, Body: body,
		Actions: []MSTeamsAction{{Type: "Action.OpenUrl", Title: "View in Forgejo", URL: target}}, Style: teamsDefault}
}

// teamsBadgeRow is a badge followed by lines of reference information.
func teamsBadgeRow(text, icon, style string, info ...string) MSTeamsContainer {
	lines := []any{}
	for _, l := range info {
		lines = append(lines, MSTeamsTextBlock{Type: "TextBlock", Text: l, Size: "Small", IsSubtle: ptr(true), Spacing: "None"})
	}
	return MSTeamsContainer{Type: "Container", VerticalAlign: "Center", Items: []any{MSTeamsColumnSet{Type: "ColumnSet",
		Columns: []MSTeamsColumn{
			{Type: "Column", Width: "auto", Items: []any{MSTeamsBadge{Type: "Badge", Size: "Large", Icon: icon, Text: text, Style: style}}},
			{Type: "Column", Width: "stretch", Items: lines},
		}}}}
}

// teamsTextSection is a bordered section holding text.
func teamsTextSection(text string) MSTeamsContainer {
	return MSTeamsContainer{Type: "Container", Style: teamsEmphasis, ShowBorder: ptr(true),
		Items: []any{MSTeamsTextBlock{Type: "TextBlock", Text: text, Wrap: ptr(true)}}}
}

func (msteamsConverter) create(p *CreatePayload) (any, error) {
	ref := refShort(p.Ref)
	return teamsCard(p.Repo, p.Sender, fmt.Sprintf("%s created: %s", capitalise(p.RefType), ref), nil,
		p.Repo.HTMLURL+"/src/"+pathEscapeSegments(ref), teamsGood), nil
}

func (msteamsConverter) delete(p *DeletePayload) (any, error) {
	return teamsCard(p.Repo, p.Sender, fmt.Sprintf("%s deleted: %s", capitalise(p.RefType), refShort(p.Ref)), nil,
		p.Repo.HTMLURL, teamsAttention), nil
}

func (msteamsConverter) fork(p *ForkPayload) (any, error) {
	return teamsCard(p.Repo, p.Sender, fmt.Sprintf("%s is forked to %s", markdownLink(p.Forkee.HTMLURL, p.Forkee.FullName),
		p.Repo.FullName), nil, p.Repo.HTMLURL, teamsAccent), nil
}

// teamsShownCommits is how many commits a push card shows before "and n
// more".
const teamsShownCommits = 5

func (msteamsConverter) push(p *PushPayload) (any, error) {
	branch := refShort(p.Ref)
	title := fmt.Sprintf("[%s] %d new commits", branch, p.TotalCommits)
	if p.TotalCommits == 1 {
		title = fmt.Sprintf("[%s] 1 new commit", branch)
	}
	var shown, hidden []any
	for i, cm := range p.Commits {
		row := MSTeamsColumnSet{Type: "ColumnSet", Columns: []MSTeamsColumn{
			{Type: "Column", Width: "auto", Items: []any{MSTeamsTextBlock{Type: "TextBlock",
				Text: markdownLink(cm.URL, shortID(cm.ID, 8)), Size: "Small", FontType: "Monospace"}}},
			{Type: "Column", Width: "stretch", Items: []any{MSTeamsTextBlock{Type: "TextBlock",
				Text: strings.TrimRight(cm.Message, "\r\n"), Size: "Small", MaxLines: 3}}},
		}}
		if i < teamsShownCommits {
			shown = append(shown, row)
		} else {
			hidden = append(hidden, row)
		}
	}
	box := MSTeamsContainer{Type: "Container", Style: teamsEmphasis, ShowBorder: ptr(true), Items: shown}
	if len(hidden) > 0 {
		more := fmt.Sprintf("*and %d more commits*", len(hidden))
		if len(hidden) == 1 {
			more = "*and 1 more commit*"
		}
		toggle := func(text, icon string) MSTeamsColumnSet {
			return MSTeamsColumnSet{Type: "ColumnSet",
				SelectAction: &MSTeamsAction{Type: "Action.ToggleVisibility", TargetElements: []string{"showMore", "showLess", "hiddenCommits"}},
				Columns: []MSTeamsColumn{
					{Type: "Column", Items: []any{MSTeamsTextBlock{Type: "TextBlock", Text: text, Size: "Small"}}, Width: "auto"},
					{Type: "Column", Items: []any{MSTeamsIcon{Type: "Icon", Name: icon, Size: "xxSmall"}}, Width: "auto"},
				}}
		}
		box.Items = append(box.Items,
			MSTeamsContainer{Type: "Container", ID: "showMore", Items: []any{toggle(more, "ChevronDown")}},
			MSTeamsContainer{Type: "Container", ID: "hiddenCommits", Items: hidden, IsVisible: ptr(false)},
			MSTeamsContainer{Type: "Container", ID: "showLess", IsVisible: ptr(false), Items: []any{toggle("Collapse", "ChevronUp")}})
	}
	return teamsCard(p.Repo, p.Sender, title, []MSTeamsContainer{box}, pushTarget(p, branch), teamsDefault), nil
}

// teamsFacts are the labels, assignees and milestone of an issue or pull
// request, for the actions that show them.
func teamsFacts(i *issueView, action string, withRef bool) []MSTeamsFact {
	facts := []MSTeamsFact{}
	opened := action == "opened" || action == "reopened"
	if withRef && i.Ref != "" && opened {
		facts = append(facts, MSTeamsFact{Title: "Ref", Value: i.Ref})
	}
	if len(i.Labels) > 0 && (action == "label_updated" || action == "label_cleared" || opened) {
		names := make([]string, len(i.Labels))
		for k, l := range i.Labels {
			names[k] = l.Name
		}
		facts = append(facts, MSTeamsFact{Title: "Labels", Value: strings.Join(names, ", ")})
	}
	if len(i.Assignees) > 0 && (action == "assigned" || action == "unassigned" || opened) {
		names := make([]string, len(i.Assignees))
		for k, u := range i.Assignees {
			names[k] = "@" + u.UserName
		}
		facts = append(facts, MSTeamsFact{Title: "Assignee", Value: strings.Join(names, ", ")})
	}
	if i.Milestone != nil && (action == "milestoned" || opened) {
		facts = append(facts, MSTeamsFact{Title: "Milestone", Value: i.Milestone.Title})
	}
	return facts
}

func (msteamsConverter) issue(p *issueEvent) (any, error) {
	title, _, attach, _ := msteamsStyle.issueText(p, rootOf(p.Sender))
	style := teamsAttention
	if p.Action == "reopened" {
		style = teamsWarning
	} else if p.Issue.State == "open" {
		style = teamsGood
	}
	sections := []MSTeamsContainer{teamsBadgeRow(capitalise(p.Issue.State), "Target", style,
		fmt.Sprintf("%s#%d", p.Repository.FullName, p.Issue.Number))}
	if attach != "" {
		sections = append(sections, teamsTextSection(attach))
	}
	if facts := teamsFacts(p.Issue, p.Action, true); len(facts) > 0 {
		sections = append(sections, MSTeamsContainer{Type: "Container",
			Items: []any{MSTeamsFactSet{Type: "FactSet", Facts: facts, Separator: ptr(true)}}})
	}
	return teamsCard(p.Repository, p.Sender, title, sections, p.Issue.HTMLURL, teamsDefault), nil
}

func (msteamsConverter) comment(p *commentEvent) (any, error) {
	title, _, _ := msteamsStyle.commentText(p)
	style := teamsEmphasis
	switch p.Action {
	case "created":
		style = teamsGood
	case "deleted":
		style = teamsAttention
	}
	sections := []MSTeamsContainer{{Type: "Container", Style: style, ShowBorder: ptr(true), Items: []any{
		MSTeamsTextBlock{Type: "TextBlock", Text: "Comment", Size: "Small", Weight: "Bolder"},
		MSTeamsTextBlock{Type: "TextBlock", Text: p.Comment.Body, Wrap: ptr(true)},
	}}}
	return teamsCard(p.Repository, p.Sender, title, sections, p.Comment.HTMLURL, teamsDefault), nil
}

func (msteamsConverter) pull(p *issueEvent) (any, error) {
	title, _, attach, _ := msteamsStyle.pullText(p, rootOf(p.Sender))
	pr := p.Issue
	style, state, icon := teamsAttention, "Closed", "BranchRequest"
	switch {
	case p.Action == "reopened":
		style, state = teamsWarning, "Open"
	case pr.State == "open":
		style, state = teamsGood, "Open"
	case pr.Merged:
		style, state, icon = teamsAccent, "Merged", "Branch"
	}
	branches := ""
	head, base := "", ""
	if pr.Head != nil {
		head = pr.Head.Ref
	}
	if pr.Base != nil {
		base = pr.Base.Ref
	}
	switch {
	case head == "":
		branches = base
	case base == "":
		branches = head
	default:
		branches = head + " → " + base
	}
	sections := []MSTeamsContainer{teamsBadgeRow(state, icon, style, branches, fmt.Sprintf("%s#%d", p.Repository.FullName, pr.Number))}
	if attach != "" {
		sections = append(sections, teamsTextSection(attach))
	}
	sections = append(sections, MSTeamsContainer{Type: "Container",
		Items: []any{MSTeamsFactSet{Type: "FactSet", Facts: teamsFacts(pr, p.Action, false), Separator: ptr(true)}}})
	return teamsCard(p.Repository, p.Sender, title, sections, pr.HTMLURL, teamsDefault), nil
}

func (msteamsConverter) repository(p *RepositoryPayload) (any, error) {
	title, target, style := "", "", teamsEmphasis
	switch p.Action {
	case "created":
		title, target, style = "Repository created: "+p.Repository.FullName, p.Repository.HTMLURL, teamsGood
	case "deleted":
		title, style = "Repository deleted: "+p.Repository.FullName, teamsAttention
	}
	return teamsCard(p.Repository, p.Sender, title, nil, target, style), nil
}
