package storetest

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
)

// The coverage check reports exactly the interface methods never called.
func TestRecorderMissing(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[auth.Tx]()
	rec := &recorder{}
	for i := range typ.NumMethod() {
		if name := typ.Method(i).Name; name != "TouchToken" {
			rec.hit("auth.Tx." + name)
		}
	}
	rec.hit("repos.Tx.Unrelated")
	assert.Equal(t, []string{"auth.Tx.TouchToken"}, rec.missing(map[string]reflect.Type{"auth.Tx": typ}))
	rec.hit("auth.Tx.TouchToken")
	assert.Empty(t, rec.missing(map[string]reflect.Type{"auth.Tx": typ}))
}
