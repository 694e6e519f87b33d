package postgres

import "testing"

func TestRebind(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{`VALUES (?1, ?2, (SELECT max(x) FROM t WHERE r = ?1), ?3)`, `VALUES ($1, $2, (SELECT max(x) FROM t WHERE r = $1), $3)`},
		{`?2, ?`, `$2, $3`}, // SQLite: a bare ? is one more than the largest so far
		{`?10 ?`, `$10 $11`},
		{`WHERE a LIKE ? ESCAPE '\' AND b = ?`, `WHERE a LIKE $1 ESCAPE '\' AND b = $2`},
		{`SELECT '?', "we?ird", 'it''s ?' , ?`, `SELECT '?', "we?ird", 'it''s ?' , $1`},
		{"SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2"},
		{`SELECT 'unterminated ?`, `SELECT 'unterminated ?`},
		{`a - ? - ?`, `a - $1 - $2`},
	}
	for _, tt := range tests {
		if got := rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
