// Package gitstore keeps git repositories on disk, SHA-1 and SHA-256 alike,
// and implements repos.Git with the git command line, as Forgejo does: one
// engine for both object formats, exact diff stats, and smart HTTP by running
// upload-pack and receive-pack --stateless-rpc. Repositories are bare, named by repository ID
// (<root>/<id>.git), so renames and transfers move no files.
//
// Reads start no process per request once warm: refs are read from their
// files on every call, objects through a bounded pool of long-lived
// `git cat-file --batch-command` processes (catfile.go) and parsed in Go
// (objects.go), and what git computes for an immutable id (a page of
// history with diff stats, a count, the last commit of a path) is cached by
// that id (readcache.go). A push adds its commits to the commit-graph, for
// the reads that still run git. Close ends the pool's processes.
package gitstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// Store is a directory of bare repositories.
type Store struct {
	root    string
	git     string
	cliOnly bool
	formats formats

	// locks holds one *sync.Mutex per repository: Apply serialises the
	// writes of the contents API per repository.
	locks sync.Map

	// langs caches Languages per repository and tree id.
	langs *lru[map[string]int64]
	// archives holds one token per archive being generated
	// (Options.MaxArchives).
	archives chan struct{}
	// archiveWaiting counts the requests waiting for a turn.
	archiveWaiting atomic.Int32
	// cacheArchives keeps generated archives (Options.CacheArchives).
	cacheArchives bool
	// serving holds one token per smart HTTP request git is answering
	// (Options.MaxGitRequests).
	serving chan struct{}
	// servingWait is Options.GitRequestWait.
	servingWait time.Duration

	// catFiles holds the long-lived cat-file processes of reads.
	catFiles *catFilePool
	// cache holds read results by immutable ids (see readCache).
	cache *readCache
	// packedRefs holds each repository's parsed packed-refs.
	packedRefs packedRefsCache
	// launcher builds every git command and counts them (Started).
	launcher launcher
}

// lock takes the write lock of repo and returns its release.
func (s *Store) lock(repo forge.ID) func() {
	v, _ := s.locks.LoadOrStore(repo, &sync.Mutex{})
	m := v.(*sync.Mutex)
	m.Lock()
	return m.Unlock
}

// tmpDir is the directory of temporary files (index files of Apply): inside
// the data directory, never the system's /tmp.
func (s *Store) tmpDir() (string, error) {
	dir := filepath.Join(s.root, ".tmp")
	return dir, os.MkdirAll(dir, 0o750)
}

var _ repos.Git = (*Store)(nil)

// Defaults of Options.
const (
	// DefaultLanguageCacheEntries is how many trees' language statistics a
	// Store keeps.
	DefaultLanguageCacheEntries = 512
	// DefaultMaxGitRequests is how many smart HTTP requests a Store
	// answers at once.
	DefaultMaxGitRequests = 64
	// DefaultGitRequestWait is how long a smart HTTP request waits for a
	// turn.
	DefaultGitRequestWait = 10 * time.Second
	// DefaultMaxArchives is how many archives a Store generates at once.
	DefaultMaxArchives = 4
)

// Options tune a Store.
type Options struct {
	// CLIOnly answers every read with a git process of its own: never
	// go-git, the cat-file pool or the read caches (the baseline of the
	// benchmarks).
	CLIOnly bool
	// MaxCatFiles bounds the long-lived `git cat-file --batch-command`
	// processes reads use, over all repositories; 0 means
	// DefaultMaxCatFiles.
	MaxCatFiles int
	// CatFileIdle is how long an unused cat-file process lives; 0 means
	// DefaultCatFileIdle.
	CatFileIdle time.Duration
	// ReadCacheEntries bounds each cache of reads by immutable id (commits,
	// diff stats, pages of history, counts, entries, directory listings,
	// last commits, peeled tags; see readCache); 0 means
	// DefaultReadCacheEntries, a negative value disables them.
	ReadCacheEntries int
	// ReadCacheBytes bounds the estimated bytes of all read caches
	// together; 0 means DefaultReadCacheBytes, a negative value no bound
	// but ReadCacheEntries.
	ReadCacheBytes int64
	// LanguageCacheEntries bounds the cache of Languages (per tree id); 0
	// means DefaultLanguageCacheEntries, a negative value disables it.
	LanguageCacheEntries int
	// MaxArchives bounds the archives generated at once (each is a git
	// process reading the whole tree); more requests wait for a turn, or
	// until their context ends. 0 means DefaultMaxArchives.
	MaxArchives int
	// MaxGitRequests bounds the smart HTTP requests (clones, fetches,
	// pushes) served at once, each a git process; a request that finds no
	// turn within GitRequestWait is refused with 503 and Retry-After. 0
	// means DefaultMaxGitRequests.
	MaxGitRequests int
	// GitRequestWait is how long a smart HTTP request waits for a turn; 0
	// means DefaultGitRequestWait.
	GitRequestWait time.Duration
	// CacheArchives keeps each generated archive on disk (under the
	// store's directory, per repository, commit, format and prefix) and
	// serves it again without git; Remove deletes a repository's.
	CacheArchives bool
}

// Open returns the store rooted at dir, creating it. It needs the git
// command (on PATH) and fails if git is missing. The Store keeps cat-file
// processes for reads: Close it when done.
func Open(dir string) (*Store, error) { return OpenWith(dir, Options{}) }

// OpenWith is Open with options. An empty dir is forge.ErrInvalid (it
// would be the working directory). Temporary files a killed process left
// in the store (index files of Apply, push logs) are removed.
func OpenWith(dir string, o Options) (*Store, error) {
	if dir == "" {
		return nil, forge.Errorf(forge.ErrInvalid, "gitstore: no directory")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("gitstore: git not found: %w", err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := removeLeftovers(abs); err != nil {
		return nil, err
	}
	langs := o.LanguageCacheEntries
	if langs == 0 {
		langs = DefaultLanguageCacheEntries
	}
	maxArchives := o.MaxArchives
	if maxArchives <= 0 {
		maxArchives = DefaultMaxArchives
	}
	serving := o.MaxGitRequests
	if serving <= 0 {
		serving = DefaultMaxGitRequests
	}
	cacheEntries := o.ReadCacheEntries
	if cacheEntries == 0 {
		cacheEntries = DefaultReadCacheEntries
	}
	maxCatFiles := o.MaxCatFiles
	if maxCatFiles <= 0 {
		maxCatFiles = DefaultMaxCatFiles
	}
	s := &Store{root: abs, git: git, cliOnly: o.CLIOnly, langs: newLRU[map[string]int64](langs),
		archives: make(chan struct{}, maxArchives), cacheArchives: o.CacheArchives,
		serving: make(chan struct{}, serving), servingWait: cmp.Or(o.GitRequestWait, DefaultGitRequestWait),
		cache: newReadCache(cacheEntries, cmp.Or(o.ReadCacheBytes, DefaultReadCacheBytes))}
	s.launcher = launcher{git: git, root: abs, started: new(atomic.Int64)}
	s.catFiles = newCatFilePool(s.launcher, maxCatFiles, cmp.Or(o.CatFileIdle, DefaultCatFileIdle))
	// A Store dropped without Close (a test's, say) ends its cat-file
	// processes when it is collected, instead of leaving them to idle out.
	runtime.AddCleanup(s, (*catFilePool).close, s.catFiles)
	return s, nil
}

// Root is the directory holding the repositories.
func (s *Store) Root() string { return s.root }

// Path is the directory of a repository: <root>/<id>.git, and for the
// wiki of repository id (addressed as repos.WikiGitID(id), -id)
// <root>/<id>.wiki.git beside it.
func (s *Store) Path(repo forge.ID) string { return filepath.Join(s.root, dirName(repo)) }

// dirName is the name of repo's directory in the store (see Path).
func dirName(repo forge.ID) string {
	if repo < 0 {
		return strconv.FormatInt(-repo, 10) + ".wiki.git"
	}
	return strconv.FormatInt(repo, 10) + ".git"
}

// gitError is a failed git command.
type gitError struct {
	args   []string
	err    error
	stderr string
}

func (e *gitError) Error() string {
	return fmt.Sprintf("git %s: %v: %s", strings.Join(e.args, " "), e.err, strings.TrimSpace(e.stderr))
}

func (e *gitError) Unwrap() error { return e.err }

// cmd builds a git command in a repository with a predictable environment:
// no system or global configuration, no prompts, C locale.
// Every git process of the Store is built here (Started counts them).
func (s *Store) cmd(ctx context.Context, repo forge.ID, env []string, args ...string) *exec.Cmd {
	return s.launcher.cmd(ctx, repo, env, args...)
}

// launcher builds the Store's git commands. The cat-file pool holds it
// rather than the Store, so that a Store nobody closed can be collected and
// its processes ended (see OpenWith).
type launcher struct {
	git, root string
	started   *atomic.Int64
}

func (l launcher) cmd(ctx context.Context, repo forge.ID, env []string, args ...string) *exec.Cmd {
	l.started.Add(1)
	full := append([]string{"-c", "core.quotepath=off"}, args...)
	c := exec.CommandContext(ctx, l.git, full...)
	if repo != 0 {
		c.Dir = filepath.Join(l.root, dirName(repo))
	}
	c.Env = append([]string{
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + l.root,
		"GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "PATH=" + os.Getenv("PATH"),
		// Paths given after -- are paths, never pathspec magic (`:(top)`,
		// `:!x`) or globs (`*`).
		"GIT_LITERAL_PATHSPECS=1",
	}, env...)
	return c
}

// run runs git and returns stdout.
func (s *Store) run(ctx context.Context, repo forge.ID, stdin []byte, env []string, args ...string) ([]byte, error) {
	if repo != 0 {
		if _, err := os.Stat(s.Path(repo)); errors.Is(err, fs.ErrNotExist) {
			return nil, forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
		}
	}
	c := s.cmd(ctx, repo, env, args...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	if err := c.Run(); err != nil {
		return nil, &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// runStderr runs git and returns its stderr (stdout is discarded), for the
// commands that report what they skipped only there.
func (s *Store) runStderr(ctx context.Context, repo forge.ID, stdin []byte, env []string, args ...string) (string, error) {
	c := s.cmd(ctx, repo, env, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	if err := c.Run(); err != nil {
		return "", &gitError{args: args, err: err, stderr: stderr.String()}
	}
	return stderr.String(), nil
}

// Create initialises an empty bare repository.
func (s *Store) Create(ctx context.Context, repo forge.ID, format forge.ObjectFormat, defaultBranch string) error {
	if !format.Valid() {
		return forge.Errorf(forge.ErrInvalid, "invalid object format: %s", format)
	}
	path := s.Path(repo)
	if _, err := os.Stat(path); err == nil {
		return forge.Errorf(forge.ErrConflict, "repository files already exist [id: %d]", repo)
	}
	s.catFiles.drop(repo) // a process of files removed behind the Store's back
	s.formats.m.Delete(repo)
	_, err := s.run(ctx, 0, nil, nil, "init", "--quiet", "--bare", "--object-format="+string(format),
		"--initial-branch="+defaultBranch, path)
	if err != nil {
		os.RemoveAll(path)
		return err
	}
	return nil
}

// Remove deletes the repository's files, and ends its cat-file processes
// first.
func (s *Store) Remove(ctx context.Context, repo forge.ID) error {
	s.catFiles.drop(repo)
	s.formats.m.Delete(repo) // the id may come back with another format
	if err := os.RemoveAll(s.archiveDir(repo)); err != nil {
		return err
	}
	return os.RemoveAll(s.Path(repo))
}

// Size is the size of the repository on disk, in bytes: the files found
// by a walk of its directory. A file or directory that vanishes during the
// walk (a temporary file of a concurrent push, a pack replaced by a
// repack) is not counted; only a missing repository directory is
// forge.ErrNotFound.
func (s *Store) Size(ctx context.Context, repo forge.ID) (int64, error) {
	root := s.Path(repo)
	var total int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != root && errors.Is(err, fs.ErrNotExist) {
				return nil // gone since its directory was read
			}
			return err
		}
		if !d.IsDir() {
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return 0, forge.Errorf(forge.ErrNotFound, "repository does not exist [id: %d]", repo)
	}
	return total, err
}

// Refs lists branches and tags, ordered by name.
func (s *Store) Refs(ctx context.Context, repo forge.ID) ([]repos.Ref, error) {
	if !s.cliOnly {
		if refs, ok, err := s.goRefsOf(ctx, repo); err != nil || ok {
			return refs, err
		}
	}
	if r := s.open(repo); r != nil {
		return goRefs(r)
	}
	return s.cliRefs(ctx, repo)
}

func (s *Store) cliRefs(ctx context.Context, repo forge.ID) ([]repos.Ref, error) {
	out, err := s.run(ctx, repo, nil, nil, "for-each-ref",
		"--format=%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)", "refs/heads", "refs/tags")
	if err != nil {
		return nil, err
	}
	var refs []repos.Ref
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\x00")
		if len(f) != 4 {
			continue
		}
		r := repos.Ref{Name: f[0], Target: f[1], Type: f[2], Commit: f[1]}
		if f[3] != "" {
			r.Commit = f[3]
		}
		refs = append(refs, r)
	}
	return refs, nil
}

// Resolve returns the commit id a revision names.
func (s *Store) Resolve(ctx context.Context, repo forge.ID, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
	}
	// Full ref names and full ids (what repos.ResolveRef asks for, several
	// times a read) are answered in process: the ref from its file, the
	// object through the cat-file pool (cached by id).
	if !s.cliOnly {
		id, found, ok := rev, true, s.isRepoID(repo, rev)
		if strings.HasPrefix(rev, "refs/") {
			id, found, ok = s.readRef(repo, rev)
		}
		if ok {
			if found {
				var err error
				if id, found, err = s.peel(ctx, repo, id); err != nil {
					return "", err
				}
			}
			if !found {
				return "", forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
			}
			return id, nil
		}
	}
	if r := s.open(repo); r != nil && (strings.HasPrefix(rev, "refs/") || isFullSHA1(rev)) {
		if id, found, ok := goResolveExact(r, rev); ok {
			if !found {
				return "", forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
			}
			return id, nil
		}
	}
	out, err := s.run(ctx, repo, nil, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) {
			return "", forge.Errorf(forge.ErrNotFound, "revision does not exist [rev: %s]", rev)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
