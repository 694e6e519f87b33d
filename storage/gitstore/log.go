package gitstore

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// logFormat prints one commit as NUL-separated fields after a record
// separator; the message (%B) is last and NUL-terminated, so it may hold
// anything but NUL.
const logFormat = "--format=%x1e%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00"

// Log lists commits reachable from o.Rev, newest first. With o.Files each
// commit carries its files with git's exact line counts (`git log --numstat
// --summary --no-renames`, merges against their first parent), the numbers
// Forgejo reports.
func (s *Store) Log(ctx context.Context, repo forge.ID, o repos.LogOptions) ([]*repos.Commit, error) {
	id, err := s.Resolve(ctx, repo, o.Rev)
	if err != nil {
		return nil, err
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
	args = append(args, id)
	if o.Path != "" {
		args = append(args, "--", o.Path)
	}
	out, err := s.run(ctx, repo, nil, nil, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(string(out), o.Files)
}

func parseLog(out string, files bool) ([]*repos.Commit, error) {
	var commits []*repos.Commit
	for _, rec := range strings.Split(out, "\x1e") {
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\x00", 11)
		if len(f) < 10 {
			return nil, forge.Errorf(forge.ErrInvalid, "unexpected git log output")
		}
		c := &repos.Commit{
			ID:        f[0],
			Tree:      f[1],
			Author:    repos.Signature{Name: f[3], Email: f[4], When: parseTime(f[5])},
			Committer: repos.Signature{Name: f[6], Email: f[7], When: parseTime(f[8])},
			Message:   f[9],
		}
		if f[2] != "" {
			c.Parents = strings.Fields(f[2])
		} else {
			c.Parents = []string{}
		}
		if files {
			c.Files = []repos.FileChangeStat{}
			if len(f) == 11 {
				c.Files = parseStats(f[10])
			}
		}
		commits = append(commits, c)
	}
	return commits, nil
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

// parseStats reads --numstat lines ("12\t3\tpath", "-\t-\tpath" for binary
// files) and --summary lines (" create mode 100644 path", " delete mode …").
func parseStats(text string) []repos.FileChangeStat {
	var out []repos.FileChangeStat
	index := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, " ") {
			fields := strings.SplitN(strings.TrimSpace(line), " ", 4)
			if len(fields) == 4 && fields[1] == "mode" {
				path := unquote(fields[3])
				if i, ok := index[path]; ok {
					switch fields[0] {
					case "create":
						out[i].Status = "added"
					case "delete":
						out[i].Status = "removed"
					}
				}
			}
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		add, _ := strconv.Atoi(parts[0])
		del, _ := strconv.Atoi(parts[1])
		path := unquote(parts[2])
		index[path] = len(out)
		out = append(out, repos.FileChangeStat{Filename: path, Status: "modified", Additions: add, Deletions: del})
	}
	if out == nil {
		out = []repos.FileChangeStat{}
	}
	return out
}

func unquote(p string) string {
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// CountCommits counts the commits reachable from rev (touching path, if set).
func (s *Store) CountCommits(ctx context.Context, repo forge.ID, rev, path string) (int, error) {
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return 0, err
	}
	args := []string{"rev-list", "--count", id}
	if path != "" {
		args = append(args, "--", path)
	}
	out, err := s.run(ctx, repo, nil, nil, args...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}
