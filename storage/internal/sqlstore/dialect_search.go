package sqlstore

import (
	"strings"
	"unicode/utf8"

	"github.com/hearthforge/hearth/issues"
)

// The issue search's SQL that differs between the engines: the keyword
// match (SQLite's FTS5 trigram tables against PostgreSQL's pg_trgm
// indexes) and the index hints (SQLite's INDEXED BY, which PostgreSQL's
// planner has no use for). The zero Dialect spells SQLite's.

// nonASCII is the GLOB pattern of a text holding a character outside
// ASCII.
const nonASCII = "*[^\x01-\x7f]*"

// maxLikeKeyword bounds the keyword tested by LIKE, well below SQLite's
// limit on a LIKE pattern (50,000 bytes); a longer one is sought in the
// trigram tables.
const maxLikeKeyword = 1000

// ftsPhrase is keyword as an FTS5 phrase: in double quotes, its own
// doubled, so that it is matched as a string, never read as a query.
func ftsPhrase(keyword string) string {
	return `"` + strings.ReplaceAll(keyword, `"`, `""`) + `"`
}

// asciiOnly reports whether s is ASCII.
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

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
//
// perRow (SQLite) asks for a test per issue, for a page that walks an
// order's index and stops at the page, rather than the set of every
// matching issue built before the walk's first row (most of the cost of a
// broad keyword's page): an ASCII keyword is a LIKE on the issue's title
// and body and on its comments (by comment_issue), the trigram tables
// being sought by id only for text holding other characters, where
// Unicode's folding and LIKE's may differ (K, the Kelvin sign, is k).
func (d Dialect) issueKeyword(keyword string, perRow bool) (string, []any) {
	like := "%" + likeEscaper.Replace(keyword) + "%"
	if d.postgres() {
		return `(lower(i.title COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'
			OR lower(i.body COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'
			OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.type = 0
				AND lower(c.body COLLATE "und-x-icu") LIKE lower(CAST(? AS TEXT) COLLATE "und-x-icu") ESCAPE '\'))`,
			[]any{like, like, like}
	}
	if utf8.RuneCountInString(keyword) >= 3 {
		phrase := ftsPhrase(keyword)
		if perRow && asciiOnly(keyword) && len(keyword) <= maxLikeKeyword {
			// The title and body on the row (textKeyword), and the
			// comments the same way: LIKE, the trigram table sought only
			// for text holding a character outside ASCII.
			text, args := textKeyword(keyword)
			return `(` + text + `
			OR EXISTS (SELECT 1 FROM comment c WHERE c.issue_id = i.id AND c.type = 0 AND (c.body LIKE ? ESCAPE '\'
				OR (c.body GLOB ? AND EXISTS (SELECT 1 FROM comment_text WHERE comment_text MATCH ? AND comment_text.rowid = c.id)))))`,
				append(args, like, nonASCII, phrase)
		}
		return `(i.id IN (SELECT rowid FROM issue_text WHERE issue_text MATCH ?)
			OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.id IN (SELECT rowid FROM comment_text WHERE comment_text MATCH ?)))`,
			[]any{phrase, phrase}
	}
	return `(i.title LIKE ? ESCAPE '\' OR i.body LIKE ? ESCAPE '\'
		OR i.id IN (SELECT c.issue_id FROM comment c WHERE c.type = 0 AND c.body LIKE ? ESCAPE '\'))`,
		[]any{like, like, like}
}

// keywordCount is the query of the number of issues matching f, whose
// keyword is its selective filter (no label, milestone, poster, assignee
// or mention filter), and of size (a scalar subquery), with its
// arguments; ok is false where the engine cannot count from the keyword's
// matches (PostgreSQL, or a keyword shorter than a trigram).
//
// It counts the issues whose title or body match, plus the issues matched
// only by a comment (the set of every issue whose text matches is built
// only when a comment matches, and comments are few of a broad keyword's
// matches). When f has no condition beyond its repositories, state and
// kind, and names its repositories as a complement (searchFilter.except),
// the first term is a count of index entries in the trigram tables by
// state and kind (00035), less the matches in the excepted repositories
// (read by their issues); otherwise it reads each match's issue row for
// the conditions.
func (d Dialect) keywordCount(f searchFilter, size string) (query string, args []any, ok bool) {
	keyword := f.Keyword
	if d.postgres() || utf8.RuneCountInString(keyword) < 3 {
		return "", nil, false
	}
	phrase := ftsPhrase(keyword)
	g := f
	g.Keyword = ""
	rest, restArgs, _ := d.issueWhere(g, false)
	comments := `(SELECT count(DISTINCT c.issue_id) FROM comment_text ct CROSS JOIN comment c ON c.id = ct.rowid
			CROSS JOIN issue i ON i.id = c.issue_id
			WHERE comment_text MATCH ? AND ` + rest + `
			AND c.issue_id NOT IN (SELECT rowid FROM issue_text WHERE issue_text MATCH ?))`
	commentArgs := append(append([]any{phrase}, restArgs...), phrase)
	if !f.except || !f.UpdatedSince.IsZero() || !f.UpdatedBefore.IsZero() {
		query = `SELECT (SELECT count(*) FROM issue_text t CROSS JOIN issue i ON i.id = t.rowid
			WHERE issue_text MATCH ? AND ` + rest + `) + ` + comments + size
		return query, append(append([]any{phrase}, restArgs...), commentArgs...), true
	}
	var terms []string
	for _, part := range textParts(f.IssueFilter) {
		terms = append(terms, "(SELECT count(*) FROM "+part+" WHERE "+part+" MATCH ?)")
		args = append(args, phrase)
	}
	query = "SELECT " + strings.Join(terms, " + ")
	if len(f.exceptRepos) > 0 {
		h := g
		h.except, h.exceptRepos, h.RepoIDs, h.PublicRepos = false, nil, f.exceptRepos, false
		where, whereArgs, _ := d.issueWhere(h, false)
		text, textArgs := textKeyword(keyword)
		query += " - (SELECT count(*) FROM issue i WHERE " + where + " AND " + text + ")"
		args = append(append(args, whereArgs...), textArgs...)
	}
	return query + " + " + comments + size, append(args, commentArgs...), true
}

// textParts are the trigram tables (00035) holding the issues of f's state
// and kind.
func textParts(f issues.IssueFilter) []string {
	states := []string{"o", "c"}
	switch f.State {
	case issues.StateOpen:
		states = states[:1]
	case issues.StateClosed:
		states = states[1:]
	}
	kinds := []string{"i", "p"}
	if f.IsPull != nil && *f.IsPull {
		kinds = kinds[1:]
	} else if f.IsPull != nil {
		kinds = kinds[:1]
	}
	var out []string
	for _, s := range states {
		for _, k := range kinds {
			out = append(out, "issue_text_"+s+k)
		}
	}
	return out
}

// textKeyword is the condition that the title or body of issue i holds
// keyword (three characters or more) as issue_text's phrase matches it,
// tested on the row: an ASCII keyword by LIKE (the phrase is then a
// substring ignoring ASCII case), the trigram table being sought by id
// only for text holding other characters (Unicode's folding and LIKE's
// may differ); any other keyword through the set of issue_text's matches.
func textKeyword(keyword string) (string, []any) {
	phrase := ftsPhrase(keyword)
	if asciiOnly(keyword) && len(keyword) <= maxLikeKeyword {
		like := "%" + likeEscaper.Replace(keyword) + "%"
		return `(i.title LIKE ? ESCAPE '\' OR i.body LIKE ? ESCAPE '\'
			OR ((i.title GLOB ? OR i.body GLOB ?)
				AND EXISTS (SELECT 1 FROM issue_text WHERE issue_text MATCH ? AND issue_text.rowid = i.id)))`,
			[]any{like, like, nonASCII, nonASCII, phrase}
	}
	return "i.id IN (SELECT rowid FROM issue_text WHERE issue_text MATCH ?)", []any{phrase}
}
