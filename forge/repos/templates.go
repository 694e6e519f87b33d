package repos

import (
	"bytes"
	"embed"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// templates holds the auto_init templates, with Forgejo's names:
// options/gitignore/NAME from github/gitignore and options/license/NAME
// (SPDX identifiers) as Forgejo ships them in its options directory.
//
//go:embed options/gitignore options/license
var templates embed.FS

// Gitignores and Licenses list the template names auto_init knows, sorted.
func Gitignores() []string { return templateNames("options/gitignore") }

// Licenses lists the licence templates auto_init knows, sorted.
func Licenses() []string { return templateNames("options/license") }

// GitignoreTemplate returns the text of the gitignore template name, as
// Forgejo's /gitignore/templates/{name} shows it; false for an unknown name
// (names are matched exactly, and never hold a path separator).
func GitignoreTemplate(name string) ([]byte, bool) { return template("options/gitignore", name) }

// LicenseTemplate returns the text of the licence template name with its
// placeholders unfilled, as Forgejo's /licenses/{name} shows it; false for
// an unknown name.
func LicenseTemplate(name string) ([]byte, bool) { return template("options/license", name) }

// LicenseList lists the licence templates in Forgejo's order (its
// LoadRepoConfig): the preferred licences of its default [repository]
// PREFERRED_LICENSES, Apache-2.0 then MIT, first, then the others sorted.
func LicenseList() []string {
	preferred := []string{"Apache-2.0", "MIT"}
	all := Licenses()
	out := make([]string, 0, len(all))
	for _, p := range preferred {
		for _, n := range all {
			if strings.EqualFold(n, p) {
				out = append(out, n)
				break
			}
		}
	}
	for _, n := range all {
		keep := true
		for _, p := range preferred {
			keep = keep && !strings.EqualFold(n, p)
		}
		if keep {
			out = append(out, n)
		}
	}
	return out
}

func templateNames(dir string) []string {
	entries, _ := fs.ReadDir(templates, dir)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

// template returns the template dir/name; false for unknown names (and
// for names that are not a plain file name).
func template(dir, name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
		return nil, false
	}
	b, err := templates.ReadFile(dir + "/" + name)
	return b, err == nil
}

// licenseValues fill a licence's placeholders (Forgejo's licenseValues).
type licenseValues struct{ Owner, Email, Repo, Year string }

// fillLicense replaces Forgejo's placeholders in a licence text, line by
// line, as Forgejo's fillLicensePlaceholder does.
func fillLicense(name string, v licenseValues, text []byte) []byte {
	owner := []string{"<name of author>", "<owner>", "[NAME]", "[name of copyright owner]", "[name of copyright holder]",
		"<COPYRIGHT HOLDERS>", "<copyright holders>", "<AUTHOR>", "<author's name or designee>",
		"[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]"}
	email := []string{"[EMAIL]"}
	repo := []string{"<program>", "<one line to give the program's name and a brief idea of what it does.>"}
	year := []string{"<year>", "[YEAR]", "{YEAR}", "[yyyy]", "[Year]", "[year]"}
	var match *regexp.Regexp
	if name == "0BSD" {
		owner, email, repo, year = []string{"AUTHOR"}, []string{"EMAIL"}, nil, []string{"YEAR"}
		match = regexp.MustCompile(`Copyright \(C\) YEAR by AUTHOR EMAIL`)
	}
	var out strings.Builder
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(text), "\n"), "\n") {
		line = strings.TrimSuffix(line, "\n")
		if match == nil || match.MatchString(line) {
			for _, p := range owner {
				line = strings.ReplaceAll(line, p, v.Owner)
			}
			for _, p := range email {
				line = strings.ReplaceAll(line, p, v.Email)
			}
			for _, p := range repo {
				line = strings.ReplaceAll(line, p, v.Repo)
			}
			for _, p := range year {
				line = strings.ReplaceAll(line, p, v.Year)
			}
		}
		out.WriteString(line + "\n")
	}
	return []byte(out.String())
}

// initFiles returns the files of an auto_init commit as Forgejo writes
// them: README.md from the Default template (`# {Name}\n\n{Description}\n`),
// and .gitignore (each template under `# ---> NAME`) and LICENSE (with
// Forgejo's placeholders filled) when asked. Unknown templates are
// forge.ErrInvalid.
func initFiles(r *forge.Repository, o CreateOptions, email string, year int) ([]FileOp, error) {
	if o.Readme != "" && o.Readme != "Default" {
		return nil, forge.Errorf(forge.ErrInvalid, "readme template does not exist, available templates: [Default]")
	}
	readme := "# " + r.Name + "\n\n" + r.Description + "\n"
	files := []FileOp{{Op: "create", Path: "README.md", Content: []byte(readme)}}
	if o.Gitignores != "" {
		var b bytes.Buffer
		for _, name := range strings.Split(o.Gitignores, ",") {
			name = strings.TrimSpace(name)
			t, ok := template("options/gitignore", name)
			if !ok {
				return nil, forge.Errorf(forge.ErrInvalid, "gitignore template does not exist [name: %s]", name)
			}
			b.WriteString("# ---> " + name + "\n")
			b.Write(t)
			b.WriteString("\n")
		}
		files = append(files, FileOp{Op: "create", Path: ".gitignore", Content: b.Bytes()})
	}
	if o.License != "" {
		t, ok := template("options/license", o.License)
		if !ok {
			return nil, forge.Errorf(forge.ErrInvalid, "license template does not exist [name: %s]", o.License)
		}
		text := fillLicense(o.License, licenseValues{Owner: r.OwnerName, Email: email, Repo: r.Name, Year: strconv.Itoa(year)}, t)
		files = append(files, FileOp{Op: "create", Path: "LICENSE", Content: text})
	}
	return files, nil
}
