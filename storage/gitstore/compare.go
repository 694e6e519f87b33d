package gitstore

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Compare lists the commits of `git log base..head`, newest first, with
// files and line stats exactly as Log gives them (the same format, flags
// and parser), and counts them all (`git rev-list --count base..head`).
func (s *Store) Compare(ctx context.Context, repo forge.ID, base, head string, o repos.LogOptions) ([]*repos.Commit, int, error) {
	b, err := s.commitID(ctx, repo, base)
	if err != nil {
		return nil, 0, err
	}
	h, err := s.commitID(ctx, repo, head)
	if err != nil {
		return nil, 0, err
	}
	return s.compare(ctx, repo, nil, b, h, o)
}

// compare is Compare of the commit ids b and h, git run with env.
func (s *Store) compare(ctx context.Context, repo forge.ID, env []string, b, h string, o repos.LogOptions) ([]*repos.Commit, int, error) {
	rng := b + ".." + h
	out, err := s.run(ctx, repo, nil, env, "rev-list", "--count", rng)
	if err != nil {
		return nil, 0, err
	}
	total, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, 0, err
	}
	list := []*repos.Commit{}
	if o.Skip >= total {
		return list, total, nil
	}
	args := []string{"log", logFormat}
	if o.Files {
		args = append(args, "--numstat", "--summary", "--no-renames", "--diff-merges=first-parent")
	}
	if o.Skip > 0 {
		args = append(args, "--skip="+strconv.Itoa(o.Skip))
	}
	if o.Limit > 0 {
		args = append(args, "--max-count="+strconv.Itoa(o.Limit))
	}
	out, err = s.run(ctx, repo, nil, env, append(args, rng)...)
	if err != nil {
		return nil, 0, err
	}
	parsed, err := parseLog(string(out), o.Files)
	if err != nil {
		return nil, 0, err
	}
	if parsed != nil {
		list = parsed
	}
	return list, total, nil
}

// DiffFiles lists the files of `git diff -M base head` from one run of
// git with --raw (statuses, both paths of a rename) and --numstat (line
// counts; "-" for binary files counts 0), NUL-separated, and names each
// status as Forgejo's ToChangedFile does.
func (s *Store) DiffFiles(ctx context.Context, repo forge.ID, base, head string) ([]repos.FileChangeStat, error) {
	b, err := s.commitID(ctx, repo, base)
	if err != nil {
		return nil, err
	}
	h, err := s.commitID(ctx, repo, head)
	if err != nil {
		return nil, err
	}
	return s.diffFiles(ctx, repo, nil, b, h)
}

// diffFiles is DiffFiles of the commit ids b and h, git run with env.
func (s *Store) diffFiles(ctx context.Context, repo forge.ID, env []string, b, h string) ([]repos.FileChangeStat, error) {
	out, err := s.run(ctx, repo, nil, env, "diff", "--raw", "--numstat", "-z", "-M", "--no-color", "--no-ext-diff",
		"--no-textconv", b, h)
	if err != nil {
		return nil, err
	}
	files, err := parseRawNumstat(string(out))
	if err != nil {
		return nil, err
	}
	return files, nil
}

// parseRawNumstat reads `git diff --raw --numstat -z`: first one raw record
// per file (":<modes> <ids> <status>\0<path>\0", with a second path for a
// rename or copy), then one numstat record per file in the same order
// ("<add>\t<del>\t<path>\0", or "<add>\t<del>\t\0<old>\0<new>\0").
func parseRawNumstat(out string) ([]repos.FileChangeStat, error) {
	fields := strings.Split(out, "\x00")
	files := []repos.FileChangeStat{}
	i := 0
	for i < len(fields) && strings.HasPrefix(fields[i], ":") {
		meta := strings.Fields(fields[i])
		if len(meta) < 5 || i+1 >= len(fields) {
			return nil, forge.Errorf(forge.ErrInvalid, "unexpected git diff output")
		}
		f := repos.FileChangeStat{Filename: fields[i+1]}
		i += 2
		switch code := meta[4][0]; code {
		case 'A':
			f.Status = "added"
		case 'D':
			f.Status = "deleted"
		case 'R', 'C':
			if i >= len(fields) {
				return nil, forge.Errorf(forge.ErrInvalid, "unexpected git diff output")
			}
			f.PreviousFilename, f.Filename = f.Filename, fields[i]
			i++
			f.Status = "renamed"
			if code == 'C' {
				f.Status, f.PreviousFilename = "copied", ""
			}
		default:
			f.Status = "changed"
		}
		files = append(files, f)
	}
	for n := range files {
		if i >= len(fields) {
			return nil, forge.Errorf(forge.ErrInvalid, "unexpected git diff output")
		}
		parts := strings.SplitN(fields[i], "\t", 3)
		if len(parts) != 3 {
			return nil, forge.Errorf(forge.ErrInvalid, "unexpected git diff output")
		}
		i++
		if parts[2] == "" { // a rename: old and new paths follow
			i += 2
		}
		files[n].Additions, _ = strconv.Atoi(parts[0])
		files[n].Deletions, _ = strconv.Atoi(parts[1])
		if files[n].Status == "changed" && files[n].Additions == 0 && files[n].Deletions == 0 {
			files[n].Status = "unchanged"
		}
	}
	return files, nil
}

// Diff writes the change from base to head as Forgejo's GetDiffOrPatch
// does: "diff" (`git diff -p`), "binary" (with --binary --histogram) or
// "patch" (`git format-patch --binary --stdout base...head`, or base head
// when they share no history).
func (s *Store) Diff(ctx context.Context, repo forge.ID, base, head, kind string, w io.Writer) error {
	var args []string
	switch kind {
	case "diff":
		args = []string{"diff", "-p", "--no-color", "--no-ext-diff", "--no-textconv"}
	case "binary":
		args = []string{"diff", "-p", "--binary", "--histogram", "--no-color", "--no-ext-diff", "--no-textconv"}
	case "patch":
		args = []string{"format-patch", "--binary", "--stdout", "--no-color"}
	default:
		return forge.Errorf(forge.ErrInvalid, "unknown diff type %q", kind)
	}
	b, err := s.commitID(ctx, repo, base)
	if err != nil {
		return err
	}
	h, err := s.commitID(ctx, repo, head)
	if err != nil {
		return err
	}
	if kind == "patch" {
		if _, err := s.mergeBase(ctx, repo, b, h, nil); err == nil {
			return s.stream(ctx, repo, w, append(args, b+"..."+h)...)
		}
	}
	return s.stream(ctx, repo, w, append(args, b, h)...)
}
