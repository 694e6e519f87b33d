package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/issues"
)

// TestMerge merges head into base with `git merge-tree --write-tree` in a
// quarantine that is removed afterwards: the repository gains no object.
func (s *Store) TestMerge(ctx context.Context, repo forge.ID, base, head string) (*issues.MergeCheck, error) {
	b, err := s.commitID(ctx, repo, base)
	if err != nil {
		return nil, err
	}
	h, err := s.commitID(ctx, repo, head)
	if err != nil {
		return nil, err
	}
	q, err := s.newQuarantine(repo)
	if err != nil {
		return nil, err
	}
	defer q.remove()
	tree, conflicts, err := s.mergeTree(ctx, repo, q.env(), b, h)
	if err != nil {
		return nil, err
	}
	if conflicts != nil {
		return &issues.MergeCheck{Conflicts: conflicts}, nil
	}
	return &issues.MergeCheck{Tree: tree}, nil
}

// mergeTree is `git merge-tree --write-tree` of commits a and b: the tree
// of the merge, and the conflicting paths when it conflicts (exit status
// 1): non-nil then, even if git named none.
func (s *Store) mergeTree(ctx context.Context, repo forge.ID, env []string, a, b string) (string, []string, error) {
	args := []string{"merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", a, b}
	c := s.cmd(ctx, repo, env, args...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	out := stdout.Bytes()
	if err != nil {
		err = &gitError{args: args, err: err, stderr: stderr.String()}
	}
	code := exitCode(err)
	if code != 0 && code != 1 {
		if strings.Contains(err.Error(), "unrelated histories") {
			return "", nil, forge.Errorf(forge.ErrInvalid, "refusing to merge unrelated histories")
		}
		return "", nil, err
	}
	if code == 1 && len(out) == 0 {
		// merge-tree reports its failures with 1 too when it printed no tree.
		return "", nil, err
	}
	fields := strings.Split(string(out), "\x00")
	tree := fields[0]
	if code == 0 {
		return tree, nil, nil
	}
	var paths []string
	for _, p := range fields[1:] {
		if p == "" {
			break // the end, or the messages section
		}
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	if paths == nil {
		paths = []string{}
	}
	return tree, paths, nil
}

// conflict is the error of a merge that conflicts.
func conflict(paths []string) error {
	return forge.Errorf(forge.ErrConflict, "%w", &issues.MergeConflict{Paths: paths})
}

// Merge makes the commits of m.Style in a quarantine, moves them into the
// repository and then moves refs/heads/{m.Branch} with a compare-and-swap,
// under the repository's write lock. Identities and dates are m.Author's
// and m.Committer's (rebased commits keep their authors), passed to git in
// the environment; git's own configuration gives none.
func (s *Store) Merge(ctx context.Context, repo forge.ID, m issues.MergeCommand) (string, error) {
	switch m.Style {
	case issues.MergeStyleManuallyMerged:
		return m.Head, nil
	case issues.MergeStyleMerge, issues.MergeStyleRebase, issues.MergeStyleRebaseMerge, issues.MergeStyleSquash,
		issues.MergeStyleFastForwardOnly, issues.MergeStyleRebaseUpdate:
	default:
		return "", forge.Errorf(forge.ErrInvalid, "unknown merge style %q", m.Style)
	}
	ref := "refs/heads/" + m.Branch
	if !s.validRef(ctx, ref) {
		return "", forge.Errorf(forge.ErrInvalid, "invalid branch name %q", m.Branch)
	}
	if err := repos.CheckSignature("author", m.Author); err != nil {
		return "", err
	}
	if err := repos.CheckSignature("committer", m.Committer); err != nil {
		return "", err
	}
	if strings.ContainsRune(m.Message, 0) {
		return "", forge.Errorf(forge.ErrInvalid, "commit message contains a NUL byte")
	}
	// Base and Head are commit ids, never names that could move.
	if !isHex(m.Base) || !isHex(m.Head) {
		return "", forge.Errorf(forge.ErrInvalid, "merge needs commit ids [base: %s, head: %s]", m.Base, m.Head)
	}
	if err := s.exists(repo); err != nil {
		return "", err
	}

	unlock := s.lock(repo)
	defer unlock()
	q, err := s.newQuarantine(repo)
	if err != nil {
		return "", err
	}
	defer q.remove()
	w := &merger{s: s, ctx: ctx, repo: repo, env: q.env(), m: m}
	// A commit repo lacks comes from m.Source, fetched into the quarantine.
	commit := func(id string) (string, error) {
		if m.Source == 0 || m.Source == repo || s.hasCommit(ctx, repo, id, nil) {
			return s.commitID(ctx, repo, id)
		}
		full, err := s.commitID(ctx, m.Source, id)
		if err != nil {
			return "", err
		}
		return full, s.fetchCommit(ctx, repo, m.Source, full, w.env)
	}
	base, err := commit(m.Base)
	if err != nil {
		return "", err
	}
	head, err := commit(m.Head)
	if err != nil {
		return "", err
	}
	old := base
	if m.Style == issues.MergeStyleRebaseUpdate {
		old = head
	}
	if cur, err := s.Resolve(ctx, repo, ref); err != nil || cur != old {
		return "", forge.Errorf(forge.ErrConflict, "branch %s has moved [expected: %s]", m.Branch, old)
	}
	tip, err := w.make(base, head)
	if err != nil {
		return "", err
	}
	if tip == old {
		return tip, nil
	}
	if err := q.migrate(); err != nil {
		return "", err
	}
	if err := s.SetRef(ctx, repo, ref, tip, old); err != nil {
		return "", err
	}
	return tip, nil
}

// merger makes the commits of one Merge.
type merger struct {
	s    *Store
	ctx  context.Context
	repo forge.ID
	env  []string // the quarantine's
	m    issues.MergeCommand
}

// make returns the new tip of the branch for m.Style.
func (w *merger) make(base, head string) (string, error) {
	switch w.m.Style {
	case issues.MergeStyleFastForwardOnly:
		ok, err := w.s.isAncestor(w.ctx, w.repo, base, head, w.env)
		if err != nil {
			return "", err
		}
		if !ok {
			if in, err := w.s.isAncestor(w.ctx, w.repo, head, base, w.env); err == nil && in {
				return base, nil // already merged: nothing to fast-forward
			}
			return "", forge.Errorf(forge.ErrInvalid, "fast-forward only merge is not possible: the branches have diverged")
		}
		return head, nil
	case issues.MergeStyleMerge, issues.MergeStyleSquash:
		tree, conflicts, err := w.s.mergeTree(w.ctx, w.repo, w.env, base, head)
		if err != nil {
			return "", err
		}
		if conflicts != nil {
			return "", conflict(conflicts)
		}
		parents := []string{base, head}
		if w.m.Style == issues.MergeStyleSquash {
			parents = parents[:1]
		}
		return w.commitTree(tree, parents, w.m.Author, w.m.Message)
	case issues.MergeStyleRebase, issues.MergeStyleRebaseUpdate:
		return w.rebase(base, head)
	case issues.MergeStyleRebaseMerge:
		tip, err := w.rebase(base, head)
		if err != nil || tip == base {
			return tip, err
		}
		tree, err := w.treeOf(tip)
		if err != nil {
			return "", err
		}
		return w.commitTree(tree, []string{base, tip}, w.m.Author, w.m.Message)
	}
	return "", forge.Errorf(forge.ErrInvalid, "unknown merge style %q", w.m.Style)
}

// rebase replays the commits `git rebase onto` would (those of
// onto...head on head's side, no merges, none whose change onto already
// has) onto onto, one three-way merge each (`git merge-tree` of a commit
// and a stand-in for the new parent whose own parent is the commit's, so
// that the commit's parent is the merge base, as a cherry-pick has it; git
// 2.39 has no --merge-base). Each keeps its author and message and gets
// m.Committer; a commit that becomes empty is dropped, one that was empty
// is kept. When onto is an ancestor of head there is nothing to rebase
// (git's "Current branch is up to date"): head is returned as it is.
func (w *merger) rebase(onto, head string) (string, error) {
	if ok, err := w.s.isAncestor(w.ctx, w.repo, onto, head, w.env); err != nil || ok {
		return head, err
	}
	if _, err := w.s.mergeBase(w.ctx, w.repo, onto, head, w.env); err != nil {
		return "", forge.Errorf(forge.ErrInvalid, "refusing to rebase unrelated histories")
	}
	out, err := w.s.run(w.ctx, w.repo, nil, w.env, "rev-list", "--reverse", "--topo-order", "--no-merges",
		"--cherry-pick", "--right-only", onto+"..."+head)
	if err != nil {
		return "", err
	}
	commits, err := w.readCommits(strings.Fields(string(out)))
	if err != nil {
		return "", err
	}
	tip := onto
	tipTree, err := w.treeOf(tip)
	if err != nil {
		return "", err
	}
	for _, c := range commits {
		tree := c.tree
		switch {
		case len(c.parents) == 0:
			return "", forge.Errorf(forge.ErrInvalid, "refusing to rebase unrelated histories")
		case c.parentTree == c.tree: // empty from the start: kept, empty
			tree = tipTree
		case c.parents[0] != tip:
			standIn, err := w.commitTree(tipTree, c.parents[:1], w.m.Committer, "rebase onto "+tip+"\n")
			if err != nil {
				return "", err
			}
			var conflicts []string
			tree, conflicts, err = w.s.mergeTree(w.ctx, w.repo, w.env, standIn, c.id)
			if err != nil {
				return "", err
			}
			if conflicts != nil {
				return "", conflict(conflicts)
			}
			if tree == tipTree {
				continue // became empty: dropped
			}
		}
		tip, err = w.commitRaw(tree, tip, c.author, c.message)
		if err != nil {
			return "", err
		}
		tipTree = tree
	}
	return tip, nil
}

// commitTree writes a commit of tree with parents, author and message
// (committer m.Committer).
func (w *merger) commitTree(tree string, parents []string, author repos.Signature, message string) (string, error) {
	when := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	return w.commit(tree, parents, []string{"GIT_AUTHOR_NAME=" + author.Name, "GIT_AUTHOR_EMAIL=" + author.Email,
		"GIT_AUTHOR_DATE=" + when(author.When)}, message)
}

// commitRaw writes a rebased commit: tree on parent, with the original
// author (name, email and raw date with its time zone) and message.
func (w *merger) commitRaw(tree, parent string, author rawIdent, message string) (string, error) {
	return w.commit(tree, []string{parent}, []string{"GIT_AUTHOR_NAME=" + author.name,
		"GIT_AUTHOR_EMAIL=" + author.email, "GIT_AUTHOR_DATE=@" + author.date}, message)
}

func (w *merger) commit(tree string, parents, authorEnv []string, message string) (string, error) {
	c := w.m.Committer
	env := append(slices.Clone(w.env), authorEnv...)
	env = append(env, "GIT_COMMITTER_NAME="+c.Name, "GIT_COMMITTER_EMAIL="+c.Email,
		"GIT_COMMITTER_DATE="+c.When.UTC().Format(time.RFC3339))
	args := []string{"commit-tree", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	// The message on stdin: nothing a user writes is an option.
	out, err := w.s.run(w.ctx, w.repo, []byte(message), env, append(args, "-F", "-")...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func (w *merger) treeOf(commit string) (string, error) {
	out, err := w.s.run(w.ctx, w.repo, nil, w.env, "rev-parse", "--verify", "--end-of-options", commit+"^{tree}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// rawIdent is an author line of a commit as git stored it.
type rawIdent struct {
	name, email string
	date        string // "<seconds> <zone>"
}

// rawCommit is a commit to replay.
type rawCommit struct {
	id, tree, parentTree string
	parents              []string
	author               rawIdent
	message              string
}

// readCommits reads the commits ids (one `git cat-file --batch`), with the
// tree of each one's first parent.
func (w *merger) readCommits(ids []string) ([]*rawCommit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	out, err := w.s.run(w.ctx, w.repo, in.Bytes(), w.env, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	list := make([]*rawCommit, 0, len(ids))
	for range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "commit" {
			return nil, fmt.Errorf("gitstore: unexpected cat-file header %q", header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, err
		}
		data := make([]byte, size+1) // and the newline after the object
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, err
		}
		c, err := parseRawCommit(f[0], data[:size])
		if err != nil {
			return nil, err
		}
		list = append(list, c)
	}
	for _, c := range list {
		if len(c.parents) > 0 {
			if c.parentTree, err = w.treeOf(c.parents[0]); err != nil {
				return nil, err
			}
		}
	}
	return list, nil
}

// parseRawCommit reads a commit object: its tree, parents, author line
// and message (everything after the headers, byte for byte).
func parseRawCommit(id string, data []byte) (*rawCommit, error) {
	headers, message, ok := bytes.Cut(data, []byte("\n\n"))
	if !ok {
		headers, message = bytes.TrimSuffix(data, []byte("\n")), nil
	}
	c := &rawCommit{id: id, message: string(message)}
	for _, line := range strings.Split(string(headers), "\n") {
		key, value, _ := strings.Cut(line, " ")
		switch key {
		case "tree":
			c.tree = value
		case "parent":
			c.parents = append(c.parents, value)
		case "author":
			lt := strings.LastIndex(value, "<")
			gt := strings.LastIndex(value, ">")
			if lt < 0 || gt < lt {
				return nil, fmt.Errorf("gitstore: malformed author of commit %s", id)
			}
			c.author = rawIdent{name: strings.TrimSpace(value[:lt]), email: value[lt+1 : gt],
				date: strings.TrimSpace(value[gt+1:])}
		}
	}
	if c.tree == "" {
		return nil, fmt.Errorf("gitstore: commit %s has no tree", id)
	}
	return c, nil
}
