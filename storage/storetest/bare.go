package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// testBareErrors: storage answers missing rows with the bare category,
// forge.ErrNotFound, and a short technical context at most; the words
// users read (Forgejo's `… does not exist [name: x]`) are the domain's.
func testBareErrors(t *testing.T, b Backend) {
	ctx := context.Background()
	s := b.Repos()
	_, r := newUserRepo(t, b, "bea", "bare")
	require.NoError(t, s.View(ctx, func(tx repos.Tx) error {
		for name, get := range map[string]func() error{
			"repository":     func() error { _, err := tx.RepoByID(ctx, 9999); return err },
			"branch rule":    func() error { _, err := tx.Protection(ctx, r.ID, "nope"); return err },
			"tag rule":       func() error { _, err := tx.TagProtection(ctx, r.ID, 9999); return err },
			"release":        func() error { _, err := tx.ReleaseByID(ctx, r.ID, 9999); return err },
			"release by tag": func() error { _, err := tx.ReleaseByTag(ctx, r.ID, "nope"); return err },
			"attachment":     func() error { _, err := tx.Attachment(ctx, 9999); return err },
			"asset by uuid":  func() error { _, err := tx.AttachmentByUUID(ctx, "nope"); return err },
		} {
			checkBare(t, name, get())
		}
		return nil
	}))
	for name, del := range map[string]func(tx repos.Tx) error{
		"delete branch rule": func(tx repos.Tx) error { return tx.DeleteProtection(ctx, r.ID, "nope") },
		"delete tag rule":    func(tx repos.Tx) error { return tx.DeleteTagProtection(ctx, r.ID, 9999) },
		"delete repository":  func(tx repos.Tx) error { return tx.DeleteRepo(ctx, 9999) },
	} {
		checkBare(t, name, s.Update(ctx, del))
	}
}

func checkBare(t *testing.T, name string, err error) {
	t.Helper()
	require.ErrorIs(t, err, forge.ErrNotFound, name)
	for _, word := range []string{"does not exist", "[name:", "[id:", "The target"} {
		assert.NotContains(t, strings.ToLower(err.Error()), strings.ToLower(word), "%s: storage holds no business message", name)
	}
}
