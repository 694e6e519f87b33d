package repos

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// Note is the git note of a commit (Forgejo's git.Note).
type Note struct {
	Message string
	// Commit is the commit of NotesRef that last wrote the note, as
	// Forgejo's GetNote answers it (not the commit the note is about).
	Commit *Commit
}

// GetNote returns the note of the commit rev names (a branch, tag or
// commit id, short ids included). Readers only (forge.ErrNotFound
// otherwise); a token needs read:repository. rev that is no ref pattern is
// forge.ErrInvalid `no valid ref or sha: <rev>` (Forgejo's 422); a
// revision that names nothing, or a commit without a note, is
// forge.ErrNotFound. files includes the note commit's files.
func (s *Service) GetNote(ctx context.Context, actor forge.Actor, owner, name, rev string, files bool) (*View, *Note, error) {
	v, err := s.contentReader(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, err
	}
	commit, err := s.noteTarget(ctx, v, rev)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.noteOf(ctx, v.Repo.ID, commit, files)
	return v, n, err
}

// SetNote makes message the note of the commit rev names, written by the
// actor at the service's clock, and returns it as GetNote does. Writers
// of the code only (Forgejo's reqRepoWriter), not archived; a token needs
// write:repository. The move of NotesRef is recorded as every ref move is
// (recordRefMoves): the repository's size follows, and, as Forgejo, no
// webhook is sent for a ref that is neither branch nor tag. Errors as
// GetNote; an empty message removes the note as git does, and the answer
// is then forge.ErrNotFound.
func (s *Service) SetNote(ctx context.Context, actor forge.Actor, owner, name, rev, message string) (*View, *Note, error) {
	v, ng, commit, err := s.noteWriter(ctx, actor, owner, name, rev)
	if err != nil {
		return nil, nil, err
	}
	u, err := ng.SetNote(ctx, v.Repo.ID, commit, message, s.actorSignature(actor))
	if err != nil {
		return nil, nil, err
	}
	s.recordNoteMove(ctx, actor, v, u)
	n, err := s.noteOf(ctx, v.Repo.ID, commit, true)
	return v, n, err
}

// RemoveNote removes the note of the commit rev names. Who may, and the
// errors, as SetNote; a commit without a note is forge.ErrNotFound (Forgejo
// answers git's failure with a 500).
func (s *Service) RemoveNote(ctx context.Context, actor forge.Actor, owner, name, rev string) error {
	v, ng, commit, err := s.noteWriter(ctx, actor, owner, name, rev)
	if err != nil {
		return err
	}
	u, err := ng.RemoveNote(ctx, v.Repo.ID, commit, s.actorSignature(actor))
	if err != nil {
		return err
	}
	s.recordNoteMove(ctx, actor, v, u)
	return nil
}

// noteWriter checks a note write of the actor on owner/name and resolves
// rev to its commit.
func (s *Service) noteWriter(ctx context.Context, actor forge.Actor, owner, name, rev string) (*View, NotesGit, string, error) {
	v, err := s.writer(ctx, actor, owner, name)
	if err != nil {
		return nil, nil, "", err
	}
	commit, err := s.noteTarget(ctx, v, rev)
	if err != nil {
		return nil, nil, "", err
	}
	ng, ok := s.git.(NotesGit)
	if !ok {
		return nil, nil, "", forge.Errorf(forge.ErrInvalid, "git notes are not supported by this git storage")
	}
	return v, ng, commit, nil
}

// noteTarget is the commit rev names in v's repository.
func (s *Service) noteTarget(ctx context.Context, v *View, rev string) (string, error) {
	if !ValidRefPattern(rev) {
		return "", forge.Errorf(forge.ErrInvalid, "no valid ref or sha: %s", rev)
	}
	rr, err := s.resolveRef(ctx, v, rev, true)
	if err != nil {
		return "", err
	}
	return rr.Commit, nil
}

// recordNoteMove records the move u of NotesRef (nothing when it did not
// move); a failure is logged: the note is written.
func (s *Service) recordNoteMove(ctx context.Context, actor forge.Actor, v *View, u RefUpdate) {
	if u.OldID == u.NewID {
		return
	}
	if err := s.recordRefMoves(ctx, refMoves{actor: actor, repo: v.Repo.ID, updates: []RefUpdate{u}}); err != nil {
		s.log.ErrorContext(ctx, "ref move after a note", "repo", v.Repo.ID, "err", err)
	}
}

// actorSignature is the actor as the author of a git write, now.
func (s *Service) actorSignature(actor forge.Actor) Signature {
	sig := Signature{When: s.clock.Now()}
	if actor.User != nil {
		sig.Name, sig.Email = actor.User.Name, actor.User.Email
	}
	return sig
}

// noteOf reads the note of commit from the tree of NotesRef, whose paths
// may be fanned out (ab/cdef…, ab/cd/ef…), as Forgejo's git.GetNote walks
// it, and the commit of NotesRef that last wrote it.
func (s *Service) noteOf(ctx context.Context, repo forge.ID, commit string, files bool) (*Note, error) {
	missing := forge.Errorf(forge.ErrNotFound, "note does not exist [commit: %s]", commit)
	tip, err := s.git.Resolve(ctx, repo, NotesRef)
	if errors.Is(err, forge.ErrNotFound) {
		return nil, missing
	} else if err != nil {
		return nil, err
	}
	prefix, rest := "", commit
	var blob *TreeEntry
	for blob == nil {
		if len(rest) <= 2 {
			return nil, missing
		}
		e, err := s.git.Entry(ctx, repo, tip, prefix+rest)
		switch {
		case err == nil && e.Type == "blob":
			blob = e
			continue
		case err != nil && !errors.Is(err, forge.ErrNotFound):
			return nil, err
		}
		sub, err := s.git.Entry(ctx, repo, tip, prefix+rest[:2])
		if errors.Is(err, forge.ErrNotFound) || err == nil && sub.Type != "tree" {
			return nil, missing
		} else if err != nil {
			return nil, err
		}
		prefix, rest = prefix+rest[:2]+"/", rest[2:]
	}
	msg, err := s.git.Blob(ctx, repo, blob.ID)
	if err != nil {
		return nil, err
	}
	log, err := s.git.Log(ctx, repo, LogOptions{Rev: tip, Path: prefix + rest, Limit: 1, Files: files})
	if err != nil {
		return nil, err
	}
	if len(log) == 0 {
		return nil, missing
	}
	return &Note{Message: string(msg), Commit: log[0]}, nil
}
