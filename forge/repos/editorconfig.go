package repos

import (
	"bytes"
	"context"
	"errors"

	"github.com/editorconfig/editorconfig-core-go/v2"

	"github.com/hearthforge/hearth/forge"
)

// EditorconfigDefinition is what the .editorconfig of a revision defines
// for one file, as Forgejo's GetEditorconfig answers it (the editorconfig
// library's Definition: these four properties; "" when not set).
type EditorconfigDefinition struct {
	Charset, IndentStyle, IndentSize, EndOfLine string
}

// MaxEditorconfigSize is the largest .editorconfig read (Forgejo's [ui]
// MAX_DISPLAY_FILE_SIZE, 8 MiB): a larger one counts as none.
const MaxEditorconfigSize = 8 << 20

// Editorconfig returns the definition the .editorconfig at the root of ref
// ("" is the default branch; a branch, tag or commit id) gives the file
// at path (matched as EditorConfig globs match, whether or not the file
// exists). Readers only; a token needs read:repository. forge.ErrNotFound
// for an unknown ref and when the revision has no .editorconfig (or one
// that is no file, larger than MaxEditorconfigSize, or no INI file).
func (s *Service) Editorconfig(ctx context.Context, actor forge.Actor, owner, name, ref, path string) (*View, *EditorconfigDefinition, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	rr, err := s.resolveRef(ctx, v, ref, true)
	if err != nil {
		return nil, nil, err
	}
	none := forge.Errorf(forge.ErrNotFound, "object does not exist [id: , rel_path: .editorconfig]")
	e, err := s.git.Entry(ctx, v.Repo.ID, rr.Commit, ".editorconfig")
	if errors.Is(err, forge.ErrNotFound) || err == nil && (e.Type != "blob" || e.Size >= MaxEditorconfigSize) {
		return nil, nil, none
	} else if err != nil {
		return nil, nil, err
	}
	data, err := s.git.Blob(ctx, v.Repo.ID, e.ID)
	if err != nil {
		return nil, nil, err
	}
	ec, _, err := editorconfig.ParseGraceful(bytes.NewReader(data))
	if err != nil {
		return nil, nil, none
	}
	def, err := ec.GetDefinitionForFilename(path)
	if err != nil {
		return nil, nil, forge.Errorf(forge.ErrNotFound, "no definition for %s: %v", path, err)
	}
	return v, &EditorconfigDefinition{Charset: def.Charset, IndentStyle: def.IndentStyle, IndentSize: def.IndentSize,
		EndOfLine: def.EndOfLine}, nil
}
