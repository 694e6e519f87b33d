package gitstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// Object reads without a process per request, SHA-1 and SHA-256 alike, as
// Forgejo does (modules/git/catfile_batch*.go): each repository keeps up to
// a few long-lived `git cat-file --batch-command` processes, handed to one
// read at a time. The pool bounds the processes alive in the whole Store
// (Options.MaxCatFiles); a process idle for Options.CatFileIdle ends, as do
// a repository's on Remove and all of them on Close. A read that finds every
// process busy takes an idle one of another repository, or waits for one to
// be released (or for its context to end).

// Defaults of the cat-file pool.
const (
	// DefaultMaxCatFiles is how many cat-file processes a Store keeps alive.
	DefaultMaxCatFiles = 16
	// DefaultCatFileIdle is how long an unused cat-file process lives.
	DefaultCatFileIdle = 10 * time.Second
)

// errPoolClosed is returned by reads after Close.
var errPoolClosed = errors.New("gitstore: closed")

// catFile is one `git cat-file --batch-command` of one repository. It is
// used by one read at a time.
type catFile struct {
	repo  forge.ID
	gen   uint64 // the repository's generation when it started
	cmd   *exec.Cmd
	stdin io.WriteCloser
	w     *bufio.Writer
	r     *bufio.Reader
	// idle is armed while the process waits in the pool.
	idle *time.Timer
}

// catFilePool holds the cat-file processes of a Store.
type catFilePool struct {
	l    launcher
	max  int
	ttl  time.Duration
	mu   sync.Mutex
	live int                     // processes started and not yet ended
	idle map[forge.ID][]*catFile // released processes, most recent last
	gen  map[forge.ID]uint64     // bumped by drop: older processes end on release
	// wake is closed (and replaced) whenever a process is released or ends.
	wake   chan struct{}
	closed bool
}

func newCatFilePool(l launcher, max int, ttl time.Duration) *catFilePool {
	return &catFilePool{l: l, max: max, ttl: ttl, idle: map[forge.ID][]*catFile{},
		gen: map[forge.ID]uint64{}, wake: make(chan struct{})}
}

// signal wakes the reads waiting for a process; p.mu is held.
func (p *catFilePool) signal() {
	close(p.wake)
	p.wake = make(chan struct{})
}

// get takes an idle process of repo, or starts one when the pool has room
// (ending an idle process of another repository to make it), or waits.
func (p *catFilePool) get(ctx context.Context, repo forge.ID) (*catFile, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, errPoolClosed
		}
		if l := p.idle[repo]; len(l) > 0 {
			cf := l[len(l)-1]
			p.idle[repo] = l[:len(l)-1]
			p.mu.Unlock()
			cf.idle.Stop()
			return cf, nil
		}
		if p.live >= p.max {
			if victim := p.takeIdleLocked(); victim != nil {
				p.live--
				p.mu.Unlock()
				victim.end()
				continue
			}
			wake := p.wake
			p.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		p.live++
		gen := p.gen[repo]
		p.mu.Unlock()
		cf, err := p.start(repo, gen)
		if err != nil {
			p.mu.Lock()
			p.live--
			p.signal()
			p.mu.Unlock()
			return nil, err
		}
		return cf, nil
	}
}

// takeIdleLocked removes and returns an idle process of any repository.
func (p *catFilePool) takeIdleLocked() *catFile {
	for repo, l := range p.idle {
		if len(l) > 0 {
			cf := l[0]
			p.idle[repo] = l[1:]
			if len(p.idle[repo]) == 0 {
				delete(p.idle, repo)
			}
			return cf
		}
	}
	return nil
}

// put returns cf to the pool after a read; broken (the protocol went out
// of step: an error or a read cut short) ends it instead.
func (p *catFilePool) put(cf *catFile, broken bool) {
	p.mu.Lock()
	if broken || p.closed || cf.gen != p.gen[cf.repo] {
		p.live--
		p.signal()
		p.mu.Unlock()
		cf.end()
		return
	}
	p.idle[cf.repo] = append(p.idle[cf.repo], cf)
	cf.idle.Reset(p.ttl)
	p.signal()
	p.mu.Unlock()
}

// expire ends cf if it is still idle (its timer fired).
func (p *catFilePool) expire(cf *catFile) {
	p.mu.Lock()
	l := p.idle[cf.repo]
	for i, x := range l {
		if x == cf {
			p.idle[cf.repo] = append(l[:i:i], l[i+1:]...)
			if len(p.idle[cf.repo]) == 0 {
				delete(p.idle, cf.repo)
			}
			p.live--
			p.signal()
			p.mu.Unlock()
			cf.end()
			return
		}
	}
	p.mu.Unlock()
}

// drop ends the idle processes of repo; the busy ones end when released.
func (p *catFilePool) drop(repo forge.ID) {
	p.mu.Lock()
	p.gen[repo]++
	l := p.idle[repo]
	delete(p.idle, repo)
	p.live -= len(l)
	p.signal()
	p.mu.Unlock()
	for _, cf := range l {
		cf.end()
	}
}

// close ends every idle process and makes later reads fail; busy ones end
// when released.
func (p *catFilePool) close() {
	p.mu.Lock()
	p.closed = true
	var all []*catFile
	for _, l := range p.idle {
		all = append(all, l...)
	}
	p.idle = map[forge.ID][]*catFile{}
	p.live -= len(all)
	p.signal()
	p.mu.Unlock()
	for _, cf := range all {
		cf.end()
	}
}

// alive is the number of processes started and not ended.
func (p *catFilePool) alive() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live
}

func (p *catFilePool) start(repo forge.ID, gen uint64) (*catFile, error) {
	// Not bound to a request's context: the process outlives the request.
	c := p.l.cmd(context.Background(), repo, nil, "cat-file", "--batch-command")
	stdin, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, err
	}
	cf := &catFile{repo: repo, gen: gen, cmd: c, stdin: stdin, w: bufio.NewWriter(stdin), r: bufio.NewReaderSize(stdout, 32<<10)}
	cf.idle = time.AfterFunc(time.Hour, func() { p.expire(cf) })
	cf.idle.Stop()
	return cf, nil
}

// end closes the process's input (cat-file exits at end of input) and
// reaps it.
func (cf *catFile) end() {
	cf.idle.Stop()
	cf.stdin.Close()
	if err := cf.cmd.Wait(); err != nil && cf.cmd.Process != nil {
		cf.cmd.Process.Kill()
	}
}

// header sends "<command> <oid>" and reads the answer's header: the
// object's id, type and size; found is false for a missing object.
func (cf *catFile) header(command, oid string) (id, typ string, size int64, found bool, err error) {
	if _, err := fmt.Fprintf(cf.w, "%s %s\n", command, oid); err != nil {
		return "", "", 0, false, err
	}
	if err := cf.w.Flush(); err != nil {
		return "", "", 0, false, err
	}
	line, err := cf.r.ReadString('\n')
	if err != nil {
		return "", "", 0, false, err
	}
	f := strings.Fields(line)
	if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
		return "", "", 0, false, nil
	}
	if len(f) != 3 {
		return "", "", 0, false, fmt.Errorf("gitstore: cat-file: unexpected %q", line)
	}
	size, err = strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return "", "", 0, false, fmt.Errorf("gitstore: cat-file: unexpected %q", line)
	}
	return f[0], f[1], size, true, nil
}

// body reads the content of size bytes announced by a "contents" header,
// and the newline after it, into memory.
func (cf *catFile) body(size int64) ([]byte, error) {
	b := make([]byte, size+1)
	if _, err := io.ReadFull(cf.r, b); err != nil {
		return nil, err
	}
	if b[size] != '\n' {
		return nil, errors.New("gitstore: cat-file: content not followed by a newline")
	}
	return b[:size], nil
}

// skip reads past the content of size bytes announced by a "contents"
// header, and the newline after it, keeping nothing.
func (cf *catFile) skip(size int64) error {
	_, err := io.CopyN(io.Discard, cf.r, size+1)
	return err
}
