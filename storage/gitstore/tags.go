package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Tag reads an annotated tag object.
func (s *Store) Tag(ctx context.Context, repo forge.ID, oid string) (*repos.AnnotatedTag, error) {
	typ, _, err := s.cliObject(ctx, repo, oid)
	if err != nil {
		return nil, err
	}
	if typ != "tag" {
		return nil, forge.Errorf(forge.ErrNotFound, "object is not an annotated tag [id: %s]", oid)
	}
	out, err := s.run(ctx, repo, nil, nil, "cat-file", "tag", oid)
	if err != nil {
		return nil, err
	}
	head, msg, _ := strings.Cut(string(out), "\n\n")
	t := &repos.AnnotatedTag{ID: oid, Message: repos.StripTagSignature(msg)}
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "object":
			t.Object = v
		case "type":
			t.ObjectType = v
		case "tag":
			t.Name = v
		case "tagger":
			t.Tagger = parseIdent(v)
		}
	}
	return t, nil
}

// parseIdent reads "Name <email> 1700000000 +0100".
func parseIdent(v string) repos.Signature {
	lt, gt := strings.Index(v, "<"), strings.LastIndex(v, ">")
	if lt < 0 || gt < lt {
		return repos.Signature{Name: v}
	}
	sig := repos.Signature{Name: strings.TrimSpace(v[:lt]), Email: v[lt+1 : gt]}
	f := strings.Fields(v[gt+1:])
	if len(f) >= 1 {
		if sec, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			sig.When = time.Unix(sec, 0).UTC()
		}
	}
	return sig
}

// CreateTag makes refs/tags/name point at target. The name only ever
// reaches git as the full reference name refs/tags/<name> or after
// --end-of-options, so a name like "-n" is never read as an option; the
// message gets git's default cleanup, as Forgejo's `git tag -a -m` does
// (comment lines, trailing spaces and blank lines at either end removed,
// a final newline added).
func (s *Store) CreateTag(ctx context.Context, repo forge.ID, name, target, message string, tagger repos.Signature) error {
	ref := "refs/tags/" + name
	if err := repos.CheckRefName(name); err != nil {
		return err
	}
	if _, err := s.run(ctx, 0, nil, nil, "check-ref-format", ref); err != nil {
		return forge.Errorf(forge.ErrInvalid, "invalid tag name %q", name)
	}
	id, err := s.Resolve(ctx, repo, target)
	if err != nil {
		return err
	}
	if _, err := s.Resolve(ctx, repo, ref); err == nil {
		return forge.Errorf(forge.ErrConflict, "tag already exists [name: %s]", name)
	}
	if message == "" {
		return s.SetRef(ctx, repo, ref, id, "")
	}
	env := []string{"GIT_COMMITTER_NAME=" + tagger.Name, "GIT_COMMITTER_EMAIL=" + tagger.Email,
		"GIT_COMMITTER_DATE=" + tagger.When.UTC().Format(time.RFC3339)}
	_, err = s.run(ctx, repo, []byte(message), env, "tag", "-a", "-F", "-", "--end-of-options", name, id)
	var ge *gitError
	if errors.As(err, &ge) && strings.Contains(ge.stderr, "already exists") {
		return forge.Errorf(forge.ErrConflict, "tag already exists [name: %s]", name)
	}
	return err
}

// Messages reads the messages of the commits and annotated tags among ids
// with one git cat-file --batch (see repos.MessageReader).
func (s *Store) Messages(ctx context.Context, repo forge.ID, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	var in strings.Builder
	for _, id := range ids {
		if id != "" && !strings.ContainsAny(id, " \t\n") {
			in.WriteString(id + "\n")
		}
	}
	if in.Len() == 0 {
		return out, nil
	}
	b, err := s.run(ctx, repo, []byte(in.String()), nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("gitstore: cat-file --batch: truncated header")
		}
		f := strings.Fields(string(b[:nl]))
		b = b[nl+1:]
		if len(f) != 3 { // "<id> missing" and the like
			continue
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || size+1 > len(b) {
			return nil, fmt.Errorf("gitstore: cat-file --batch: bad header %q", f)
		}
		body := string(b[:size])
		b = b[size+1:]
		_, msg, _ := strings.Cut(body, "\n\n")
		switch f[1] {
		case "tag":
			out[f[0]] = repos.StripTagSignature(msg)
		case "commit":
			out[f[0]] = msg
		}
	}
	return out, nil
}

// Messages is read in one pass.
var _ repos.MessageReader = (*Store)(nil)
