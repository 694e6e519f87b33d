package repos_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

func TestAutoInitWritesForgejosFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	file := func(repo, path string) string {
		_, c, err := w.svc.GetContents(ctx, alice, "alice", repo, path, "")
		require.NoError(t, err)
		return string(c.Content)
	}

	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p", Description: "a project", AutoInit: true,
		Gitignores: "Go,C++", License: "MIT"})
	require.NoError(t, err)
	require.Equal(t, "# p\n\na project\n", file("p", "README.md"))
	ignore := file("p", ".gitignore")
	require.True(t, strings.HasPrefix(ignore, "# ---> Go\n# If you prefer the allow list template"), ignore)
	require.Contains(t, ignore, "\n# ---> C++\n# Prerequisites\n*.d\n")
	license := file("p", "LICENSE")
	require.True(t, strings.HasPrefix(license, "MIT License\n\nCopyright (c) 2024 alice\n\nPermission is hereby granted"), license)

	// The Default README keeps its blank line without a description.
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "q", AutoInit: true, License: "BSD-3-Clause"})
	require.NoError(t, err)
	require.Equal(t, "# q\n\n\n", file("q", "README.md"))
	require.True(t, strings.HasPrefix(file("q", "LICENSE"), "Copyright (c) 2024 alice. All rights reserved.\n"))

	// Unknown templates are refused before anything is created.
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "r", AutoInit: true, Gitignores: "Go,Nope"})
	require.EqualError(t, err, "gitignore template does not exist [name: Nope]")
	_, err = w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "r", AutoInit: true, License: "../gitignore/Go"})
	require.ErrorIs(t, err, forge.ErrInvalid)
	_, err = w.svc.Get(ctx, alice, "alice", "r")
	require.ErrorIs(t, err, forge.ErrNotFound)

	require.Contains(t, repos.Gitignores(), "C++")
	require.Contains(t, repos.Licenses(), "MIT")
}

func TestApacheLicenceFillsItsPlaceholders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice := w.user(t, "alice", forge.VisibilityPublic)
	_, err := w.svc.Create(ctx, alice, "", repos.CreateOptions{Name: "p", AutoInit: true, License: "Apache-2.0", Gitignores: "Zig"})
	require.NoError(t, err)
	_, c, err := w.svc.GetContents(ctx, alice, "alice", "p", "LICENSE", "")
	require.NoError(t, err)
	require.Contains(t, string(c.Content), "\nCopyright 2024 alice\n")
	_, c, err = w.svc.GetContents(ctx, alice, "alice", "p", ".gitignore", "")
	require.NoError(t, err)
	require.Equal(t, "# ---> Zig\nzig-cache/\nzig-out/\n\n", string(c.Content))
}
