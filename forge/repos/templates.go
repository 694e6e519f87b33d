package repos

import (
	"fmt"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// gitignoreTemplates are the .gitignore templates auto_init knows.
var gitignoreTemplates = map[string]string{
	"Go":     "# Binaries\n*.exe\n*.dll\n*.so\n*.dylib\n*.test\n*.out\n\n# Dependency directories\nvendor/\n",
	"Node":   "node_modules/\nnpm-debug.log*\ndist/\n.env\n",
	"Python": "__pycache__/\n*.py[cod]\n.venv/\nbuild/\ndist/\n*.egg-info/\n",
	"Rust":   "/target/\nCargo.lock\n",
	"Java":   "*.class\n*.jar\ntarget/\n",
	"C":      "*.o\n*.a\n*.so\n*.out\n",
}

// licenseTemplates are the licenses auto_init knows; %[1]d is the year and
// %[2]s the owner.
var licenseTemplates = map[string]string{
	"MIT": `MIT License

Copyright (c) %[1]d %[2]s

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`,
	"Unlicense": `This is free and unencumbered software released into the public domain.

Anyone is free to copy, modify, publish, use, compile, sell, or distribute
this software, either in source code form or as a compiled binary, for any
purpose, commercial or non-commercial, and by any means.
`,
}

// initFiles returns the files of an auto_init commit: README.md, and
// .gitignore and LICENSE when asked. Unknown templates are forge.ErrInvalid.
func initFiles(r *forge.Repository, o CreateOptions, year int) ([]FileOp, error) {
	if o.Readme != "" && o.Readme != "Default" {
		return nil, forge.Errorf(forge.ErrInvalid, "readme template does not exist, available templates: [Default]")
	}
	readme := "# " + r.Name + "\n"
	if r.Description != "" {
		readme += "\n" + r.Description + "\n"
	}
	files := []FileOp{{Op: "create", Path: "README.md", Content: []byte(readme)}}
	if o.Gitignores != "" {
		var b strings.Builder
		for _, name := range strings.Split(o.Gitignores, ",") {
			t, ok := gitignoreTemplates[strings.TrimSpace(name)]
			if !ok {
				return nil, forge.Errorf(forge.ErrInvalid, "gitignore template does not exist [name: %s]", name)
			}
			fmt.Fprintf(&b, "# ---> %s\n%s\n", strings.TrimSpace(name), t)
		}
		files = append(files, FileOp{Op: "create", Path: ".gitignore", Content: []byte(b.String())})
	}
	if o.License != "" {
		t, ok := licenseTemplates[o.License]
		if !ok {
			return nil, forge.Errorf(forge.ErrInvalid, "license template does not exist [name: %s]", o.License)
		}
		files = append(files, FileOp{Op: "create", Path: "LICENSE", Content: []byte(fmt.Sprintf(t, year, r.OwnerName))})
	}
	return files, nil
}
