package mirror

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// BenchmarkSchedulerNextDue measures one scheduler step on the queue: pop
// the next due mirror and push it back at its next start (next update plus
// jitter). The cost per pop grows with log(n).
func BenchmarkSchedulerNextDue(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("mirrors=%d", n), func(b *testing.B) {
			base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			r := rand.New(rand.NewPCG(1, 2))
			q := make(queue, 0, n)
			for i := 0; i < n; i++ {
				k := Key{KindPull, forge.ID(i + 1)}
				q = append(q, item{key: k, start: base.Add(time.Duration(r.IntN(8*3600)) * time.Second).Add(Jitter(k, DefaultJitter))})
			}
			heap.Init(&q)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				it := heap.Pop(&q).(item)
				it.start = it.start.Add(8 * time.Hour)
				heap.Push(&q, it)
			}
		})
	}
}

func TestQueueOrder(t *testing.T) {
	t.Parallel()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var q queue
	for i, off := range []int{5, 1, 3, 1, 0} {
		heap.Push(&q, item{key: Key{KindPush, forge.ID(10 - i)}, start: base.Add(time.Duration(off) * time.Second)})
	}
	heap.Push(&q, item{key: Key{KindPull, 99}, start: base.Add(time.Second)})
	var got []string
	for q.Len() > 0 {
		it := heap.Pop(&q).(item)
		got = append(got, fmt.Sprintf("%s%d@%d", it.key.Kind, it.key.ID, it.start.Sub(base)/time.Second))
	}
	want := "[push6@0 pull99@1 push7@1 push9@1 push8@3 push10@5]"
	if fmt.Sprint(got) != want {
		t.Errorf("order %v, want %s", got, want)
	}
}
