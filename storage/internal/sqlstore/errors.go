package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/hearthforge/hearth/forge"
)

// driverErrors are the backends' error classifiers (Dialect.MapError),
// registered by Register. mapError is called where no DB is at hand, and
// each classifier knows only its own driver's error type, so asking each
// in turn is unambiguous.
var driverErrors struct {
	sync.RWMutex
	fns []func(err error, what string) error
}

// RegisterErrors adds a driver's error classifier (see Dialect.MapError);
// a backend calls it once, from its package's init.
func RegisterErrors(fn func(err error, what string) error) {
	driverErrors.Lock()
	defer driverErrors.Unlock()
	driverErrors.fns = append(driverErrors.fns, fn)
}

// mapError turns driver errors into forge categories. what names the
// operation for the message.
func mapError(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return forge.Errorf(forge.ErrNotFound, "%s: not found", what)
	}
	driverErrors.RLock()
	fns := driverErrors.fns
	driverErrors.RUnlock()
	for _, fn := range fns {
		if e := fn(err, what); e != nil {
			return e
		}
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// isForeignKeyViolation reports whether err, from a write, is a
// foreign-key violation (which mapError turns into forge.ErrNotFound).
func isForeignKeyViolation(err error) bool {
	return err != nil && !errors.Is(err, sql.ErrNoRows) && errors.Is(mapError(err, ""), forge.ErrNotFound)
}

func isNotFound(err error) bool { return errors.Is(err, forge.ErrNotFound) }
