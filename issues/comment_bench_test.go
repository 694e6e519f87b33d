package issues_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/issues"
)

// maxBody is the largest comment body the API accepts: a request of
// httpapi.DefaultMaxBodyBytes (1 MiB) less `{"body":""}`.
const maxBody = 1<<20 - len(`{"body":""}`)

// BenchmarkCreateCommentMaximalBody creates comments whose bodies are as
// large as the API accepts, through the service on memstore: the same
// references repeated (`#1 x/y#1`, the body of the report: every one
// read, two acted on), distinct references (the first DefaultMaxTextRefs acted
// on, each an existing issue: a reference comment written in each),
// the same mention repeated, and distinct mentions of existing users (the
// first DefaultMaxTextMentions looked up and recorded).
func BenchmarkCreateCommentMaximalBody(b *testing.B) {
	e := newEnv(b)
	ann := e.user("ann")
	e.repo(ann, "proj", false)
	for i := 1; i <= issues.DefaultMaxTextRefs+10; i++ {
		e.issue(ann, "ann", "proj", fmt.Sprintf("issue %d", i))
	}
	target := e.issue(ann, "ann", "proj", "the commented one").Issue.Index
	for i := 0; i < issues.DefaultMaxTextMentions+10; i++ {
		e.user(fmt.Sprintf("u%d", i))
	}
	repeat := func(s string) string { return strings.Repeat(s, maxBody/len(s)+1)[:maxBody] }
	distinct := func(format string) string {
		var s strings.Builder
		for i := 0; s.Len() < maxBody; i++ {
			fmt.Fprintf(&s, format, i%(issues.DefaultMaxTextRefs+10)+1)
		}
		return s.String()[:maxBody]
	}
	for _, bc := range []struct{ name, body string }{
		{"same-refs", repeat("#1 x/y#1 ")},
		{"distinct-refs", distinct("#%d ")},
		{"same-mention", repeat("@u1 ")},
		{"distinct-mentions", distinct("@u%d ")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				if _, err := e.svc.CreateComment(e.ctx, ann, "ann", "proj", target, issues.CreateCommentOption{Body: bc.body}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
