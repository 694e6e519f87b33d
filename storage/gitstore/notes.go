package gitstore

import (
	"context"
	"errors"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

var _ repos.NotesGit = (*Store)(nil)

// SetNote writes message as the note of commit with `git notes add -f`
// (the message on stdin, the identity in the environment), serialised with
// the Store's other writes to the repository, and returns the move of
// repos.NotesRef.
func (s *Store) SetNote(ctx context.Context, repo forge.ID, commit, message string, by repos.Signature) (repos.RefUpdate, error) {
	if !s.isRepoID(repo, commit) {
		return repos.RefUpdate{}, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", commit)
	}
	if err := repos.CheckSignature("author", by); err != nil {
		return repos.RefUpdate{}, err
	}
	if strings.ContainsRune(message, 0) {
		return repos.RefUpdate{}, forge.Errorf(forge.ErrInvalid, "note message contains a NUL byte")
	}
	return s.moveNotes(ctx, repo, []byte(message), by, "notes", "--ref="+repos.NotesRef, "add", "-f", "-F", "-", commit)
}

// RemoveNote removes the note of commit with `git notes remove`, as
// SetNote writes one.
func (s *Store) RemoveNote(ctx context.Context, repo forge.ID, commit string, by repos.Signature) (repos.RefUpdate, error) {
	if !s.isRepoID(repo, commit) {
		return repos.RefUpdate{}, forge.Errorf(forge.ErrNotFound, "object does not exist [id: %s]", commit)
	}
	if err := repos.CheckSignature("author", by); err != nil {
		return repos.RefUpdate{}, err
	}
	u, err := s.moveNotes(ctx, repo, nil, by, "notes", "--ref="+repos.NotesRef, "remove", commit)
	var ge *gitError
	if errors.As(err, &ge) && strings.Contains(ge.stderr, "has no note") {
		return repos.RefUpdate{}, forge.Errorf(forge.ErrNotFound, "note does not exist [commit: %s]", commit)
	}
	return u, err
}

// moveNotes runs a git notes command under the repository's write lock and
// returns the move of repos.NotesRef it made: the previous value is the
// new notes commit's parent (so a push of the notes between the two reads
// cannot show as this move), no move when the ref did not change.
func (s *Store) moveNotes(ctx context.Context, repo forge.ID, stdin []byte, by repos.Signature, args ...string) (repos.RefUpdate, error) {
	unlock := s.lock(repo)
	defer unlock()
	u := repos.RefUpdate{Ref: repos.NotesRef}
	before, err := s.notesTip(ctx, repo)
	if err != nil {
		return u, err
	}
	if _, err := s.run(ctx, repo, stdin, identityEnv(by, by), args...); err != nil {
		return u, err
	}
	after, err := s.notesTip(ctx, repo)
	if err != nil || after == before {
		u.OldID, u.NewID = before, before
		return u, err
	}
	u.NewID = after
	if out, err := s.run(ctx, repo, nil, nil, "rev-parse", "--verify", "--quiet", after+"^1"); err == nil {
		u.OldID = strings.TrimSpace(string(out))
	}
	return u, nil
}

// notesTip is the commit repos.NotesRef points at ("" when there is none).
func (s *Store) notesTip(ctx context.Context, repo forge.ID) (string, error) {
	out, err := s.run(ctx, repo, nil, nil, "for-each-ref", "--format=%(objectname)", repos.NotesRef)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
