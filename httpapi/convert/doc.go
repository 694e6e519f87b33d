// Package convert turns domain values into the wire types of Forgejo's API
// (httpapi/wire), as Forgejo's services/convert does: the one converter
// the API's answers and the webhook payloads share. Every function is pure:
// no query runs inside, the caller hands in the domain values, the root URL
// (ending in "/") and the few facts about the viewer a conversion needs
// (a user converter, the placeholder address of a hidden e-mail).
//
// The webhook payload envelopes (payload.go) are hand-written where
// Forgejo's OpenAPI document does not describe them; the objects they
// embed are the wire types.
package convert

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// Optional is conv(v) for a value that may be absent: nil when v is nil
// (JSON null), else a pointer to the conversion.
func Optional[V, W any](v *V, conv func(*V) W) *W {
	if v == nil {
		return nil
	}
	return ptr(conv(v))
}

// All is conv of each of list, in order: never nil, so that an empty list
// is [] in JSON (not null).
func All[V, W any](list []V, conv func(V) W) []W {
	out := make([]W, len(list))
	for i, v := range list {
		out[i] = conv(v)
	}
	return out
}
