package hooks

import (
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Hook is a webhook. System and default hooks have RepoID and OwnerID 0;
// IsSystem tells them apart (a system hook fires for every repository, a
// default hook never fires but is copied into each new repository).
// Repository hooks have RepoID, organisation and user hooks OwnerID.
type Hook struct {
	ID       forge.ID
	RepoID   forge.ID
	OwnerID  forge.ID
	IsSystem bool
	Type     Type
	URL      string
	// ContentType is how the payload is sent: json or form.
	ContentType ContentType
	// HTTPMethod is POST (the default) or GET, as Forgejo's http_method.
	HTTPMethod string
	// Secret signs deliveries (HMAC-SHA256). It is never returned by the
	// API.
	Secret string
	// Meta holds the type's own configuration (slack: channel, username,
	// icon_url, color). Never nil once stored.
	Meta map[string]string
	// Events are the event words subscribed to (see Events); never empty.
	Events              []string
	BranchFilter        string
	AuthorizationHeader string
	Active              bool
	Created, Updated    time.Time
}

// Kind is the owner kind of a hook.
type Kind int

// Owner kinds.
const (
	KindSystem Kind = iota + 1
	KindDefault
	KindRepo
	KindOwner // organisation or user
)

// Kind returns the hook's owner kind.
func (h *Hook) Kind() Kind {
	switch {
	case h.RepoID != 0:
		return KindRepo
	case h.OwnerID != 0:
		return KindOwner
	case h.IsSystem:
		return KindSystem
	}
	return KindDefault
}

// Clone returns a deep copy.
func (h *Hook) Clone() *Hook {
	c := *h
	c.Events = append([]string(nil), h.Events...)
	c.Meta = make(map[string]string, len(h.Meta))
	for k, v := range h.Meta {
		c.Meta[k] = v
	}
	return &c
}

// Task is one delivery of one event to one hook: the delivery log.
type Task struct {
	ID     forge.ID
	HookID forge.ID
	// UUID identifies the delivery (X-Forgejo-Delivery).
	UUID string
	// Event is the event's header value (push, issues, create…) and
	// EventType its sub-type (Forgejo's X-Forgejo-Event-Type).
	Event, EventType string
	// Payload is the JSON of the event.
	Payload []byte
	// Attempts counts the deliveries tried; Delivered is true when no
	// further attempt will be made (success or attempts exhausted).
	Attempts  int
	Delivered bool
	Succeeded bool
	// NextAttempt is when the worker tries it next.
	NextAttempt time.Time
	// ResponseStatus and ResponseBody are the last attempt's answer
	// (0 and the error text when no answer came).
	ResponseStatus int
	ResponseBody   string
	Created        time.Time
	DeliveredAt    time.Time
}
