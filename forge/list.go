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

// Offset is the number of items before the page (of normalised options).
func (o ListOptions) Offset() int {
	o = o.Normalize()
	return (o.Page - 1) * o.Limit
}
