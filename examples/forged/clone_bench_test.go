//go:build unix

package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// BenchmarkClone measures `git clone` over smart HTTP (protocol v2) from
// forged of a repository like issue 17's: 1,000 commits, each changing one
// of 100 files, pushed through forged. The clones are bare: writing the
// work tree is the client's disk work, the same whatever the server (on
// this machine's disk it took seconds, and varied by as much). It reports
// the time of one clone
// (ms/clone) and, for comparison, the same clone by git from the bare
// repository on disk with file:// (git upload-pack without HTTP:
// file-ms/clone), so the HTTP layer's share is visible, and from the floor
// of any forge serving it over smart HTTP: git http-backend (which runs git
// upload-pack --stateless-rpc per request, as Forgejo does) behind a bare
// net/http CGI handler on the same kind of server (cgi-ms/clone; %cgi is
// Hearth's time as a share of it). On a loaded
// machine wall time says little, so it reports the CPU time too: of the
// git processes (client and, over HTTP, the server's upload-pack and
// pack-objects) and of this process (forged's handlers): cpu-ms/clone,
// cgi-cpu-ms/clone and file-cpu-ms/clone.
//
//	go test ./examples/forged -run '^$' -bench BenchmarkClone -benchtime 20x
func BenchmarkClone(b *testing.B) {
	for _, format := range []string{"sha1", "sha256"} {
		b.Run(format, func(b *testing.B) {
			s := newStack(b)
			name := "clone-" + format
			r := s.call(b, "POST", "/api/v1/user/repos", map[string]any{"name": name, "object_format_name": format}, 201)
			bare := s.git.Path(forge.ID(r["id"].(float64)))
			work := b.TempDir()
			benchGit(b, work, nil, "init", "-q", "--object-format="+format, ".")
			benchGit(b, work, historyStream(1000, 100), "fast-import", "--quiet")
			remote := "http://root:" + s.token + "@" + strings.TrimPrefix(s.url, "http://") + "/root/" + name + ".git"
			benchGit(b, work, nil, "push", "-q", remote, "main")

			clone := func(url string) (wall, cpu time.Duration) {
				dst := filepath.Join(b.TempDir(), "c")
				before := cpuTime(b)
				start := time.Now()
				benchGit(b, "", nil, "clone", "-q", "--bare", url, dst)
				wall, cpu = time.Since(start), cpuTime(b)-before
				os.RemoveAll(dst)
				return wall, cpu
			}
			floor := serveLoopback(b, gitHTTPBackend(filepath.Dir(bare))) + "/" + filepath.Base(bare)
			clone(remote) // warm: the packs and the commit-graph of the push
			clone(floor)
			var viaHTTP, viaFile, viaCGI, cpuHTTP, cpuFile, cpuCGI time.Duration
			b.ResetTimer()
			for range b.N {
				w, c := clone(remote)
				viaHTTP, cpuHTTP = viaHTTP+w, cpuHTTP+c
				b.StopTimer()
				w, c = clone(floor)
				viaCGI, cpuCGI = viaCGI+w, cpuCGI+c
				w, c = clone("file://" + bare)
				viaFile, cpuFile = viaFile+w, cpuFile+c
				b.StartTimer()
			}
			per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
			b.ReportMetric(per(viaHTTP), "ms/clone")
			b.ReportMetric(per(viaCGI), "cgi-ms/clone")
			b.ReportMetric(per(viaFile), "file-ms/clone")
			b.ReportMetric(per(cpuHTTP), "cpu-ms/clone")
			b.ReportMetric(per(cpuCGI), "cgi-cpu-ms/clone")
			b.ReportMetric(per(cpuFile), "file-cpu-ms/clone")
			b.ReportMetric(100*float64(viaHTTP)/float64(viaCGI), "%cgi")
		})
	}
}

// gitHTTPBackend is the floor of a clone over smart HTTP: `git
// http-backend` (which runs `git upload-pack --stateless-rpc`, as Forgejo
// does) behind net/http/cgi on the same kind of server, serving the bare
// repositories under root without authentication or any check.
func gitHTTPBackend(root string) http.Handler {
	git, err := exec.LookPath("git")
	if err != nil {
		panic(err)
	}
	return &cgi.Handler{Path: git, Args: []string{"http-backend"}, Env: []string{
		"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + root,
	}}
}

// historyStream is a git fast-import stream of commits commits on main,
// commit i writing file i%files.
func historyStream(commits, files int) []byte {
	var buf bytes.Buffer
	for i := range commits {
		content := fmt.Sprintf("file %d, version %d\n%s", i%files, i, strings.Repeat("line of text\n", 20))
		fmt.Fprintf(&buf, "commit refs/heads/main\nmark :%d\ncommitter Tester <tester@example.com> %d +0000\n", i+1, 1700000000+i)
		msg := fmt.Sprintf("change %d", i)
		fmt.Fprintf(&buf, "data %d\n%s\n", len(msg), msg)
		if i > 0 {
			fmt.Fprintf(&buf, "from :%d\n", i)
		}
		fmt.Fprintf(&buf, "M 100644 inline dir%d/file%d.txt\ndata %d\n%s\n", i%7, i%files, len(content), content)
	}
	return buf.Bytes()
}

// benchGit runs git in dir (if not empty) with a private configuration and
// stdin, failing the benchmark on error.
func benchGit(b *testing.B, dir string, stdin []byte, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Tester", "-c", "user.email=tester@example.com",
		"-c", "init.defaultBranch=main", "-c", "protocol.version=2"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+b.TempDir(),
		"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// cpuTime is the CPU time (user and system) this process and its waited-for
// children have used so far.
func cpuTime(b *testing.B) time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}
