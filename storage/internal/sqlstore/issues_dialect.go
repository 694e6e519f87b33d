package sqlstore

// issueIndexByRow says whether NextIssueIndex counts on issue_index's row
// alone once it exists (CreateIssue then moves the row past an index of
// the caller's own): PostgreSQL, where reading the repository's issues in
// every reservation would make creations in different repositories
// conflict (SERIALIZABLE locks the index pages read, not the rows). SQLite
// reads the issues each time (one writer: nothing conflicts), which also
// covers its databases made before CreateIssue moved the row.
func (d Dialect) issueIndexByRow() bool { return d.Name == "postgres" }
