package hooks

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MatrixMessage is the body of a matrix delivery (Forgejo's
// MatrixPayload): an m.room.message event.
type MatrixMessage struct {
	Body          string           `json:"body"`
	MsgType       string           `json:"msgtype"`
	Format        string           `json:"format"`
	FormattedBody string           `json:"formatted_body"`
	Commits       []*PayloadCommit `json:"io.gitea.commits,omitempty"`
}

// matrixPayloadLimit is the largest message sent (Forgejo's
// matrixPayloadSizeLimit).
const matrixPayloadLimit = 64 << 10

// matrixMsgTypes maps the meta's message_type to the event's msgtype.
var matrixMsgTypes = map[string]string{"1": "m.notice", "2": "m.text"}

var matrixStyle = textStyle{link: htmlLink, name: plainName, sender: true, repoName: true}

type matrixConverter struct{ msgType string }

// matrixRequest PUTs the message to the hook's URL (the room's
// /_matrix/client/v3/rooms/{room}/send/m.room.message) followed by a
// transaction id, the SHA-1 of the body, so that a retried delivery is
// not posted twice. The access token is the hook's Authorization header
// ("Bearer …"). Unlike the other types it carries no X-Forgejo-* header.
func matrixRequest(h *Hook, t *Task) (Request, error) {
	v, err := convert(matrixConverter{msgType: matrixMsgTypes[h.Meta["message_type"]]}, t)
	if err != nil {
		return Request{}, err
	}
	body, err := marshalIndent(v)
	if err != nil {
		return Request{}, err
	}
	if len(body) >= matrixPayloadLimit {
		return Request{}, forge.Errorf(forge.ErrInvalid, "hooks: matrix payload size %d > %d", len(body), matrixPayloadLimit)
	}
	sum := sha1.Sum(body)
	hdr := map[string]string{"Content-Type": "application/json", "User-Agent": "Hearth-Webhook"}
	if h.AuthorizationHeader != "" {
		hdr["Authorization"] = h.AuthorizationHeader
	}
	return Request{Method: "PUT", URL: h.URL + "/" + hex.EncodeToString(sum[:]), Header: hdr, Body: body}, nil
}

var matrixAnchor = regexp.MustCompile(`<a [^>]*?href="([^">]*?)">(.*?)</a>`)

func (c matrixConverter) message(text string, commits ...*PayloadCommit) MatrixMessage {
	body := strings.ReplaceAll(matrixAnchor.ReplaceAllString(text, "[$2]($1)"), "<br>", "\n")
	return MatrixMessage{Body: body, MsgType: c.msgType, Format: "org.matrix.custom.html", FormattedBody: text, Commits: commits}
}

// matrixRefLink links a reference: branches and tags by kind, anything
// else as a commit (Forgejo's MatrixLinkToRef).
func matrixRefLink(repoURL, ref string) string {
	kind, name := RefKind(ref)
	switch kind {
	case "branch":
		return htmlLink(repoURL+"/src/branch/"+pathEscapeSegments(name), name)
	case "tag":
		return htmlLink(repoURL+"/src/tag/"+pathEscapeSegments(name), name)
	}
	return htmlLink(repoURL+"/src/commit/"+pathEscapeSegments(name), name)
}

func (c matrixConverter) create(p *CreatePayload) (any, error) {
	return c.message(fmt.Sprintf("[%s:%s] %s created by %s", p.Repo.FullName, matrixRefLink(p.Repo.HTMLURL, p.Ref),
		p.RefType, p.Sender.UserName)), nil
}

func (c matrixConverter) delete(p *DeletePayload) (any, error) {
	return c.message(fmt.Sprintf("[%s:%s] %s deleted by %s", htmlLink(p.Repo.HTMLURL, p.Repo.FullName), refShort(p.Ref),
		p.RefType, p.Sender.UserName)), nil
}

func (c matrixConverter) fork(p *ForkPayload) (any, error) {
	return c.message(fmt.Sprintf("%s is forked to %s", htmlLink(p.Forkee.HTMLURL, p.Forkee.FullName),
		htmlLink(p.Repo.HTMLURL, p.Repo.FullName))), nil
}

func (c matrixConverter) push(p *PushPayload) (any, error) {
	desc := fmt.Sprintf("%d commits", p.TotalCommits)
	if p.TotalCommits == 1 {
		desc = "1 commit"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s pushed %s to %s:<br>", p.Repo.FullName, p.Pusher.UserName, desc, html.EscapeString(refShort(p.Ref)))
	for i, cm := range p.Commits {
		fmt.Fprintf(&b, "%s: %s - %s", htmlLink(cm.URL, shortID(cm.ID, 7)), cm.Message, commitAuthor(cm))
		if i < len(p.Commits)-1 {
			b.WriteString("<br>")
		}
	}
	return c.message(b.String(), p.Commits...), nil
}

func (c matrixConverter) issue(p *issueEvent) (any, error) {
	text, _, _, _ := matrixStyle.issueText(p, rootOf(p.Sender))
	return c.message(text), nil
}

func (c matrixConverter) comment(p *commentEvent) (any, error) {
	text, _, _ := matrixStyle.commentText(p)
	return c.message(text), nil
}

func (c matrixConverter) pull(p *issueEvent) (any, error) {
	text, _, _, _ := matrixStyle.pullText(p, rootOf(p.Sender))
	return c.message(text), nil
}

func (c matrixConverter) repository(p *RepositoryPayload) (any, error) {
	repo := htmlLink(p.Repository.HTMLURL, p.Repository.FullName)
	var text string
	switch p.Action {
	case "created":
		text = fmt.Sprintf("[%s] Repository created by %s", repo, p.Sender.UserName)
	case "deleted":
		text = fmt.Sprintf("[%s] Repository deleted by %s", repo, p.Sender.UserName)
	}
	return c.message(text), nil
}
