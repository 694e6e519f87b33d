package postgres

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The PL/pgSQL triggers keep what the SQLite triggers keep: issue counters,
// the label and assignee filter columns, quota counters, and the rows that
// go with a deleted issue, comment, repository, account or team.
func TestTriggers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	exec := func(q string, args ...any) {
		t.Helper()
		_, err := db.sql.ExecContext(ctx, q, args...)
		require.NoError(t, err, q)
	}
	one := func(q string, args ...any) int64 {
		t.Helper()
		var n int64
		require.NoError(t, db.sql.QueryRowContext(ctx, q, args...).Scan(&n), q)
		return n
	}
	exec(`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix)
		VALUES (1, 'alice', 'alice', 'a@example.com', 'a@example.com', 1, 1),
		       (2, 'org', 'org', '', '', 1, 1)`)
	exec(`INSERT INTO repository (id, owner_id, name, lower_name, default_branch, created_unix, updated_unix)
		VALUES (10, 1, 'r', 'r', 'main', 1, 1), (11, 1, 's', 's', 'main', 1, 1)`)
	exec(`INSERT INTO milestone (id, repo_id, title, created_unix, updated_unix) VALUES (5, 10, 'm', 1, 1)`)
	exec(`INSERT INTO issue (id, repo_id, "index", poster_id, title, body, is_pull, is_closed, created_unix, updated_unix) VALUES
		(100, 10, 1, 1, 'zebra crossing', '', FALSE, FALSE, 1, 1),
		(101, 10, 2, 1, 'lion', 'a zebra', FALSE, TRUE, 1, 1),
		(102, 10, 3, 1, 'pull', '', TRUE, FALSE, 1, 1)`)

	count := func(pull, closed bool) int64 {
		t.Helper()
		return one(`SELECT coalesce(sum(n), 0) FROM issue_count WHERE repo_id = 10 AND is_pull = $1 AND is_closed = $2`, pull, closed)
	}
	assert.Equal(t, []int64{1, 1, 1}, []int64{count(false, false), count(false, true), count(true, false)})

	// Labels and assignees carry their issue's state, kind, repository and milestone.
	exec(`INSERT INTO label (id, repo_id, name, color) VALUES (7, 10, 'bug', 'ff0000')`)
	exec(`INSERT INTO issue_label (issue_id, label_id) VALUES (100, 7), (101, 7)`)
	exec(`INSERT INTO issue_assignees (issue_id, assignee_id, position) VALUES (100, 1, 0)`)
	assert.Equal(t, int64(10), one(`SELECT repo_id FROM issue_label WHERE issue_id = 100`))
	assert.Equal(t, int64(1), one(`SELECT count(*) FROM issue_label WHERE label_id = 7 AND is_closed`))
	exec(`UPDATE issue SET is_closed = TRUE, milestone_id = 5 WHERE id = 100`)
	assert.Equal(t, int64(2), one(`SELECT count(*) FROM issue_label WHERE label_id = 7 AND is_closed`))
	assert.Equal(t, int64(5), one(`SELECT milestone_id FROM issue_assignees WHERE issue_id = 100 AND is_closed`))
	assert.Equal(t, []int64{0, 2, 1}, []int64{count(false, false), count(false, true), count(true, false)})

	// The keyword search finds substrings, case-insensitively.
	assert.Equal(t, int64(2), one(`SELECT count(*) FROM issue WHERE title ILIKE '%ZEBR%' OR body ILIKE '%ZEBR%'`))

	// An issue's reactions, and the comments naming it as a dependency, go with it.
	exec(`INSERT INTO comment (id, issue_id, type, poster_id, dependent_issue_id, created_unix, updated_unix)
		VALUES (50, 100, 19, 1, 101, 1, 1), (51, 101, 0, 1, 0, 1, 1)`)
	exec(`INSERT INTO reaction (issue_id, comment_id, user_id, content, created_unix) VALUES (101, NULL, 1, '+1', 1), (100, 50, 1, 'heart', 1)`)
	exec(`DELETE FROM issue WHERE id = 101`)
	assert.Equal(t, int64(0), one(`SELECT count(*) FROM comment WHERE id = 50`), "dependency comment naming the deleted issue")
	assert.Equal(t, int64(0), one(`SELECT count(*) FROM reaction`), "the issue's reaction, and the deleted comment's")
	assert.Equal(t, []int64{0, 1, 1}, []int64{count(false, false), count(false, true), count(true, false)})

	// Quota counters follow attachment sizes and equal a recount.
	exec(`INSERT INTO release (id, repo_id, author_id, tag_name, lower_tag_name, target, created_unix) VALUES (3, 10, 1, 'v1', 'v1', 'main', 1)`)
	exec(`INSERT INTO attachment (uuid, repo_id, release_id, uploader_id, name, size, created_unix) VALUES
		('u1', 10, 3, 1, 'a', 100, 1), ('u2', 10, 3, 1, 'b', 20, 1)`)
	exec(`INSERT INTO issue_attachment (uuid, repo_id, issue_id, uploader_id, name, size, created_unix) VALUES ('u3', 10, 100, 1, 'c', 7, 1)`)
	exec(`UPDATE attachment SET size = 50 WHERE uuid = 'u1'`)
	exec(`DELETE FROM attachment WHERE uuid = 'u2'`)
	usage := func(bucket string) int64 {
		t.Helper()
		return one(`SELECT coalesce(sum(bytes), 0) FROM quota_repo_usage WHERE repo_id = 10 AND bucket = $1`, bucket)
	}
	assert.Equal(t, one(`SELECT coalesce(sum(size), 0) FROM attachment WHERE repo_id = 10`), usage("size:assets:attachments:releases"))
	assert.Equal(t, int64(50), usage("size:assets:attachments:releases"))
	assert.Equal(t, int64(7), usage("size:assets:attachments:issues"))

	// A repository's and an account's actions secrets go with them.
	exec(`INSERT INTO secret (owner_id, repo_id, name, data) VALUES (0, 11, 'A', 'x'), (1, 0, 'B', 'y')`)
	exec(`DELETE FROM repository WHERE id = 11`)
	assert.Equal(t, int64(1), one(`SELECT count(*) FROM secret`))

	// A team's review requests go with the team.
	exec(`INSERT INTO team (id, org_id, name, lower_name) VALUES (9, 2, 'devs', 'devs')`)
	exec(`INSERT INTO review (issue_id, type, reviewer_team_id, created_unix, updated_unix) VALUES (102, 4, 9, 1, 1), (102, 1, 0, 1, 1)`)
	exec(`DELETE FROM team WHERE id = 9`)
	assert.Equal(t, int64(1), one(`SELECT count(*) FROM review WHERE issue_id = 102`))

	exec(`INSERT INTO users (id, name, lower_name, email, lower_email, created_unix, updated_unix)
		VALUES (3, 'carol', 'carol', 'c@example.com', 'c@example.com', 1, 1)`)
	exec(`INSERT INTO secret (owner_id, repo_id, name, data) VALUES (3, 0, 'C', 'z')`)
	exec(`DELETE FROM users WHERE id = 3`)
	assert.Equal(t, int64(0), one(`SELECT count(*) FROM secret WHERE owner_id = 3`))
	assert.Equal(t, int64(1), one(`SELECT count(*) FROM secret`))
}
