package repos

import (
	"context"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MessageReader is implemented by a Git that reads the messages of many
// objects in one pass (storage/gitstore with one git cat-file --batch,
// storage/memgit from memory). The tag list uses it so that a page of tags
// costs one read, not one per tag; a Git without it is asked per object.
type MessageReader interface {
	// Messages returns, by id, the message of each commit and annotated tag
	// object among ids, as git for-each-ref's %(contents) shows it: a tag's
	// without its signature (StripTagSignature). Ids naming no commit or
	// tag object are left out. forge.ErrNotFound for a missing repository.
	Messages(ctx context.Context, repo forge.ID, ids []string) (map[string]string, error)
}

// StripTagSignature returns a tag object's message without the PGP or SSH
// signature git appends to a signed tag's, as Forgejo's parseTagData: the
// last "-----BEGIN ... SIGNATURE-----" line that has its END line, and
// everything after it, goes; the newline before it stays.
func StripTagSignature(msg string) string {
	for _, mark := range [][2]string{
		{"\n-----BEGIN PGP SIGNATURE-----\n", "\n-----END PGP SIGNATURE-----"},
		{"\n-----BEGIN SSH SIGNATURE-----\n", "\n-----END SSH SIGNATURE-----"},
	} {
		if i := strings.LastIndex(msg, mark[0]); i >= 0 && strings.Contains(msg[i:], mark[1]) {
			return msg[:i+1]
		}
	}
	return msg
}

// messages reads the messages of refs' targets: an annotated tag's own
// message, a lightweight tag's commit message (Forgejo shows a lightweight
// tag with the message of its commit).
func (s *Service) messages(ctx context.Context, repo forge.ID, refs []Ref) (map[string]string, error) {
	ids := make([]string, 0, len(refs))
	for _, r := range refs {
		ids = append(ids, r.Target)
	}
	if mr, ok := s.git.(MessageReader); ok {
		return mr.Messages(ctx, repo, ids)
	}
	out := make(map[string]string, len(refs))
	for _, r := range refs {
		switch r.Type {
		case "tag":
			t, err := s.git.Tag(ctx, repo, r.Target)
			if err != nil {
				return nil, err
			}
			out[r.Target] = StripTagSignature(t.Message)
		case "commit":
			log, err := s.git.Log(ctx, repo, LogOptions{Rev: r.Target, Limit: 1})
			if err != nil {
				return nil, err
			}
			if len(log) == 1 {
				out[r.Target] = log[0].Message
			}
		}
	}
	return out, nil
}
