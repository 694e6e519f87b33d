package forge_test

import (
	"errors"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

// TestEventRecord: MarshalEventRecord's envelope decodes back with its
// version; the bare object of the events stored before the envelope is
// version 0; a newer version is forge.ErrNewerEvent (left for a newer
// server, never dropped as invalid); anything else is forge.ErrInvalid.
func TestEventRecord(t *testing.T) {
	t.Parallel()
	type ev struct {
		Kind string `json:"kind"`
		N    int    `json:"n"`
	}
	data, err := forge.MarshalEventRecord(2, ev{Kind: "x", N: 3})
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"version":2,"data":{"kind":"x","n":3}}` {
		t.Errorf("record %s", data)
	}
	var got ev
	if v, err := forge.UnmarshalEventRecord(data, 2, &got); err != nil || v != 2 || got != (ev{"x", 3}) {
		t.Errorf("decoded %+v version %d err %v", got, v, err)
	}
	got = ev{}
	if v, err := forge.UnmarshalEventRecord([]byte(`{"Kind":"old","N":1}`), 2, &got); err != nil || v != 0 || got != (ev{"old", 1}) {
		t.Errorf("bare event: %+v version %d err %v", got, v, err)
	}
	if _, err := forge.UnmarshalEventRecord(data, 1, &got); !errors.Is(err, forge.ErrNewerEvent) || errors.Is(err, forge.ErrInvalid) {
		t.Errorf("newer version: %v", err)
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"version":1}`, `{"version":1,"data":null}`, `{"version":-1,"data":{}}`,
		`{"version":"1","data":{}}`, `{"version":1,"data":{"n":"three"}}`} {
		if _, err := forge.UnmarshalEventRecord([]byte(bad), 2, &got); !errors.Is(err, forge.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", bad, err)
		}
	}
}
