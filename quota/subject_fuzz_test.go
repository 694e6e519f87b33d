package quota_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/quota"
)

// FuzzParseSubject parses arbitrary subject names (as rule bodies send
// them). An accepted subject prints back to the same text, round-trips
// through JSON, has an ordinal, and its parent chain ends at size:all (or
// is empty for none and size:all); a refused one is forge.ErrInvalid with
// Forgejo's message and no ordinal. ParseSubjects agrees with ParseSubject.
func FuzzParseSubject(f *testing.F) {
	for _, s := range quota.Subjects {
		f.Add(string(s))
	}
	for _, s := range []string{"", "size", "size:", "SIZE:ALL", " size:all", "size:all ", "size:repos:all:x",
		"size:assets:attachments:issues\x00", "none,size:all", "size:git:lfs", "size:assets:*", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s, err := quota.ParseSubject(name)
		if err != nil {
			if !errors.Is(err, forge.ErrInvalid) {
				t.Fatalf("ParseSubject(%q): %v is not ErrInvalid", name, err)
			}
			if want := "unrecognized quota limit subject: [subject: " + name + "]"; !strings.Contains(err.Error(), want) {
				t.Fatalf("ParseSubject(%q): message %q lacks %q", name, err, want)
			}
			if quota.Subject(name).Valid() || quota.Subject(name).Ordinal() != -1 {
				t.Fatalf("refused %q is Valid or has an ordinal", name)
			}
			var u quota.Subject
			if json.Unmarshal([]byte(strconv.Quote(name)), &u) == nil && strings.ToValidUTF8(name, "\uFFFD") == name {
				t.Fatalf("JSON accepted refused subject %q", name)
			}
			if _, err := quota.ParseSubjects([]string{"size:all", name}); err == nil {
				t.Fatalf("ParseSubjects accepted %q", name)
			}
			return
		}
		if s.String() != name {
			t.Fatalf("ParseSubject(%q).String() = %q", name, s)
		}
		if again, err := quota.ParseSubject(s.String()); err != nil || again != s {
			t.Fatalf("reparse of %q: %q, %v", s, again, err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back quota.Subject
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("JSON round trip of %q via %s: %q, %v", s, b, back, err)
		}
		if o := s.Ordinal(); o < 0 || quota.Subjects[o] != s {
			t.Fatalf("ordinal of %q: %d", s, o)
		}
		if !s.Covers(s) {
			t.Fatalf("%q does not cover itself", s)
		}
		steps := 0
		p := s
		for ; p.Parent() != ""; p = p.Parent() {
			if steps++; steps > len(quota.Subjects) {
				t.Fatalf("parent chain of %q loops", s)
			}
			if !p.Parent().Covers(s) {
				t.Fatalf("ancestor %q of %q does not cover it", p.Parent(), s)
			}
		}
		if s != quota.SubjectNone && p != quota.SubjectAll {
			t.Fatalf("parent chain of %q ends at %q, not size:all", s, p)
		}
		if got, err := quota.ParseSubjects([]string{name, name}); err != nil || len(got) != 2 || got[0] != s {
			t.Fatalf("ParseSubjects(%q twice) = %v, %v", name, got, err)
		}
	})
}

// FuzzParseSize reads arbitrary [quota.default] TOTAL text: never a panic,
// never a negative size other than -1 (unlimited), and a plain decimal
// byte count reads back as itself.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"", "1", "1024", "1 GiB", "500MB", "1.5 kib", "1e9", "9223372036854775807", "99999999999 EiB",
		"-1", "1..2 MB", " 3 b ", "GiB", "1 GiBB", ".", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := quota.ParseSize(s)
		if n < -1 {
			t.Fatalf("ParseSize(%q) = %d", s, n)
		}
		if v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil && v >= 0 && v < 1<<52 &&
			!strings.ContainsAny(strings.TrimSpace(s), "+-") {
			if n != v {
				t.Fatalf("ParseSize(%q) = %d, want %d", s, n, v)
			}
		}
	})
}
