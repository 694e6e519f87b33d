package hooks

import (
	"net/url"
	"strings"
)

// releaseEvent is a release payload as the converters read it.
type releaseEvent struct {
	Action  string `json:"action"`
	Release *struct {
		TagName string `json:"tag_name"`
		Body    string `json:"body"`
		HTMLURL string `json:"html_url"`
	} `json:"release"`
	Repository *PayloadRepo `json:"repository"`
	Sender     *PayloadUser `json:"sender"`
}

// releaseText is the line and colour of a release event (Forgejo's
// getReleasePayloadInfo).
func (st textStyle) releaseText(p *releaseEvent) (text string, color int) {
	segs := strings.Split(p.Release.TagName, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	ref := st.link(p.Repository.HTMLURL+"/releases/tag/"+strings.Join(segs, "/"), p.Release.TagName)
	switch p.Action {
	case ReleasePublished:
		text, color = "Release created: "+ref, colorGreen
	case ReleaseUpdated:
		text, color = "Release updated: "+ref, colorYellow
	case ReleaseDeleted:
		text, color = "Release deleted: "+ref, colorRed
	}
	return st.frame(text, p.Repository.FullName, p.Sender.UserName), color
}

// feishuStyle is feishu's text style for releases (Forgejo's plain links,
// with the repository and the sender).
var feishuStyle = textStyle{link: plainLink, name: plainName, sender: true, repoName: true}

func (c slackConverter) release(p *releaseEvent) (any, error) {
	text, _ := slackStyle.releaseText(p)
	return c.message(text, nil), nil
}

func (c discordConverter) release(p *releaseEvent) (any, error) {
	text, color := discordStyle.releaseText(p)
	return c.message(p.Sender, text, p.Release.Body, p.Release.HTMLURL, color), nil
}

func (c dingtalkConverter) release(p *releaseEvent) (any, error) {
	text, _ := dingtalkStyle.releaseText(p)
	return c.card(text, text, "view release", p.Release.HTMLURL), nil
}

func (telegramConverter) release(p *releaseEvent) (any, error) {
	text, _ := telegramStyle.releaseText(p)
	return telegramText(text), nil
}

func (msteamsConverter) release(p *releaseEvent) (any, error) {
	title, _ := msteamsStyle.releaseText(p)
	style := teamsGood
	switch p.Action {
	case ReleaseUpdated:
		style = teamsWarning
	case ReleaseDeleted:
		style = teamsAttention
	}
	return teamsCard(p.Repository, p.Sender, title, nil, p.Release.HTMLURL, style), nil
}

func (feishuConverter) release(p *releaseEvent) (any, error) {
	text, _ := feishuStyle.releaseText(p)
	return feishuText(text), nil
}

func (c matrixConverter) release(p *releaseEvent) (any, error) {
	text, _ := matrixStyle.releaseText(p)
	return c.message(text), nil
}

func (wechatworkConverter) release(p *releaseEvent) (any, error) {
	text, _ := wechatworkStyle.releaseText(p)
	return wechatworkMarkdown(text), nil
}

// decodeRelease reads a release payload for convert.
func decodeRelease(b []byte) (*releaseEvent, error) {
	var p releaseEvent
	err := decodeEvent(b, &p, func() bool { return p.Release != nil && p.Repository != nil && p.Sender != nil })
	if err != nil {
		return nil, err
	}
	return &p, nil
}
