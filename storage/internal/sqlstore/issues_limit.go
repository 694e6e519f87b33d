package sqlstore

import (
	"math"

	"github.com/hearthforge/hearth/forge"
)

// issueLimit is the LIMIT argument of a page of o: o.Limit, or no limit
// for a negative one (the domain's "all"). SQLite reads LIMIT -1 as no
// limit, PostgreSQL refuses a negative LIMIT; the largest BIGINT means
// the same on both.
func issueLimit(o forge.ListOptions) int64 {
	if o.Limit < 0 {
		return math.MaxInt64
	}
	return int64(o.Limit)
}
