package repos

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
)

// TestInitFilesFillsForgejosPlaceholders: each licence is written with
// exactly Forgejo's placeholders filled (its universal lists, line by
// line); what Forgejo leaves alone (GPL-2.0's <yyyy>, UPL's
// [copyright holders]) stays as it is.
func TestInitFilesFillsForgejosPlaceholders(t *testing.T) {
	t.Parallel()
	r := &forge.Repository{Name: "tool", OwnerName: "alice"}
	for _, tc := range []struct {
		license string
		want    []string // substrings of LICENSE
		absent  []string
		prefix  string
	}{
		{license: "GPL-3.0-or-later", prefix: "GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007\n",
			want:   []string{"\n     tool\n     Copyright (C) 2024  alice\n", "\n     tool  Copyright (C) 2024  alice\n"},
			absent: []string{"<year>", "<name of author>", "<program>"}},
		{license: "GPL-3.0-only", prefix: "GNU GENERAL PUBLIC LICENSE\n\nVersion 3, 29 June 2007\n",
			want: []string{"\ntool\n\nCopyright (C) 2024 alice\n", "\ntool Copyright (C) 2024 alice\n"}},
		{license: "GPL-2.0-or-later", prefix: "GNU GENERAL PUBLIC LICENSE\n\nVersion 2, June 1991\n",
			want: []string{"\nCopyright (C) <yyyy> alice\n"}},
		{license: "GPL-2.0-only", want: []string{"\nCopyright (C) < yyyy > < name of author >\n"}},
		{license: "AGPL-3.0-or-later", prefix: "GNU AFFERO GENERAL PUBLIC LICENSE\n",
			want: []string{"\ntool\nCopyright (C) 2024 alice\n"}},
		{license: "LGPL-3.0-or-later", prefix: "GNU LESSER GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007\n"},
		{license: "LGPL-2.1-or-later", prefix: "GNU LESSER GENERAL PUBLIC LICENSE\n\nVersion 2.1, February 1999\n",
			want: []string{"\n     Copyright (C) year  name of author\n"}},
		{license: "MPL-2.0", prefix: "Mozilla Public License Version 2.0\n\n1. Definitions\n",
			want: []string{"You can obtain one at http://mozilla.org/MPL/2.0/.\n"}},
		{license: "BSD-4-Clause", prefix: "Copyright (c) 2024 alice . All rights reserved.\n"},
		{license: "UPL-1.0", prefix: "Copyright (c) 2024 [copyright holders] The Universal Permissive License\n"},
		{license: "EUPL-1.2", prefix: "European Union Public Licence v. 1.2\n\nEUPL © the European Union 2007, 2016\n"},
		{license: "CC0-1.0", prefix: "Creative Commons Legal Code\nCC0 1.0 Universal "},
		// MS-PL's file has no final newline; Forgejo's line scanner ends every line with one.
		{license: "MS-PL", want: []string{"fitness for a particular purpose and non-infringement.\n"}},
	} {
		t.Run(tc.license, func(t *testing.T) {
			t.Parallel()
			files, err := initFiles(r, CreateOptions{License: tc.license}, "alice@example.com", 2024)
			require.NoError(t, err)
			require.Len(t, files, 2)
			require.Equal(t, "LICENSE", files[1].Path)
			text := string(files[1].Content)
			require.True(t, strings.HasPrefix(text, tc.prefix), text[:min(len(text), 200)])
			require.True(t, strings.HasSuffix(text, "\n"))
			for _, s := range tc.want {
				require.Contains(t, text, s)
			}
			for _, s := range tc.absent {
				require.NotContains(t, text, s)
			}
		})
	}
}

// TestInitFilesJoinsGitignores: several templates, Forgejo's Global ones
// among them (named without the Global/ prefix), each under its header.
func TestInitFilesJoinsGitignores(t *testing.T) {
	t.Parallel()
	r := &forge.Repository{Name: "app", OwnerName: "alice"}
	for _, tc := range []struct {
		gitignores string
		want       string
	}{
		{"VisualStudioCode", "# ---> VisualStudioCode\n.vscode/*\n!.vscode/settings.json\n!.vscode/tasks.json\n!.vscode/launch.json\n!.vscode/extensions.json\n*.code-workspace\n\n"},
		{"Xcode, Elm", "# ---> Xcode\n## User settings\nxcuserdata/\n\n# ---> Elm\n# elm-package generated files\nelm-stuff\n# elm-repl generated files\nrepl-temp-*\n\n"},
		{"Ansible,Sass", "# ---> Ansible\n*.retry\n.ansible/\n\n# ---> Sass\n.sass-cache\n\n"},
	} {
		files, err := initFiles(r, CreateOptions{Gitignores: tc.gitignores}, "", 2024)
		require.NoError(t, err, tc.gitignores)
		require.Equal(t, ".gitignore", files[1].Path)
		require.Equal(t, tc.want, string(files[1].Content), tc.gitignores)
	}
	files, err := initFiles(r, CreateOptions{Gitignores: "macOS,JetBrains,VisualStudio,Android,Unity"}, "", 2024)
	require.NoError(t, err)
	ignore := string(files[1].Content)
	for _, s := range []string{"# ---> macOS\n# General\n.DS_Store\n", "\n# ---> JetBrains\n# Covers JetBrains IDEs",
		"\n# ---> VisualStudio\n## Ignore Visual Studio temporary files", "\n# ---> Android\n# Built application files\n",
		"\n# ---> Unity\n# This .gitignore file should be placed at the root of your Unity project directory\n"} {
		require.Contains(t, ignore, s)
	}
	// Names are case-sensitive, as Forgejo's file names are.
	_, err = initFiles(r, CreateOptions{Gitignores: "macos"}, "", 2024)
	require.ErrorIs(t, err, forge.ErrInvalid)
}

// TestTemplatesOfferWhatClientsSend: the names Forgejo's UI and the Gitea
// SDK most often send are known, so auto_init does not refuse them, and
// every listed template can be written.
func TestTemplatesOfferWhatClientsSend(t *testing.T) {
	t.Parallel()
	licenses, gitignores := Licenses(), Gitignores()
	require.GreaterOrEqual(t, len(licenses), 30)
	require.GreaterOrEqual(t, len(gitignores), 50)
	for _, name := range []string{"MIT", "Apache-2.0", "GPL-2.0-only", "GPL-2.0-or-later", "GPL-3.0-only", "GPL-3.0-or-later",
		"LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only", "LGPL-3.0-or-later", "AGPL-3.0-only", "AGPL-3.0-or-later", "MPL-2.0", "CC0-1.0", "EPL-2.0",
		"EUPL-1.2", "BSD-2-Clause", "BSD-3-Clause", "Unlicense", "WTFPL", "ISC", "BSL-1.0", "Artistic-2.0"} {
		require.Contains(t, licenses, name)
	}
	for _, name := range []string{"C", "C++", "Go", "Node", "Python", "Rust", "Java", "VisualStudio", "macOS", "JetBrains",
		"VisualStudioCode", "Android", "Unity", "UnrealEngine", "Dart", "Gradle", "Qt", "TeX", "Emacs", "Objective-C"} {
		require.Contains(t, gitignores, name)
	}
	r := &forge.Repository{Name: "x", OwnerName: "o"}
	for _, name := range licenses {
		files, err := initFiles(r, CreateOptions{License: name}, "o@example.com", 2024)
		require.NoError(t, err, name)
		require.NotEmpty(t, files[1].Content, name)
	}
	for _, name := range gitignores {
		files, err := initFiles(r, CreateOptions{Gitignores: name}, "", 2024)
		require.NoError(t, err, name)
		require.True(t, strings.HasPrefix(string(files[1].Content), "# ---> "+name+"\n"), name)
	}
}
