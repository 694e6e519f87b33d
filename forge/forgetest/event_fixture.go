package forgetest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// WriteGoldenEnv, set to 1, makes EventFixture write the fixtures it
// checks from the test's value first: review the diff before committing
// (a fixture is what the databases already hold, not what the code
// writes today).
const WriteGoldenEnv = "HEARTH_WRITE_GOLDEN"

// EventFixture checks a stored outbox event, the golden JSON at path (a
// forge.MarshalEventRecord envelope), against its domain's codec:
// decode(fixture) equals want; the fixture's event decodes strictly (every
// key names a field: a Go field renamed or removed fails here rather than
// silently emptying the events already stored); and encode(want) still
// writes every key of the fixture. want is written by hand in the test,
// never read back from the codec.
func EventFixture[T any](t *testing.T, path string, want T, encode func(T) ([]byte, error), decode func([]byte) (T, error)) {
	t.Helper()
	if os.Getenv(WriteGoldenEnv) == "1" {
		data, err := encode(want)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, data, "", "  "); err != nil {
			t.Fatal(err)
		}
		out.WriteByte('\n')
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixture := LegacyEventFixture(t, path, want, decode)
	var env struct {
		Version int             `json:"version"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(fixture, &env); err != nil || env.Version == 0 {
		t.Fatalf("%s: not a versioned record (%v)", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(env.Data))
	dec.DisallowUnknownFields()
	var strict T
	if err := dec.Decode(&strict); err != nil {
		t.Errorf("%s: a stored key names no field any more (rename the Go field back, or keep the old name in its json tag): %v", path, err)
	}
	data, err := encode(want)
	if err != nil {
		t.Fatal(err)
	}
	have := jsonKeys(t, data)
	for _, k := range jsonKeys(t, fixture) {
		if _, ok := slices.BinarySearch(have, k); !ok {
			t.Errorf("%s: the encoder no longer writes %s", path, k)
		}
	}
}

// LegacyEventFixture checks that the stored event at path, of any
// version, decodes to want, and returns the fixture.
func LegacyEventFixture[T any](t *testing.T, path string, want T, decode func([]byte) (T, error)) []byte {
	t.Helper()
	fixture, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(fixture)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		w, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("%s decodes to\n%s\nwant\n%s", path, g, w)
	}
	return fixture
}

// jsonKeys lists the paths of the object keys of a JSON document
// ("data.repo.Name"; the elements of an array share its path), sorted.
func jsonKeys(t *testing.T, data []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[prefix+k] = true
				walk(prefix+k+".", x)
			}
		case []any:
			for _, x := range v {
				walk(prefix, x)
			}
		}
	}
	walk("", v)
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
