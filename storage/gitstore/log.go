package gitstore

import (
	"context"
	"errors"
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
//
// The commits of a page (up to maxCachedLog) are cached by the id the page
// starts from, its path, skip and limit; each commit and its stats by id:
// a warm page asks git nothing. The head commit alone (a branch's tip) is
// read through the cat-file pool.
func (s *Store) Log(ctx context.Context, repo forge.ID, o repos.LogOptions) ([]*repos.Commit, error) {
	id, err := s.Resolve(ctx, repo, o.Rev)
	if err != nil {
		return nil, err
	}
	if s.cliOnly {
		return s.cliLog(ctx, repo, id, o)
	}
	cacheable := o.Limit > 0 && o.Limit <= maxCachedLog
	key := cacheKey(repo, id) + "\x00" + o.Path + "\x00" + strconv.Itoa(o.Skip) + "\x00" + strconv.Itoa(o.Limit)
	if cacheable {
		if ids, ok := s.cache.logs.get(key); ok {
			if list, ok := s.cachedCommits(repo, ids, o.Files); ok {
				return list, nil
			}
		}
	}
	if o.Path == "" && o.Skip == 0 && o.Limit == 1 && !o.Files {
		c, err := s.readCommit(ctx, repo, id)
		if err == nil {
			return []*repos.Commit{copyCommit(c, nil)}, nil
		}
		if !errors.Is(err, errUnparsed) {
			return nil, err
		}
	}
	list, err := s.cliLog(ctx, repo, id, o)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
		ckey := cacheKey(repo, c.ID)
		s.cache.commits.putCost(ckey, copyCommit(c, nil), commitCost(c))
		if o.Files {
			s.cache.stats.putCost(ckey, append([]repos.FileChangeStat{}, c.Files...), statsCost(c.Files))
		}
	}
	if cacheable {
		s.cache.logs.putCost(key, ids, int64(len(ids))*80)
	}
	return list, nil
}

// maxCachedLog is the longest page of Log that is cached.
const maxCachedLog = 100

// cachedCommits assembles the commits ids (with their files) from the
// caches; ok is false if one is missing.
func (s *Store) cachedCommits(repo forge.ID, ids []string, files bool) ([]*repos.Commit, bool) {
	if len(ids) == 0 {
		return nil, true // as parseLog answers an empty log
	}
	list := make([]*repos.Commit, len(ids))
	for i, id := range ids {
		key := cacheKey(repo, id)
		c, ok := s.cache.commits.get(key)
		if !ok {
			return nil, false
		}
		var st []repos.FileChangeStat
		if files {
			if st, ok = s.cache.stats.get(key); !ok {
				return nil, false
			}
		}
		list[i] = copyCommit(c, st)
	}
	return list, true
}

// cliLog is Log from `git log` of the commit id.
func (s *Store) cliLog(ctx context.Context, repo forge.ID, id string, o repos.LogOptions) ([]*repos.Commit, error) {
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
// Counts are cached by commit id and path.
func (s *Store) CountCommits(ctx context.Context, repo forge.ID, rev, path string) (int, error) {
	id, err := s.Resolve(ctx, repo, rev)
	if err != nil {
		return 0, err
	}
	key := cacheKey(repo, id) + "\x00" + path
	if n, ok := s.cache.counts.get(key); ok && !s.cliOnly {
		return n, nil
	}
	n, err := s.cliCount(ctx, repo, id, path)
	if err == nil && !s.cliOnly {
		s.cache.counts.put(key, n)
	}
	return n, err
}

func (s *Store) cliCount(ctx context.Context, repo forge.ID, id, path string) (int, error) {
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
