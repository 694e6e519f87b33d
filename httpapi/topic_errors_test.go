package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTopicErrorsAsForgejo is the conformance case of the topic routes'
// refusals. Expected answers are written from Forgejo's
// routers/api/v1/repo/topic.go: UpdateTopics counts the valid names first
// (more than 25: `invalidTopics` null, `Exceeding maximum number of topics
// per repo`), then lists the invalid ones (`Topic names are invalid`),
// after SanitizeAndValidateTopics trimmed and lower-cased them and dropped
// empty names; AddTopic and DeleteTopic write the one invalid name as a
// string (`Topic name is invalid`); DeleteTopic of a topic the repository
// lacks is 404; AddTopic on a repository with 25 topics is
// `Exceeding maximum allowed topics per repo.`.
func TestTopicErrorsAsForgejo(t *testing.T) {
	t.Parallel()
	e, tok := repoEnv(t, "")
	base := "/api/v1/repos/alice/proj/topics"
	put := func(topics ...string) resp {
		return e.do(req{method: "PUT", path: base, token: tok, body: map[string]any{"topics": topics}})
	}

	r := put("ok", "Bad Topic", " -dash", strings.Repeat("a", 36), "")
	e.expect(r, http.StatusUnprocessableEntity, "Topic names are invalid")
	assert.Equal(t, []any{"bad topic", "-dash", strings.Repeat("a", 36)}, r.json(t)["invalidTopics"])

	// An empty name is dropped, not refused; names are trimmed.
	e.expect(put("", "  Go  ", "go"), http.StatusNoContent, "")
	assert.Equal(t, map[string]any{"topics": []any{"go"}}, e.do(req{method: "GET", path: base}).json(t))

	many := make([]string, 26)
	for i := range many {
		many[i] = fmt.Sprintf("t%02d", i)
	}
	r = put(append(many, "bad topic")...)
	e.expect(r, http.StatusUnprocessableEntity, "Exceeding maximum number of topics per repo")
	v, ok := r.json(t)["invalidTopics"]
	assert.True(t, ok, "invalidTopics is present: %s", r.body)
	assert.Nil(t, v, "the length is checked before the names")

	for _, method := range []string{"PUT", "DELETE"} {
		r = e.do(req{method: method, path: base + "/Bad..Topic!", token: tok})
		e.expect(r, http.StatusUnprocessableEntity, "Topic name is invalid")
		assert.Equal(t, "bad..topic!", r.json(t)["invalidTopics"], "%s: the name, a string", method)
	}
	e.expect(e.do(req{method: "DELETE", path: base + "/absent", token: tok}), http.StatusNotFound, "")
	e.expect(e.do(req{method: "DELETE", path: base + "/GO", token: tok}), http.StatusNoContent, "")

	require.Equal(t, http.StatusNoContent, put(many[:25]...).StatusCode)
	e.expect(e.do(req{method: "PUT", path: base + "/another", token: tok}), http.StatusUnprocessableEntity,
		"Exceeding maximum allowed topics per repo.")
	e.expect(e.do(req{method: "PUT", path: base + "/t00", token: tok}), http.StatusUnprocessableEntity,
		"Exceeding maximum allowed topics per repo.")
}
