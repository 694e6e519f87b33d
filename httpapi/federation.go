package httpapi

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"hash"
	"net/http"
	"strconv"
	"strings"

	"github.com/42wim/httpsig"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/federation"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// activityStreamsContentType is the Content-Type of the ActivityPub
// documents (Forgejo's activitypub.ActivityStreamsContentType).
const activityStreamsContentType = `application/ld+json; profile="https://www.w3.org/ns/activitystreams"`

// federationErr maps the federation service's errors: a refused signature
// is 400 (Forgejo's ReqHTTPSignature), an activity Hearth does not act on
// yet 501.
func federationErr(c *call, err error) {
	c.writeError(err, on(federation.ErrSignature, http.StatusBadRequest), on(federation.ErrNotProcessed, http.StatusNotImplemented))
}

// writeActivity answers v as an ActivityStreams document.
func (c *call) writeActivity(v any, err error) {
	if err != nil {
		federationErr(c, err)
		return
	}
	var buf bytes.Buffer
	if err := encodeAnswer(&buf, v); err != nil {
		c.serverError(err)
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", activityStreamsContentType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	c.w.WriteHeader(http.StatusOK)
	c.wrote = true
	c.w.Write(buf.Bytes())
}

// getNodeInfo is GET /nodeinfo: NodeInfo 2.1 as Forgejo's misc.NodeInfo
// writes it (software "forgejo", the name federated servers know the API
// by; protocol activitypub; outbound service rss2.0; zero counts left
// out, as its omitempty fields).
func (a *API) getNodeInfo(c *call) {
	info, err := a.cfg.Federation.NodeInfo(c.r.Context(), c.actor)
	if err != nil {
		federationErr(c, err)
		return
	}
	out := wire.NodeInfo{
		Version: "2.1",
		Software: wire.NodeInfoSoftware{Name: "forgejo", Version: info.SoftwareVersion,
			Repository: "https://codeberg.org/forgejo/forgejo.git", Homepage: "https://forgejo.org/"},
		Protocols:         []string{"activitypub"},
		Services:          wire.NodeInfoServices{Inbound: []string{}, Outbound: []string{"rss2.0"}},
		OpenRegistrations: info.OpenRegistrations,
		Metadata:          map[string]any{},
	}
	if u := info.Usage; u != nil {
		out.Usage = wire.NodeInfoUsage{LocalPosts: nonZero(u.Issues), LocalComments: nonZero(u.Comments),
			Users: wire.NodeInfoUsageUsers{Total: nonZero(u.Users), ActiveMonth: nonZero(u.ActiveMonth), ActiveHalfyear: nonZero(u.ActiveHalfyear)}}
	}
	c.json(http.StatusOK, out)
}

// nonZero is n, or nil for 0 (Forgejo's omitempty counts).
func nonZero(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}

// getInstanceActor is GET /activitypub/actor, fetchable without a
// signature.
func (a *API) getInstanceActor(c *call) {
	doc, err := a.cfg.Federation.InstanceActor(c.r.Context(), c.actor, c.rootURL())
	c.writeActivity(doc, err)
}

// postInstanceInbox is POST /activitypub/actor/inbox: 204 once signed.
func (a *API) postInstanceInbox(c *call) {
	sig, ok := c.signature()
	if !ok {
		return
	}
	if err := a.cfg.Federation.InstanceInbox(c.r.Context(), c.actor, sig); err != nil {
		federationErr(c, err)
		return
	}
	c.noContent()
}

// postInstanceOutbox is POST /activitypub/actor/outbox.
func (a *API) postInstanceOutbox(c *call) {
	sig, ok := c.signature()
	if !ok {
		return
	}
	c.writeActivity(a.cfg.Federation.InstanceOutbox(c.r.Context(), c.actor, c.rootURL(), sig))
}

// getPerson is GET /activitypub/user-id/{user-id}.
func (a *API) getPerson(c *call) {
	id, sig, ok := c.signedID("user-id")
	if !ok {
		return
	}
	c.writeActivity(a.cfg.Federation.Person(c.r.Context(), c.actor, c.rootURL(), sig, id))
}

// getPersonOutbox is GET /activitypub/user-id/{user-id}/outbox.
func (a *API) getPersonOutbox(c *call) {
	id, sig, ok := c.signedID("user-id")
	if !ok {
		return
	}
	c.writeActivity(a.cfg.Federation.PersonOutbox(c.r.Context(), c.actor, c.rootURL(), sig, id))
}

// getPersonActivity is GET /activitypub/user-id/{user-id}/activities/{activity-id}
// and …/activity.
func (a *API) getPersonActivity(op string) func(*call) {
	return func(c *call) {
		activity, ok := c.idParam("activity-id")
		if !ok {
			return
		}
		id, sig, ok := c.signedID("user-id")
		if !ok {
			return
		}
		federationErr(c, a.cfg.Federation.PersonActivity(c.r.Context(), c.actor, sig, op, id, activity))
	}
}

// postPersonInbox is POST /activitypub/user-id/{user-id}/inbox.
func (a *API) postPersonInbox(c *call) {
	id, sig, ok := c.signedID("user-id")
	if !ok {
		return
	}
	err := a.cfg.Federation.PersonInbox(c.r.Context(), c.actor, sig, id, sig.body)
	if err != nil {
		federationErr(c, err)
		return
	}
	c.empty(http.StatusAccepted)
}

// getRepositoryActor is GET /activitypub/repository-id/{repository-id}.
func (a *API) getRepositoryActor(c *call) {
	id, sig, ok := c.signedID("repository-id")
	if !ok {
		return
	}
	c.writeActivity(a.cfg.Federation.Repository(c.r.Context(), c.actor, c.rootURL(), sig, id))
}

// postRepositoryInbox is POST /activitypub/repository-id/{repository-id}/inbox.
func (a *API) postRepositoryInbox(c *call) {
	id, sig, ok := c.signedID("repository-id")
	if !ok {
		return
	}
	if err := a.cfg.Federation.RepositoryInbox(c.r.Context(), c.actor, sig, id, sig.body); err != nil {
		federationErr(c, err)
		return
	}
	c.noContent()
}

// postRepositoryOutbox is POST /activitypub/repository-id/{repository-id}/outbox.
func (a *API) postRepositoryOutbox(c *call) {
	id, sig, ok := c.signedID("repository-id")
	if !ok {
		return
	}
	c.writeActivity(a.cfg.Federation.RepositoryOutbox(c.r.Context(), c.actor, c.rootURL(), sig, id))
}

// signedID reads the path's id param (404 when it is no number) and the
// request's signature.
func (c *call) signedID(param string) (forge.ID, *signedRequest, bool) {
	id, ok := c.idParam(param)
	if !ok {
		return 0, nil, false
	}
	sig, ok := c.signature()
	return id, sig, ok
}

// signedRequest is a request's draft-cavage HTTP signature as the
// federation service checks it (federation.Signed), with the body read.
// verifier is nil when the request carries no well-formed signature:
// every check then fails.
type signedRequest struct {
	verifier httpsig.Verifier
	// bodyOK: the request has no body, or its Digest header is signed
	// and matches the body.
	bodyOK bool
	body   []byte
}

// signatureAlgorithm is the algorithm signatures are checked with
// (Forgejo's [federation] SIGNATURE_ALGORITHMS, first entry).
const signatureAlgorithm = httpsig.RSA_SHA256

func (s *signedRequest) KeyID() string {
	if s.verifier == nil {
		return ""
	}
	return s.verifier.KeyId()
}

func (s *signedRequest) Verify(key crypto.PublicKey) error {
	if s.verifier == nil || !s.bodyOK {
		return errNoSignature
	}
	return s.verifier.Verify(key, signatureAlgorithm)
}

var errNoSignature = errors.New("no valid signature")

// signature reads the request body and its signature. A request with a
// body must sign a Digest header (SHA-256 or SHA-512) that matches the
// body, so that a signature made for other content fails; Forgejo's
// verifier checks only the signed headers. It answers the request itself
// and returns false when the body cannot be read.
func (c *call) signature() (*signedRequest, bool) {
	body, ok := c.readBody()
	if !ok {
		return nil, false
	}
	s := &signedRequest{body: body}
	v, err := httpsig.NewVerifier(c.r)
	if err != nil {
		return s, true
	}
	s.verifier = v
	s.bodyOK = len(body) == 0 || (signsHeader(c.r, "digest") && digestMatches(c.r.Header.Get("Digest"), body))
	return s, true
}

// signsHeader reports whether the request's Signature (or Authorization
// Signature) lists name among its signed headers.
func signsHeader(r *http.Request, name string) bool {
	sig := r.Header.Get("Signature")
	if sig == "" {
		sig = strings.TrimPrefix(r.Header.Get("Authorization"), "Signature ")
	}
	for _, part := range strings.Split(sig, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok && k == "headers" {
			for _, h := range strings.Fields(strings.Trim(v, `"`)) {
				if strings.EqualFold(h, name) {
					return true
				}
			}
		}
	}
	return false
}

// digestMatches reports whether an RFC 3230 Digest header value holds the
// SHA-256 or SHA-512 digest of body.
func digestMatches(header string, body []byte) bool {
	for _, d := range strings.Split(header, ",") {
		alg, want, ok := strings.Cut(strings.TrimSpace(d), "=")
		if !ok {
			continue
		}
		var h hash.Hash
		switch strings.ToUpper(alg) {
		case "SHA-256":
			h = sha256.New()
		case "SHA-512":
			h = sha512.New()
		default:
			continue
		}
		h.Write(body)
		got := base64.StdEncoding.EncodeToString(h.Sum(nil))
		if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
			return true
		}
	}
	return false
}
