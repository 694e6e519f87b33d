package sqlstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/forgetest"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// The keyword tested per issue (a page walking an order's index: LIKE on
// ASCII text, the trigram tables otherwise) finds the issues the set of
// every match (a count, an unbounded page) finds, in titles, bodies and
// plain comments, ASCII or not, and whatever the case.
func TestIssueKeywordPerRowMatchesSet(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	ctx := context.Background()
	u := forgetest.User("kw")
	require.NoError(t, db.Auth().Update(ctx, func(tx auth.Tx) error { return tx.CreateUser(ctx, u, "") }))
	at := time.Unix(1.7e9, 0)
	r := &forge.Repository{OwnerID: u.ID, Name: "kw", DefaultBranch: "main", ObjectFormat: forge.SHA1, HasIssues: true, Created: at, Updated: at}
	require.NoError(t, db.Repos().Update(ctx, func(tx repos.Tx) error { return tx.CreateRepo(ctx, r) }))
	texts := []struct{ title, body, comment string }{
		{"Login fails", "", ""},
		{"plain", "the LOGIN page", ""},
		{"Größe ÜBER alles", "über LOGIN", ""},
		{"\u212Aelvin scale", "", ""}, // KELVIN SIGN: Unicode folds it to k
		{"ſtraße", "", "a Kelvin comment"},
		{"quiet", "nothing", "comment: LoGiN here, ünïcode"},
		{"quiet too", "", "\u212Aelvin in a comment"},
		{"50% done_x", "", ""},
	}
	var all []forge.ID
	require.NoError(t, db.Issues().Update(ctx, func(tx issues.Tx) error {
		for k, x := range texts {
			i := &issues.Issue{RepoID: r.ID, Index: int64(k + 1), PosterID: u.ID, Title: x.title, Body: x.body,
				Created: at.Add(time.Duration(k) * time.Minute), Updated: at.Add(time.Duration(k) * time.Minute)}
			if err := tx.CreateIssue(ctx, i); err != nil {
				return err
			}
			all = append(all, i.ID)
			if x.comment != "" {
				c := &issues.Comment{IssueID: i.ID, Type: issues.CommentPlain, PosterID: u.ID, Body: x.comment, Created: at, Updated: at}
				if err := tx.CreateComment(ctx, c); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	for _, keyword := range []string{"login", "LOGIN", "kelvin", "KELVIN", "ber alles", "über", "straße", "stra", "comment",
		"50% d", "e_x", "0% done_x", "nothing at all"} {
		f := issues.IssueFilter{RepoIDs: []forge.ID{r.ID}, State: issues.StateAll, Keyword: keyword}
		cond, _ := db.d.issueKeyword(keyword, true)
		if asciiOnly(keyword) {
			assert.Contains(t, cond, "LIKE", "keyword %q: tested per issue", keyword)
		}
		var perRow, set []forge.ID
		var perRowN, setN int64
		require.NoError(t, db.Issues().View(ctx, func(tx issues.Tx) error {
			// A page of 3 of 8 issues walks issue_created per issue; an
			// unbounded one gathers the set of matches.
			page, n, err := tx.ListIssues(ctx, f, forge.ListOptions{Page: 1, Limit: 3})
			if err != nil {
				return err
			}
			perRow, perRowN = issueIDs(page), n
			list, n, err := tx.ListIssues(ctx, f, forge.ListOptions{Page: 1, Limit: -1})
			set, setN = issueIDs(list), n
			return err
		}))
		assert.Equal(t, setN, perRowN, "keyword %q: total", keyword)
		assert.EqualValues(t, len(set), setN, "keyword %q: the count of the matches", keyword)
		assert.Equal(t, set[:min(3, len(set))], perRow, "keyword %q: page", keyword)
		if strings.EqualFold(keyword, "login") {
			assert.Len(t, set, 4, "keyword %q: title, body, non-ASCII body, comment", keyword)
		}
	}
}

func issueIDs(list []*issues.Issue) []forge.ID {
	ids := []forge.ID{}
	for _, i := range list {
		ids = append(ids, i.ID)
	}
	return ids
}
