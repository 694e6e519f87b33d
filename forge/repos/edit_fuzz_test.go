package repos

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// FuzzEditValidate validates arbitrary repository edits (default and wiki
// branch names, mirror interval, external tracker and wiki URLs): a
// refused edit is forge.ErrInvalid; an accepted one has branch names
// CheckRefName accepts, an interval time.ParseDuration reads, and http or
// https URLs with a host.
func FuzzEditValidate(f *testing.F) {
	f.Add("main", "wiki", "8h0m0s", "https://tracker.example/", "https://tracker.example/{user}/{repo}/{index}", "https://wiki.example/")
	f.Add("a\nb", "", "1x", "ftp://x", "{index}", "javascript:alert(1)")
	f.Add("-x", "..", "-1h", "http://", "http://%zz", "//x")
	f.Fuzz(func(t *testing.T, branch, wiki, interval, tracker, format, wikiURL string) {
		o := EditOptions{DefaultBranch: &branch, WikiBranch: &wiki, MirrorInterval: &interval,
			ExternalTracker: &forge.ExternalTracker{URL: tracker, Format: format}, ExternalWiki: &forge.ExternalWiki{URL: wikiURL}}
		err := o.validate()
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("validate: %v is not ErrInvalid", err)
			}
			return
		}
		if CheckRefName(branch) != nil || wiki != "" && CheckRefName(wiki) != nil {
			t.Fatalf("validate accepted branches %q, %q", branch, wiki)
		}
		if _, err := time.ParseDuration(interval); err != nil {
			t.Fatalf("validate accepted interval %q", interval)
		}
		for _, s := range []string{tracker, wikiURL} {
			u, err := url.Parse(s)
			if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
				t.Fatalf("validate accepted URL %q", s)
			}
		}
	})
}
