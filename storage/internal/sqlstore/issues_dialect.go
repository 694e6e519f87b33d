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

// issueIndexByRow says whether NextIssueIndex counts on issue_index's row
// alone once it exists (CreateIssue then moves the row past an index of
// the caller's own): PostgreSQL, where reading the repository's issues in
// every reservation would make creations in different repositories
// conflict (SERIALIZABLE locks the index pages read, not the rows). SQLite
// reads the issues each time (one writer: nothing conflicts), which also
// covers its databases made before CreateIssue moved the row.
func (d Dialect) issueIndexByRow() bool { return d.Name == "postgres" }
