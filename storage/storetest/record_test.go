package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
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

// An optional interface is covered once a wrapper met it, and only then:
// a backend whose issues.Tx is a BlockReader must have IsBlockedByAny
// called.
func TestRecorderOptional(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	assert.NotContains(t, storeInterfaces(rec), "issues.BlockReader")
	recordIssuesTx(blockReaderTx{}, rec)
	assert.Contains(t, rec.missing(storeInterfaces(rec)), "issues.BlockReader.IsBlockedByAny")
	assert.Contains(t, rec.missing(storeInterfaces(rec)), "auth.Tx.UserByID", "the required ones stay")
}

type blockReaderTx struct{ issues.Tx }

func (blockReaderTx) IsBlockedByAny(context.Context, []forge.ID, forge.ID) (bool, error) {
	return false, nil
}
