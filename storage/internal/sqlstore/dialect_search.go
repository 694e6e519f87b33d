package sqlstore

import (
	"strings"
	"unicode/utf8"
)

// The issue search's SQL that differs between the engines: the keyword
// match (SQLite's FTS5 trigram tables against PostgreSQL's pg_trgm
// indexes) and the index hints (SQLite's INDEXED BY, which PostgreSQL's
// planner has no use for). The zero Dialect spells SQLite's.

// postgres reports whether the engine is PostgreSQL.
func (d Dialect) postgres() bool { return d.Name == "postgres" }

// indexedBy is the hint that makes SQLite read table through index, with
// spaces around it; empty on PostgreSQL.
func (d Dialect) indexedBy(index string) string {
	if d.postgres() {
		return " "
	}
	return " INDEXED BY " + index + " "
}

// issueKeyword is the condition that issue i matches keyword: the keyword
// anywhere in its title, its body or the body of one of its plain
// comments (type 0; Forgejo's indexer matches comments too), ignoring
// case.
//
// SQLite: a keyword of three characters or more is a phrase of the
// trigram tables issue_text (00014) and comment_text (00032), which fold
// case by Unicode's simple folding; a shorter one is a LIKE over every
// issue (ASCII case folding).
//
// PostgreSQL: LIKE over the lower case of the columns in ICU's root
// locale (Unicode's simple case mapping, as the trigram tables fold: the
// database's own LC_CTYPE may be C, which folds ASCII only), served by
// the trigram indexes of the same names on those expressions (00034).
func (d Dialect) issueKeyword(keyword string) (string, []any) {
	like := "%" + likeEscaper.Replace(keyword) + "%"
	if d.postgres() {
		return `(lower(i.title COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'
			OR lower(i.body COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'
			OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.type = 0
				AND lower(c.body COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'))`,
			[]any{like, like, like}
	}
	if utf8.RuneCountInString(keyword) >= 3 {
		phrase := `"` + strings.ReplaceAll(keyword, `"`, `""`) + `"`
		return `(i.id IN (SELECT rowid FROM issue_text WHERE issue_text MATCH ?)
			OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.id IN (SELECT rowid FROM comment_text WHERE comment_text MATCH ?)))`,
			[]any{phrase, phrase}
	}
	return `(i.title LIKE ? ESCAPE '\' OR i.body LIKE ? ESCAPE '\'
		OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.type = 0 AND c.body LIKE ? ESCAPE '\'))`,
		[]any{like, like, like}
}
