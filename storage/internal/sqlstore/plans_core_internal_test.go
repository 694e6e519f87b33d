package sqlstore

import (
	"strings"
	"testing"
)

// The batch reads of users, repositories, organisations, teams, transfers
// and release attachments take their ids as one JSON list, cast to
// integers for PostgreSQL (CAST(value AS BIGINT)); on SQLite each still
// finds its rows by key or index, one lookup per id: no statement scans
// the table it reads.
func TestCoreBatchQueryPlans(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	for name, c := range map[string]struct {
		sql  string
		args []any
	}{
		"users":             {sqlUsersByID, []any{"[1,2]"}},
		"repositories":      {sqlReposByID, []any{"[1,2]"}},
		"collaborators":     {sqlCollabModes, []any{1, "[1,2]"}},
		"transfers":         {sqlTransfers, []any{"[1,2]"}},
		"transfer teams":    {sqlTransferTeams, []any{"[1,2]"}},
		"team orgs":         {sqlTeamOrgs, []any{"[1,2]"}},
		"org memberships":   {sqlOrgMemberships, []any{1, "[1,2]"}},
		"team grants":       {sqlTeamGrants, []any{1, "[1,2]"}},
		"add repo teams":    {sqlAddRepoTeams, []any{1, "[1,2]"}},
		"release assets":    {sqlAttachmentsOf, []any{"[1,2]"}},
		"public members":    {sqlListMembers, []any{1, true, 10, 0}},
		"count org members": {sqlCountMembers, []any{1, false}},
	} {
		plan := queryPlan(t, db, c.sql, c.args...)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "json_each") && !strings.Contains(step, "USING") {
				t.Errorf("%s scans a table: %q (plan %q)", name, step, plan)
			}
		}
	}
}
