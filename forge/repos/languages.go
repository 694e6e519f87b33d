package repos

import (
	"context"
	"iter"
	"path"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// languageByExt maps file extensions to language names, as linguist names
// them (the subset a forge meets most).
var languageByExt = map[string]string{
	".go": "Go", ".rs": "Rust", ".py": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".ts": "TypeScript",
	".tsx": "TSX", ".jsx": "JavaScript", ".java": "Java", ".kt": "Kotlin", ".c": "C", ".h": "C", ".cc": "C++",
	".cpp": "C++", ".hpp": "C++", ".cs": "C#", ".rb": "Ruby", ".php": "PHP", ".swift": "Swift", ".scala": "Scala",
	".sh": "Shell", ".bash": "Shell", ".html": "HTML", ".css": "CSS", ".scss": "SCSS", ".vue": "Vue",
	".lua": "Lua", ".pl": "Perl", ".hs": "Haskell", ".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang",
	".clj": "Clojure", ".dart": "Dart", ".zig": "Zig", ".nim": "Nim", ".ml": "OCaml", ".r": "R", ".sql": "SQL",
	".tf": "HCL", ".nix": "Nix", ".m": "Objective-C", ".mm": "Objective-C++", ".f90": "Fortran", ".jl": "Julia",
}

// LanguageOf names the programming language of a file by its extension,
// "" for files that are not code (documentation, data, vendored paths).
func LanguageOf(p string) string {
	if strings.HasPrefix(p, "vendor/") || strings.Contains(p, "/vendor/") || strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/") {
		return ""
	}
	if path.Base(p) == "Makefile" {
		return "Makefile"
	}
	if path.Base(p) == "Dockerfile" {
		return "Dockerfile"
	}
	return languageByExt[strings.ToLower(path.Ext(p))]
}

// LanguageStats sums the sizes of the blobs of a tree listing per
// language (LanguageOf), reading the listing once as it streams. It stops
// at the listing's first error.
func LanguageStats(entries iter.Seq2[TreeEntry, error]) (map[string]int64, error) {
	out := map[string]int64{}
	for e, err := range entries {
		if err != nil {
			return nil, err
		}
		if lang := LanguageOf(e.Path); e.Type == "blob" && lang != "" {
			out[lang] += e.Size
		}
	}
	return out, nil
}

// Languages returns the bytes of code per language on the default branch
// (the branch, never a tag of its name), computed by Git.Languages from
// one streamed listing of its tree (and cached by the store per tree id).
func (s *Service) Languages(ctx context.Context, actor forge.Actor, owner, name string) (map[string]int64, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	if v.Repo.Empty {
		return map[string]int64{}, nil
	}
	rr, err := s.resolveRef(ctx, v, "", false)
	if err != nil {
		return nil, err
	}
	root, err := s.git.Entry(ctx, v.Repo.ID, rr.Commit, "")
	if err != nil {
		return nil, err
	}
	return s.git.Languages(ctx, v.Repo.ID, root.ID)
}
