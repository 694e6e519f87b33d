package repos

import (
	"context"
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

// Languages returns the bytes of code per language on the default branch.
func (s *Service) Languages(ctx context.Context, actor forge.Actor, owner, name string) (map[string]int64, error) {
	v, err := s.reader(ctx, actor, owner, name)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	if v.Repo.Empty {
		return out, nil
	}
	rr, err := s.resolveRef(ctx, v, "", false)
	if err != nil {
		return nil, err
	}
	entries, err := s.git.Tree(ctx, v.Repo.ID, rr.Commit, "", true)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if lang := LanguageOf(e.Path); e.Type == "blob" && lang != "" {
			out[lang] += e.Size
		}
	}
	return out, nil
}
