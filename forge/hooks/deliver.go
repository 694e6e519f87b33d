package hooks

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Sign returns the hex HMAC-SHA256 of body under secret (the value of
// X-Forgejo-Signature, X-Gitea-Signature and X-Gogs-Signature); "" without
// a secret.
func Sign(secret string, body []byte) string {
	if secret == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// signSHA1 is X-Hub-Signature's HMAC-SHA1.
func signSHA1(secret string, body []byte) string {
	m := hmac.New(sha1.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// BuildRequest is the HTTP request delivering t to a forgejo, gitea or
// gogs hook h (NewRequest builds every type's), as Forgejo's
// services/webhook/deliver.go: the payload as JSON or as the form field
// "payload", the delivery and event headers under the Forgejo, Gitea, Gogs
// and GitHub names, the signatures of the body sent when h has a secret,
// and h's Authorization header.
func BuildRequest(h *Hook, t *Task) Request {
	body := t.Payload
	ctype := "application/json"
	if h.ContentType == ContentForm {
		body = []byte("payload=" + url.QueryEscape(string(t.Payload)))
		ctype = "application/x-www-form-urlencoded"
	}
	hdr := map[string]string{"Content-Type": ctype, "User-Agent": "Hearth-Webhook"}
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
	method := h.HTTPMethod
	if method == "" {
		method = "POST"
	}
	r := Request{Method: method, URL: h.URL, Header: hdr, Body: body}
	if method == "GET" {
		u, err := url.Parse(h.URL)
		if err == nil {
			q := u.Query()
			q.Set("payload", string(t.Payload))
			u.RawQuery = q.Encode()
			r.URL = u.String()
		}
		r.Body = nil
	}
	return r
}

// Backoff is the wait before attempt n+1 after n failed attempts: base
// doubled n-1 times, at most max.
func Backoff(n int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

// DeliverDue delivers the tasks due now, at most Config.Concurrency at a
// time, each within Config.Timeout, and records each outcome: delivered on
// a 2xx answer, otherwise retried after Backoff until Config.MaxAttempts.
// It returns how many tasks it tried. forge.ErrPrecondition without a
// Sender.
func (s *Service) DeliverDue(ctx context.Context) (int, error) {
	if s.cfg.Sender == nil {
		return 0, forge.Errorf(forge.ErrPrecondition, "hooks: Config.Sender is required to deliver")
	}
	now := s.clock.Now()
	var due []*Task
	// Claim the due tasks: each gets its next attempt moved past this
	// attempt's time-out in the transaction that reads it, so another
	// worker (another server on the same database) does not take it
	// meanwhile. A worker that stops before recording the outcome leaves
	// the task due again once the claim ends: delivery is at least once.
	claim := now.Add(2*s.cfg.Timeout + time.Minute)
	if err := s.store.Update(ctx, func(tx Tx) error {
		var err error
		if due, err = tx.DueTasks(ctx, now, 4*s.cfg.Concurrency); err != nil {
			return err
		}
		for _, t := range due {
			c := *t
			c.NextAttempt = claim
			if err := tx.UpdateTask(ctx, &c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return 0, err
	}
	sem := make(chan struct{}, s.cfg.Concurrency)
	var wg sync.WaitGroup
	for _, t := range due {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.deliver(ctx, t)
		}()
	}
	wg.Wait()
	return len(due), ctx.Err()
}

// deliver tries one task once and records the outcome.
func (s *Service) deliver(ctx context.Context, t *Task) {
	var h *Hook
	if err := s.store.View(ctx, func(tx Tx) error {
		var err error
		h, err = tx.Hook(ctx, t.HookID)
		return err
	}); err != nil {
		return // the hook was deleted with its tasks, or ctx ended
	}
	var req Request
	var err error
	if h.Type == TypeSourcehutBuilds {
		req, err = s.sourcehutRequest(ctx, h, t)
	} else {
		req, err = NewRequest(h, t)
	}
	if err != nil {
		// The payload cannot be converted for this type: no attempt would
		// do better, so the task is given up at once.
		t.Attempts++
		t.Delivered, t.DeliveredAt, t.ResponseStatus, t.ResponseBody = true, s.clock.Now(), 0, err.Error()
		s.log.Info("webhook request not built", "hook", h.ID, "task", t.ID, "err", err)
		if err := s.store.Update(ctx, func(tx Tx) error { return tx.UpdateTask(ctx, t) }); err != nil {
			s.log.Info("webhook task not recorded", "task", t.ID, "err", err)
		}
		return
	}
	actx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	resp, err := s.cfg.Sender.Send(actx, req)
	cancel()
	if ctx.Err() != nil {
		return // shutting down: the attempt does not count
	}
	now := s.clock.Now()
	t.Attempts++
	t.ResponseStatus, t.ResponseBody = resp.Status, resp.Body
	ok := err == nil && resp.Status >= 200 && resp.Status < 300
	if err != nil {
		t.ResponseBody = err.Error()
		s.log.Info("webhook delivery failed", "hook", h.ID, "task", t.ID, "err", err)
	}
	switch {
	case ok:
		t.Delivered, t.Succeeded, t.DeliveredAt = true, true, now
	case t.Attempts >= s.cfg.MaxAttempts:
		t.Delivered, t.DeliveredAt = true, now
	default:
		t.NextAttempt = now.Add(Backoff(t.Attempts, s.cfg.Backoff, s.cfg.MaxBackoff))
	}
	if err := s.store.Update(ctx, func(tx Tx) error { return tx.UpdateTask(ctx, t) }); err != nil {
		s.log.Info("webhook task not recorded", "task", t.ID, "err", err)
	}
}

// Run delivers tasks until ctx ends: whenever an event is queued, and
// every Config.PollInterval. Workers on several servers sharing the
// database claim different tasks (see DeliverDue). It returns nil when ctx ends, and
// forge.ErrPrecondition without a Sender.
func (s *Service) Run(ctx context.Context) error {
	if s.cfg.Sender == nil {
		return forge.Errorf(forge.ErrPrecondition, "hooks: Config.Sender is required to deliver")
	}
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		// A full batch may leave more due tasks: take them at once.
		for {
			n, err := s.DeliverDue(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Info("webhook worker", "err", err)
			}
			if err != nil || n < 4*s.cfg.Concurrency {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-tick.C:
		}
	}
}

// signal wakes Run.
func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// newUUID returns a random version-4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
