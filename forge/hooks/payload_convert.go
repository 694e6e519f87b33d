package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/hearthforge/hearth/forge"
)

// The hook types other than forgejo, gitea and gogs receive a message in
// their own format, built when the task is delivered from the task's
// Forgejo payload and the hook's Meta, as Forgejo's
// services/webhook/<type>.go do (payload version 2: the delivery log keeps
// the Forgejo payload, the receiver gets the converted one).

// Deliverable reports whether Hearth delivers hooks of type t: every
// valid type (sourcehut_builds reads its build manifest through
// Config.Files when the task is delivered: Service.sourcehutRequest).
func Deliverable(t Type) bool { return t.Valid() }

// NewRequest is the HTTP request delivering t to h: BuildRequest for the
// native types, the type's own message otherwise. forge.ErrInvalid for an
// event the type does not convert, a payload that does not decode, or a
// type Hearth does not deliver.
func NewRequest(h *Hook, t *Task) (Request, error) {
	switch h.Type {
	case TypeForgejo, TypeGitea, TypeGogs:
		return BuildRequest(h, t), nil
	case TypeSlack:
		return chatRequest(h, t, slackConverter(h.Meta))
	case TypeDiscord:
		return chatRequest(h, t, discordConverter(h.Meta))
	case TypeDingtalk:
		return chatRequest(h, t, dingtalkConverter{})
	case TypeTelegram:
		return telegramRequest(h, t)
	case TypeMSTeams:
		return chatRequest(h, t, msteamsConverter{})
	case TypeFeishu:
		return chatRequest(h, t, feishuConverter{})
	case TypeMatrix:
		return matrixRequest(h, t)
	case TypeWechatwork:
		return chatRequest(h, t, wechatworkConverter{})
	case TypePackagist:
		return packagistRequest(h, t)
	}
	return Request{}, forge.Errorf(forge.ErrInvalid, "hooks: %s hooks are not delivered", h.Type)
}

// converter turns the events Hearth queues into one type's message.
type converter interface {
	push(p *PushPayload) (any, error)
	create(p *CreatePayload) (any, error)
	delete(p *DeletePayload) (any, error)
	fork(p *ForkPayload) (any, error)
	repository(p *RepositoryPayload) (any, error)
	issue(p *issueEvent) (any, error)
	comment(p *commentEvent) (any, error)
	pull(p *issueEvent) (any, error)
	release(p *releaseEvent) (any, error)
}

// issueView is the issue or pull request object of a payload as the
// converters read it (the fields of Forgejo's api.Issue and
// api.PullRequest they use).
type issueView struct {
	ID        int64          `json:"id"`
	Number    int64          `json:"number"`
	Title     string         `json:"title"`
	Body      string         `json:"body"`
	State     string         `json:"state"`
	HTMLURL   string         `json:"html_url"`
	User      *PayloadUser   `json:"user"`
	Assignees []*PayloadUser `json:"assignees"`
	Labels    []struct {
		Name string `json:"name"`
	} `json:"labels"`
	Milestone *struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	} `json:"milestone"`
	Merged bool   `json:"merged"`
	Ref    string `json:"ref"`
	Head   *struct {
		Ref string `json:"ref"`
	} `json:"head"`
	Base *struct {
		Ref string `json:"ref"`
	} `json:"base"`
}

// issueEvent is an issues or pull_request payload. Hearth's pull request
// events carry the pull request as "issue"; Forgejo's as "pull_request":
// decode accepts both, Issue is always set.
type issueEvent struct {
	Action      string       `json:"action"`
	Number      int64        `json:"number"`
	Issue       *issueView   `json:"issue"`
	PullRequest *issueView   `json:"pull_request"`
	Repository  *PayloadRepo `json:"repository"`
	Sender      *PayloadUser `json:"sender"`
	// Review is the review of a review event (action "reviewed").
	Review *PayloadReview `json:"review"`
}

// commentEvent is an issue_comment payload.
type commentEvent struct {
	Action  string     `json:"action"`
	Issue   *issueView `json:"issue"`
	Comment *struct {
		ID      int64        `json:"id"`
		HTMLURL string       `json:"html_url"`
		Body    string       `json:"body"`
		User    *PayloadUser `json:"user"`
	} `json:"comment"`
	Repository *PayloadRepo `json:"repository"`
	Sender     *PayloadUser `json:"sender"`
	IsPull     bool         `json:"is_pull"`
}

// convert decodes t's payload by its event type and converts it with c,
// as Forgejo's shared.NewPayload.
func convert(c converter, t *Task) (any, error) {
	ev := t.EventType
	if ev == "" {
		ev = t.Event
	}
	bad := func(err error) (any, error) {
		return nil, forge.Errorf(forge.ErrInvalid, "hooks: %s payload: %v", ev, err)
	}
	switch ev {
	case "push":
		var p PushPayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil && p.Sender != nil && p.Pusher != nil }); err != nil {
			return bad(err)
		}
		return c.push(&p)
	case "create":
		var p CreatePayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil && p.Sender != nil }); err != nil {
			return bad(err)
		}
		return c.create(&p)
	case "delete":
		var p DeletePayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil && p.Sender != nil }); err != nil {
			return bad(err)
		}
		return c.delete(&p)
	case "fork":
		var p ForkPayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repo != nil && p.Forkee != nil && p.Sender != nil }); err != nil {
			return bad(err)
		}
		return c.fork(&p)
	case "repository":
		var p RepositoryPayload
		if err := decodeEvent(t.Payload, &p, func() bool { return p.Repository != nil && p.Sender != nil }); err != nil {
			return bad(err)
		}
		return c.repository(&p)
	case "issues", "issue_assign", "issue_label", "issue_milestone",
		"pull_request", "pull_request_assign", "pull_request_label", "pull_request_milestone",
		"pull_request_sync", "pull_request_review_request",
		ReviewApproved, ReviewRejected, ReviewComment:
		var p issueEvent
		if err := decodeEvent(t.Payload, &p, func() bool {
			if p.Issue == nil {
				p.Issue = p.PullRequest
			}
			return p.Issue != nil && p.Repository != nil && p.Sender != nil
		}); err != nil {
			return bad(err)
		}
		if p.Issue.User == nil {
			p.Issue.User = &PayloadUser{}
		}
		if strings.HasPrefix(ev, "pull_request") {
			return c.pull(&p)
		}
		return c.issue(&p)
	case "release":
		p, err := decodeRelease(t.Payload)
		if err != nil {
			return bad(err)
		}
		return c.release(p)
	case "issue_comment", "pull_request_comment":
		var p commentEvent
		if err := decodeEvent(t.Payload, &p, func() bool {
			return p.Issue != nil && p.Comment != nil && p.Repository != nil && p.Sender != nil
		}); err != nil {
			return bad(err)
		}
		if p.Issue.User == nil {
			p.Issue.User = &PayloadUser{}
		}
		return c.comment(&p)
	}
	return nil, forge.Errorf(forge.ErrInvalid, "hooks: unsupported event: %s", ev)
}

// decodeEvent unmarshals a payload and checks the objects the converters
// need are there.
func decodeEvent(b []byte, v any, complete func() bool) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	if !complete() {
		return fmt.Errorf("incomplete payload")
	}
	return nil
}

// marshalIndent is the body of a converted message: indented by two
// spaces, as Forgejo's json.MarshalIndent(payload, "", "  ").
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// chatRequest converts t with c and sends it as JSON to h.URL with the
// delivery headers of BuildRequest, as Forgejo's shared.NewJSONRequest.
func chatRequest(h *Hook, t *Task, c converter) (Request, error) {
	v, err := convert(c, t)
	if err != nil {
		return Request{}, err
	}
	return jsonRequest(h, t, v, h.URL)
}

// jsonRequest POSTs v as indented JSON to target with the delivery
// headers. The method is always POST, whatever the hook's http_method:
// Forgejo creates every hook of these types with POST.
func jsonRequest(h *Hook, t *Task, v any, target string) (Request, error) {
	body, err := marshalIndent(v)
	if err != nil {
		return Request{}, err
	}
	hdr := deliveryHeaders(h, t, body)
	hdr["Content-Type"] = "application/json"
	return Request{Method: "POST", URL: target, Header: hdr, Body: body}, nil
}

// deliveryHeaders are the headers every delivery but matrix carries: the
// delivery id and event under the Forgejo, Gitea, Gogs and GitHub names,
// the signatures when h has a secret, and h's Authorization header.
func deliveryHeaders(h *Hook, t *Task, body []byte) map[string]string {
	hdr := map[string]string{"User-Agent": "Hearth-Webhook"}
	for _, p := range []string{"X-Forgejo-", "X-Gitea-", "X-Gogs-", "X-GitHub-"} {
		hdr[p+"Delivery"] = t.UUID
		hdr[p+"Event"] = t.Event
		hdr[p+"Event-Type"] = t.EventType
	}
	if h.Secret != "" {
		sig := Sign(h.Secret, body)
		hdr["X-Forgejo-Signature"] = sig
		hdr["X-Gitea-Signature"] = sig
		hdr["X-Gogs-Signature"] = sig
		hdr["X-Hub-Signature-256"] = "sha256=" + sig
		hdr["X-Hub-Signature"] = "sha1=" + signSHA1(h.Secret, body)
	}
	if h.AuthorizationHeader != "" {
		hdr["Authorization"] = h.AuthorizationHeader
	}
	return hdr
}

// Colours of the chat messages (Forgejo's discord.go values).
const (
	colorGreen       = 0x1ac600
	colorGreenLight  = 0xbfe5bf
	colorYellow      = 0xffd930
	colorGrey        = 0x4f545c
	colorPurple      = 0x7289da
	colorOrange      = 0xeb6420
	colorOrangeLight = 0xe68d60
	colorRed         = 0xff3232
)

// textStyle is how a type writes links and names in the common texts
// (Forgejo's webhookPayloadFormatter).
type textStyle struct {
	link     func(url, text string) string
	name     func(name string) string
	sender   bool // append " by <sender>"
	repoName bool // prefix "[owner/repo] "
}

func plainLink(_, text string) string { return text }

func plainName(name string) string { return name }

// htmlLink is an HTML anchor, url and text escaped.
func htmlLink(u, text string) string {
	return fmt.Sprintf(`<a href="%s">%s</a>`, html.EscapeString(u), html.EscapeString(text))
}

func (st textStyle) frame(text, repo, sender string) string {
	if st.repoName {
		text = "[" + repo + "] " + text
	}
	if st.sender {
		text += " by " + st.name(sender)
	}
	return text
}

// issueText is the line, title, attachment and colour of an issues event.
func (st textStyle) issueText(p *issueEvent, rootURL string) (text, title, attach string, color int) {
	title = fmt.Sprintf("#%d %s", p.Number, p.Issue.Title)
	link := st.link(fmt.Sprintf("%s/issues/%d", p.Repository.HTMLURL, p.Number), title)
	color = colorYellow
	switch p.Action {
	case "opened":
		text, color = "Issue opened: "+link, colorOrange
	case "closed":
		text, color = "Issue closed: "+link, colorRed
	case "reopened":
		text = "Issue re-opened: " + link
	case "edited":
		text = "Issue edited: " + link
	case "assigned":
		names := make([]string, len(p.Issue.Assignees))
		for i, u := range p.Issue.Assignees {
			names[i] = st.link(rootURL+url.PathEscape(u.UserName), u.UserName)
		}
		text, color = fmt.Sprintf("Issue assigned to %s: %s", strings.Join(names, ", "), link), colorGreen
	case "unassigned":
		text = "Issue unassigned: " + link
	case "label_updated":
		text = "Issue labels updated: " + link
	case "label_cleared":
		text = "Issue labels cleared: " + link
	case "synchronized":
		text = "Issue synchronized: " + link
	case "milestoned":
		text = fmt.Sprintf("Issue milestoned to %s: %s", milestoneTitle(p.Issue), link)
	case "demilestoned":
		text = "Issue milestone cleared: " + link
	}
	text = st.frame(text, p.Repository.FullName, p.Sender.UserName)
	if p.Action == "opened" || p.Action == "edited" {
		attach = p.Issue.Body
	}
	return text, title, attach, color
}

// pullText is the line, title, attachment and colour of a pull_request
// event.
func (st textStyle) pullText(p *issueEvent, rootURL string) (text, title, attach string, color int) {
	pr := p.Issue
	title = fmt.Sprintf("#%d %s", p.Number, pr.Title)
	link := st.link(pr.HTMLURL, title)
	color = colorYellow
	switch p.Action {
	case "opened":
		text, attach, color = "Pull request opened: "+link, pr.Body, colorGreen
	case "closed":
		if pr.Merged {
			text, color = "Pull request merged: "+link, colorPurple
		} else {
			text, color = "Pull request closed: "+link, colorRed
		}
	case "reopened":
		text = "Pull request re-opened: " + link
	case "edited":
		text, attach = "Pull request edited: "+link, pr.Body
	case "assigned":
		names := make([]string, len(pr.Assignees))
		for i, u := range pr.Assignees {
			names[i] = st.link(rootURL+u.UserName, u.UserName)
		}
		text, color = fmt.Sprintf("Pull request assigned to %s: %s", strings.Join(names, ", "), link), colorGreen
	case "unassigned":
		text = "Pull request unassigned: " + link
	case "label_updated":
		text = "Pull request labels updated: " + link
	case "label_cleared":
		text = "Pull request labels cleared: " + link
	case "synchronized":
		text = "Pull request synchronized: " + link
	case "milestoned":
		text = fmt.Sprintf("Pull request milestoned to %s: %s", milestoneTitle(pr), link)
	case "demilestoned":
		text = "Pull request milestone cleared: " + link
	case "review_requested":
		text = "Pull request review requested: " + link
	case "review_request_removed":
		text = "Pull request review request removed: " + link
	case ActionReviewed: // Forgejo's parseHookPullRequestEventType and colours
		kind, typ := "comment", ""
		if p.Review != nil {
			typ, attach = p.Review.Type, p.Review.Content
		}
		switch typ {
		case ReviewApproved:
			kind, color = "approved", colorGreen
		case ReviewRejected:
			kind, color = "requested changes", colorRed
		default:
			color = colorGrey
		}
		text = "Pull request review " + kind + ": " + link
	}
	text = st.frame(text, p.Repository.FullName, p.Sender.UserName)
	return text, title, attach, color
}

// commentText is the line, title and colour of an issue_comment event.
func (st textStyle) commentText(p *commentEvent) (text, title string, color int) {
	title = fmt.Sprintf("#%d %s", p.Issue.Number, p.Issue.Title)
	kind := "issue"
	if p.IsPull {
		kind = "pull request"
	}
	link := st.link(p.Issue.HTMLURL, title)
	color = colorYellow
	switch p.Action {
	case "created":
		text = fmt.Sprintf("New comment on %s %s", kind, link)
		color = colorOrangeLight
		if p.IsPull {
			color = colorGreenLight
		}
	case "edited":
		text = fmt.Sprintf("Comment edited on %s %s", kind, link)
	case "deleted":
		text, color = fmt.Sprintf("Comment deleted on %s %s", kind, link), colorRed
	}
	return st.frame(text, p.Repository.FullName, p.Sender.UserName), title, color
}

func milestoneTitle(i *issueView) string {
	if i.Milestone == nil {
		return ""
	}
	return i.Milestone.Title
}

// rootOf is the forge's root URL as a payload shows it: the sender's
// html_url without its name.
func rootOf(u *PayloadUser) string {
	if u == nil {
		return ""
	}
	return strings.TrimSuffix(u.HTMLURL, u.UserName)
}

// refShort is the short name of a reference (git.RefName.ShortName for
// branches and tags; other names as they are).
func refShort(ref string) string {
	_, name := RefKind(ref)
	return name
}

// refURL is the page of ref in the repository at repoURL (Forgejo's
// git.RefURL): branches and tags by kind, a full commit id as a commit,
// any other name as a branch.
func refURL(repoURL, ref string) string {
	kind, name := RefKind(ref)
	esc := pathEscapeSegments(name)
	switch {
	case kind == "branch":
		return repoURL + "/src/branch/" + esc
	case kind == "tag":
		return repoURL + "/src/tag/" + esc
	case len(ref) == 40 && isHex(ref):
		return repoURL + "/src/commit/" + esc
	}
	return repoURL + "/src/branch/" + esc
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// pathEscapeSegments escapes each "/"-separated segment of p.
func pathEscapeSegments(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// shortID is the first n characters of a commit id.
func shortID(id string, n int) string {
	if len(id) < n {
		return id
	}
	return id[:n]
}

// commitsDesc is "1 new commit" or "<n> new commits".
func commitsDesc(n int) string {
	if n == 1 {
		return "1 new commit"
	}
	return fmt.Sprintf("%d new commits", n)
}

// pushTarget is the page a push message links to: the one commit, or the
// comparison, or else the branch's tree (the dingtalk, discord and msteams
// rule).
func pushTarget(p *PushPayload, branch string) string {
	target := p.CompareURL
	if p.TotalCommits == 1 && len(p.Commits) > 0 {
		target = p.Commits[0].URL
	} else if p.TotalCommits == 1 {
		target = ""
	}
	if target == "" {
		target = p.Repo.HTMLURL + "/src/" + pathEscapeSegments(branch)
	}
	return target
}

// truncateRunes keeps at most limit runes of s, ending a cut string with
// "…" (Forgejo's base.TruncateString).
func truncateRunes(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	if limit < 1 {
		return ""
	}
	return string(r[:limit-1]) + "…"
}

// capitalise upper-cases the first letter of s and lower-cases the rest.
func capitalise(s string) string {
	s = strings.ToLower(s)
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return strings.ToUpper(string(r)) + s[n:]
}

// commitAuthor is a commit's author name ("" without one).
func commitAuthor(c *PayloadCommit) string {
	if c.Author == nil {
		return ""
	}
	return c.Author.Name
}
