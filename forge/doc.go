// Package forge is Hearth's kernel: identifiers, the core entity types shared
// by every domain (users first), the acting user ([Actor]), the [Clock], list
// paging ([ListOptions]) and the error categories every layer speaks
// ([ErrNotFound], [ErrConflict], …).
//
// forge imports the standard library only. Domain packages (auth, quota,
// issues, mirror, forge/...) build on it; storage backends implement the
// stores those domains declare; httpapi maps forge errors to HTTP.
package forge
