package gitstore_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// BenchmarkMerge measures one Merge of each style (the fixture's two
// feature commits onto main's diverged tip), with the git processes it
// starts.
func BenchmarkMerge(b *testing.B) {
	ctx := context.Background()
	for _, style := range []issues.MergeStyle{issues.MergeStyleMerge, issues.MergeStyleSquash, issues.MergeStyleRebase,
		issues.MergeStyleRebaseMerge, issues.MergeStyleFastForwardOnly} {
		b.Run(string(style), func(b *testing.B) {
			f := newPullFixture(b, forge.SHA1)
			m := f.merge(style)
			if style == issues.MergeStyleFastForwardOnly {
				m.Base = f.c0.ID
			}
			start := f.s.Started()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Branch = "b" + strconv.Itoa(i)
				if err := f.s.SetRef(ctx, 1, "refs/heads/"+m.Branch, m.Base, ""); err != nil {
					b.Fatal(err)
				}
				if _, err := f.s.Merge(ctx, 1, m); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.s.Started()-start)/float64(b.N), "procs/op")
		})
	}
	b.Run("TestMerge", func(b *testing.B) {
		f := newPullFixture(b, forge.SHA1)
		start := f.s.Started()
		for i := 0; i < b.N; i++ {
			if _, err := f.s.TestMerge(ctx, 1, f.m1.ID, f.f2.ID); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(f.s.Started()-start)/float64(b.N), "procs/op")
	})
}
