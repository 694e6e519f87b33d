package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hearthforge/hearth/httpapi/wire"
)

// fillValue sets every field reachable from v (pointers allocated down to
// depth levels, slices of two elements) to a value that is not the zero
// value, varied by seed: strings that need escaping, times with
// nanoseconds in a zone other than UTC.
func fillValue(t *testing.T, v reflect.Value, seed *int, depth int) {
	t.Helper()
	*seed++
	n := *seed
	switch v.Kind() {
	case reflect.String:
		strs := []string{"plain", `<a href="x">&amp;</a> \ back`, "tab\tnew\nline\r\b\f\x01\x1f\x7f", "é ü 日本 \u2028\u2029 \xff\xfe ok", "🙂"}
		v.SetString(strs[n%len(strs)])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int64, reflect.Int:
		v.SetInt(int64(n) * 1000003)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -8*3600)}
			v.Set(reflect.ValueOf(time.Date(2020+n%5, time.Month(1+n%12), 1+n%28, n%24, n%60, n%60, n*1234567%1e9, zones[n%len(zones)])))
			return
		}
		for i := range v.NumField() {
			fillValue(t, v.Field(i), seed, depth)
		}
	case reflect.Pointer:
		if depth == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillValue(t, p.Elem(), seed, depth-1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillValue(t, s.Index(i), seed, depth)
		}
		v.Set(s)
	case reflect.Map: // inside the parts written by encoding/json (teams)
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillValue(t, k, seed, depth)
		fillValue(t, e, seed, depth)
		m.SetMapIndex(k, e)
		v.Set(m)
	default:
		t.Fatalf("fillValue: field of kind %s: teach the test (and appendFastJSON) about it", v.Kind())
	}
}

// TestFastJSONMatchesEncodingJSON checks appendFastJSON against
// encoding/json byte for byte, for wire.User and wire.Repository with
// every field set (a field added to the generated types fails it until
// appendFastJSON writes it), with nested pointers nil, and zero.
func TestFastJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendFastJSON(nil, v)
		if !ok {
			t.Fatalf("appendFastJSON(%T) refused", v)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendFastJSON(%T):\n got %s\nwant %s", v, got, want)
		}
	}
	for seed := range 6 {
		for depth := range 3 {
			s := seed
			var u wire.User
			fillValue(t, reflect.ValueOf(&u).Elem(), &s, depth)
			check(t, u)
			check(t, &u)
			var r wire.Repository
			fillValue(t, reflect.ValueOf(&r).Elem(), &s, depth)
			check(t, r)
			check(t, &r)
		}
	}
	check(t, wire.User{})
	check(t, wire.Repository{})
	check(t, (*wire.User)(nil))
	check(t, (*wire.Repository)(nil))
	check(t, wire.Repository{Topics: []string{}, WikiBranch: ptrTo("")})
}

// TestFastJSONRefusesWhatEncodingJSONRefuses: a time encoding/json cannot
// write (year 10000) makes appendFastJSON refuse, so call.json falls back
// to encoding/json and its error.
func TestFastJSONRefusesWhatEncodingJSONRefuses(t *testing.T) {
	t.Parallel()
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, v := range []any{
		wire.User{Created: far},
		wire.Repository{Updated: far},
		wire.Repository{Owner: wire.User{LastLogin: far}},
		wire.Repository{Parent: &wire.Repository{MirrorUpdated: far}},
		wire.Repository{RepoTransfer: &wire.RepoTransfer{Doer: wire.User{Created: far}}},
	} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("json.Marshal accepted %+v", v)
		}
		if _, ok := appendFastJSON(nil, v); ok {
			t.Errorf("appendFastJSON accepted a value encoding/json refuses: %+v", v)
		}
	}
	if _, ok := appendFastJSON(nil, wire.Team{}); ok {
		t.Error("appendFastJSON accepted a type it does not write")
	}
}

// TestAppendJSONString compares appendJSONString with encoding/json on
// random strings: ASCII (control bytes, quotes, HTML characters), UTF-8,
// invalid bytes, U+2028/U+2029.
func TestAppendJSONString(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", " ", `"`, `\`, "<", ">", "&", "\x00", "\x08", "\x0c", "\n", "\r", "\t", "\x1f", "\x7f",
		"é", "日", "🙂", "\u2028", "\u2029", "\xff", "\xe6\x97", "\xc3", "\ufffd", "'", "/"}
	for range 5000 {
		var s string
		for range rng.IntN(12) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestTwoFields compares twoFields with strings.Fields on Authorization
// values: exactly two fields, whatever the white space (ASCII or not).
func TestTwoFields(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"token", "Bearer", "abc", " ", "  ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "é", "x"}
	cases := []string{"", " ", "token", "token ", " token", "token abc", "token  abc", "token abc def", "token\tabc", "a b"}
	for range 5000 {
		var s string
		for range rng.IntN(6) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		f := strings.Fields(s)
		a, b, ok := twoFields(s)
		if ok != (len(f) == 2) || ok && (a != f[0] || b != f[1]) {
			t.Fatalf("twoFields(%q) = %q, %q, %v; strings.Fields gives %q", s, a, b, ok, f)
		}
	}
}
