package sqlstore

// issueIndexByRow says whether NextIssueIndex counts on issue_index's row
// alone once it exists (CreateIssue then moves the row past an index of
// the caller's own): PostgreSQL, where reading the repository's issues in
// every reservation would make creations in different repositories
// conflict (SERIALIZABLE locks the index pages read, not the rows). SQLite
// reads the issues each time (one writer: nothing conflicts), which also
// covers its databases made before CreateIssue moved the row.
func (d Dialect) issueIndexByRow() bool { return d.Name == "postgres" }

// upperASCII is the SQL of col with its ASCII letters upper-cased and
// nothing else changed (issues.UpperASCII): SQLite's upper() changes
// ASCII only; PostgreSQL's does so in the "C" collation.
func (d Dialect) upperASCII(col string) string {
	if d.postgres() {
		return `upper(` + col + ` COLLATE "C")`
	}
	return "upper(" + col + ")"
}
