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
