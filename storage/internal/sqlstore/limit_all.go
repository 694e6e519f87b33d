package sqlstore

import "math"

// limitAll is a LIMIT argument for a Go limit where a negative one means
// every row: SQLite reads a negative LIMIT as no limit, PostgreSQL refuses
// it, and both read the largest BIGINT as no limit.
func limitAll(limit int) int64 {
	if limit < 0 {
		return math.MaxInt64
	}
	return int64(limit)
}
