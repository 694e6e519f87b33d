package rules_test

import (
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/quota"
)

// Quota rules evaluate with no database: a product decides whether an
// upload fits from its own numbers, with Forgejo's semantics (ancestor
// subjects match, every matching rule of a group must allow, any group
// suffices, used < limit) and Hearth's delta-aware check.
func Example_quota() {
	cfg := quota.Config{Enabled: true}
	groups := []quota.Group{{Name: "free", Rules: []quota.Rule{
		{Name: "everything", Limit: 1000, Subjects: []quota.Subject{quota.SubjectAll}},
		{Name: "no-lfs", Limit: 0, Subjects: []quota.Subject{quota.SubjectGitLFS}},
	}}}
	used := quota.Used{ReposPublic: 600, AttachmentsIssues: 300}

	subject, _ := quota.ParseSubject("size:assets:attachments:issues")
	fmt.Println("check:", quota.Evaluate(cfg, groups, used, subject))
	fmt.Println("upload 100:", quota.EvaluateDelta(cfg, groups, used, subject, quota.BucketAttachmentsIssues, 100))
	fmt.Println("upload 101:", quota.EvaluateDelta(cfg, groups, used, subject, quota.BucketAttachmentsIssues, 101))
	fmt.Println("lfs:", quota.Evaluate(cfg, groups, used, quota.SubjectGitLFS))
	allow, ok := quota.Allowance(cfg, groups, used, quota.SubjectReposAll, quota.BucketReposPrivate)
	fmt.Println("push room:", allow, ok)

	// The built-in default applies to owners with no group.
	gs, shown := quota.SelectGroups(quota.Config{Enabled: true, DefaultTotal: quota.ParseSize("1 KiB")}, nil, nil)
	fmt.Println(gs[0].Rules[0].Limit, shown)

	var err error = &quota.ExceededError{UserID: 7, Username: "acme"}
	fmt.Println(err, errors.Is(err, quota.ErrExceeded))
	_, err = quota.ParseSubject("size:everything")
	fmt.Println(err)
	// Output:
	// check: true
	// upload 100: true
	// upload 101: false
	// lfs: false
	// push room: 100 true
	// 1024 false
	// quota exceeded true
	// unrecognized quota limit subject: [subject: size:everything]
}
