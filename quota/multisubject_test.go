package quota_test

import (
	"testing"

	"github.com/hearthforge/hearth/quota"
)

// bucketsBelow is Forgejo's subject tree written out by hand (not read
// from the code under test): the buckets each subject's usage sums.
var bucketsBelow = map[quota.Subject][]quota.Bucket{
	quota.SubjectNone: nil,
	quota.SubjectAll: {quota.BucketReposPublic, quota.BucketReposPrivate, quota.BucketLFS, quota.BucketAttachmentsIssues,
		quota.BucketAttachmentsReleases, quota.BucketArtifacts, quota.BucketPackages},
	quota.SubjectGitAll:              {quota.BucketReposPublic, quota.BucketReposPrivate, quota.BucketLFS},
	quota.SubjectReposAll:            {quota.BucketReposPublic, quota.BucketReposPrivate},
	quota.SubjectReposPublic:         {quota.BucketReposPublic},
	quota.SubjectReposPrivate:        {quota.BucketReposPrivate},
	quota.SubjectGitLFS:              {quota.BucketLFS},
	quota.SubjectAssetsAll:           {quota.BucketAttachmentsIssues, quota.BucketAttachmentsReleases, quota.BucketArtifacts, quota.BucketPackages},
	quota.SubjectAttachmentsAll:      {quota.BucketAttachmentsIssues, quota.BucketAttachmentsReleases},
	quota.SubjectAttachmentsIssues:   {quota.BucketAttachmentsIssues},
	quota.SubjectAttachmentsReleases: {quota.BucketAttachmentsReleases},
	quota.SubjectArtifacts:           {quota.BucketArtifacts},
	quota.SubjectPackagesAll:         {quota.BucketPackages},
	quota.SubjectWiki:                nil,
}

// TestRuleEverySubjectCounts is the class "a rule with several subjects
// acts through each of them": for every rule of two and of three
// subjects, each subject at each position matches its own checks, its
// usage counts in the rule's sum, and a limit-0 rule denies writes into
// each of its buckets (a matcher or a sum that skipped the first or the
// last subject would let a limit-0 rule on release assets through).
func TestRuleEverySubjectCounts(t *testing.T) {
	t.Parallel()
	var lists [][]quota.Subject
	for _, a := range quota.Subjects {
		for _, b := range quota.Subjects {
			lists = append(lists, []quota.Subject{a, b})
			for _, c := range quota.Subjects {
				lists = append(lists, []quota.Subject{a, b, c})
			}
		}
	}
	require := func(cond bool, format string, args ...any) {
		t.Helper()
		if !cond {
			t.Fatalf(format, args...)
		}
	}
	for _, subjects := range lists {
		for i, s := range subjects {
			deny := quota.Rule{Name: "deny", Limit: 0, Subjects: subjects}
			allowed, matched := deny.Evaluate(quota.Used{}, s)
			require(matched && !allowed, "rule %v, subject %d (%s): a check of %s matched=%v allowed=%v, want a match that denies",
				subjects, i, s, s, matched, allowed)
			groups := []quota.Group{{Name: "g", Rules: []quota.Rule{deny}}}
			require(!quota.Evaluate(on, groups, quota.Used{}, s), "rule %v: the group lets a check of %s through", subjects, s)
			for _, b := range bucketsBelow[s] {
				leaf := b.Subject()
				_, matched := deny.Evaluate(quota.Used{}, leaf)
				require(matched, "rule %v, subject %d (%s): a write into %s is not matched", subjects, i, s, b)
				require(!quota.EvaluateDelta(on, groups, quota.Used{}, leaf, b, 1),
					"rule %v, subject %d (%s): a limit-0 rule lets 1 byte into %s", subjects, i, s, b)
				if _, ok := quota.Allowance(on, groups, quota.Used{}, leaf, b); ok {
					t.Fatalf("rule %v, subject %d (%s): a limit-0 rule allows a push into %s", subjects, i, s, b)
				}

				// The usage of every subject counts in the sum: 100 bytes
				// in b fill a limit of 100, whatever the other subjects.
				var full quota.Used
				if err := full.Set(b, 100); err != nil {
					t.Fatal(err)
				}
				lim := quota.Rule{Name: "lim", Limit: 100, Subjects: subjects}
				require(lim.Sum(full) >= 100, "rule %v, subject %d (%s): %s's usage is not in the sum (%d)", subjects, i, s, b, lim.Sum(full))
				allowed, _ := lim.Evaluate(full, leaf)
				require(!allowed, "rule %v, subject %d (%s): a full %s is allowed", subjects, i, s, b)
				allowed, _ = lim.Evaluate(quota.Used{}, leaf)
				require(allowed, "rule %v, subject %d (%s): an empty %s is denied", subjects, i, s, b)
			}
		}
	}
}
