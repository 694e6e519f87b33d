package gitstore

import (
	"context"
	"net/http"
	"net/http/cgi"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// httpBackend finds git-http-backend in git's exec path, once per Store.
func (s *Store) httpBackend() string {
	s.backendOnce.Do(func() {
		out, err := s.run(context.Background(), 0, nil, nil, "--exec-path")
		if err == nil {
			s.backendPath = filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
		}
	})
	return s.backendPath
}

// ServeGit serves git's smart HTTP protocol (info/refs, git-upload-pack,
// git-receive-pack) for repo through git-http-backend. subpath is what
// follows "<owner>/<repo>.git" in the URL; remoteUser names the
// authenticated user. The caller has authorised the request: this method
// checks nothing.
func (s *Store) ServeGit(w http.ResponseWriter, r *http.Request, repo forge.ID, subpath, remoteUser string) {
	backend := s.httpBackend()
	if backend == "" {
		http.Error(w, "git-http-backend not found", http.StatusInternalServerError)
		return
	}
	if _, err := os.Stat(s.Path(repo)); err != nil {
		http.NotFound(w, r)
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + strconv.FormatInt(repo, 10) + ".git" + subpath
	h := &cgi.Handler{
		Path: backend,
		Dir:  s.root,
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.root,
			"GIT_HTTP_EXPORT_ALL=1",
			"REMOTE_USER=" + remoteUser,
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=/dev/null",
			"HOME=" + s.root,
		},
		InheritEnv: []string{"PATH"},
	}
	h.ServeHTTP(w, r2)
}
