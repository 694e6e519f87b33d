package forge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The stored form of the domains' events in the transactional outbox: an
// envelope {"version": n, "data": {...}} around the event value, whose
// fields carry explicit JSON names. A domain bumps its version when the
// meaning of a stored field changes, and decodes every version it ever
// wrote; a golden fixture of each kind (testdata) is decoded by its tests,
// so that renaming a Go field fails a test rather than silently emptying
// the events already stored.

// ErrNewerEvent is the error of UnmarshalEventRecord for a record of a
// version newer than the code reading it (a newer server wrote it during
// an upgrade): the event must be left for a server that reads it, not
// dropped.
var ErrNewerEvent = errors.New("outbox event of a newer version")

// eventRecord is the envelope of a stored event.
type eventRecord struct {
	Version int             `json:"version"`
	Data    json.RawMessage `json:"data"`
}

// MarshalEventRecord returns the stored form of event v, written by the
// code's version of its kind.
func MarshalEventRecord(version int, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(eventRecord{Version: version, Data: data})
}

// UnmarshalEventRecord decodes MarshalEventRecord's data into v and
// returns the record's version. A record without an envelope (a JSON
// object with no "version", as the events stored before the envelope
// were) is version 0, its whole object the event. Errors: ErrNewerEvent
// for a version above max; ErrInvalid for anything that is not a record.
func UnmarshalEventRecord(data []byte, max int, v any) (int, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return 0, Errorf(ErrInvalid, "outbox event: %v", err)
	}
	var r eventRecord
	if _, ok := probe["version"]; !ok {
		r.Data = data // version 0: the bare event
	} else if err := json.Unmarshal(data, &r); err != nil {
		return 0, Errorf(ErrInvalid, "outbox event: %v", err)
	}
	switch {
	case r.Version > max:
		return r.Version, fmt.Errorf("%w: version %d, this code reads up to %d", ErrNewerEvent, r.Version, max)
	case r.Version < 0 || len(bytes.TrimSpace(r.Data)) == 0 || bytes.Equal(bytes.TrimSpace(r.Data), []byte("null")):
		return r.Version, Errorf(ErrInvalid, "outbox event: version %d without data", r.Version)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		return r.Version, Errorf(ErrInvalid, "outbox event: %v", err)
	}
	return r.Version, nil
}
