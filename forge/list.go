package forge

// Paging defaults, as Forgejo's [api] DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS.
const (
	DefaultPageSize = 30
	MaxPageSize     = 50
)

// ListOptions selects one page of a list. Page is 1-based; Limit is the page
// size. Forgejo's paging parameters are `page` and `limit` (`per_page` is not
// one of them).
type ListOptions struct {
	Page  int
	Limit int
}

// Normalize returns the options with Forgejo's corrections applied: a page
// below 1 is 1, a limit below 1 is DefaultPageSize and a limit above
// MaxPageSize is MaxPageSize.
func (o ListOptions) Normalize() ListOptions {
	if o.Page < 1 {
		o.Page = 1
	}
	if o.Limit < 1 {
		o.Limit = DefaultPageSize
	} else if o.Limit > MaxPageSize {
		o.Limit = MaxPageSize
	}
	return o
}

// MaxOffset bounds every offset: a page beyond it is empty. It fits the
// int of any platform, git's --skip and SQL's OFFSET.
const MaxOffset = 1<<31 - 1

// Offset is the number of items before the page (of normalised options),
// at most MaxOffset: a huge page never overflows.
func (o ListOptions) Offset() int {
	return o.OffsetMax(MaxPageSize)
}

// OffsetMax is Offset for an operation whose page size may reach maxLimit
// (a limit below 1 counts as DefaultPageSize, above maxLimit as maxLimit).
func (o ListOptions) OffsetMax(maxLimit int) int {
	page, limit := max(o.Page, 1), o.Limit
	if limit < 1 {
		limit = DefaultPageSize
	}
	limit = min(limit, max(maxLimit, 1))
	if page-1 > MaxOffset/limit {
		return MaxOffset
	}
	return min((page-1)*limit, MaxOffset)
}

// Bounds returns the bounds lo ≤ hi ≤ n of the page in a list of n items,
// as SQL's LIMIT/OFFSET with Offset: from Offset (at most n), Limit items
// (a negative limit: all the rest). It never overflows, whatever the page
// and limit.
func (o ListOptions) Bounds(n int) (lo, hi int) {
	return o.BoundsMax(n, MaxPageSize)
}

// BoundsMax is Bounds with OffsetMax(maxLimit) for an operation whose page
// size may reach maxLimit.
func (o ListOptions) BoundsMax(n, maxLimit int) (lo, hi int) {
	n = max(n, 0)
	lo = min(o.OffsetMax(maxLimit), n)
	if o.Limit < 0 || o.Limit >= n-lo {
		return lo, n
	}
	return lo, lo + o.Limit
}

// Page returns the page of list that o selects (Bounds), sharing list's
// array.
func Page[T any](list []T, o ListOptions) []T {
	lo, hi := o.Bounds(len(list))
	return list[lo:hi]
}
