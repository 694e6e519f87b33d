package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// beforeSince reads the `before` and `since` query parameters as Forgejo's
// context.GetQueryBeforeSince: each is path-unescaped, trimmed and parsed
// as RFC 3339; empty (or the zero time) is no bound. An unparsable value
// answers 422 with Go's parse error, `before` checked first, and returns
// ok false.
func (c *call) beforeSince() (before, since time.Time, ok bool) {
	var err error
	if before, err = queryTime(c.r, "before"); err == nil {
		since, err = queryTime(c.r, "since")
	}
	if err != nil {
		c.errorStatus(http.StatusUnprocessableEntity, err.Error())
		return time.Time{}, time.Time{}, false
	}
	return before, since, true
}

// queryTime is one RFC 3339 query parameter; "" and the zero time are the
// zero time.
func queryTime(r *http.Request, name string) (time.Time, error) {
	v := r.FormValue(name)
	if u, err := url.PathUnescape(v); err == nil {
		v = u
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, err
	}
	return t, nil
}

// splitList splits a comma-separated query value as Forgejo's
// strings.Split(value, ","), except that an empty value is no list.
func splitList(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// errLabelKind and errLabelsMixed are Forgejo's 400s for an
// IssueLabelsOption whose labels are neither numbers nor strings, or both.
var (
	errLabelKind   = errors.New("a label must be an integer or a string")
	errLabelsMixed = errors.New("labels should be an array of strings or integers")
)

// labelRefs splits IssueLabelsOption.labels as Forgejo's
// prepareForReplaceOrAdd: JSON numbers are label ids (truncated to
// integers), strings are label names; anything else, or ids mixed with
// names, is an error for a 400.
func labelRefs(labels *[]any) (ids []forge.ID, names []string, err error) {
	if labels == nil {
		return nil, nil, nil
	}
	for _, l := range *labels {
		switch v := l.(type) {
		case float64:
			ids = append(ids, forge.ID(v))
		case string:
			names = append(names, v)
		default:
			return nil, nil, errLabelKind
		}
	}
	if len(ids) > 0 && len(names) > 0 {
		return nil, nil, errLabelsMixed
	}
	return ids, names, nil
}

// indexParam reads the `{index}` path parameter: anything but an integer
// is an issue that does not exist (404).
func (c *call) indexParam() (int64, bool) { return c.idParam("index") }
