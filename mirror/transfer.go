package mirror

import (
	"errors"
	"fmt"
)

// Reasons of a failed transfer with a remote (a clone, fetch or push).
// The git layer (Git) gives every such failure category forge.ErrInvalid
// with one of these reasons (forge.Reasonf), where it knows what failed;
// callers test them with errors.Is and never read a message. Forgejo
// answers a failed migration 422 `Migration failed: <message>`, or
// `Authentication failed: <message>` when the remote refused the
// credentials.
var (
	// ErrTransfer: the remote could not be reached, is no git repository,
	// redirects, the transfer passed the size cap or git failed.
	ErrTransfer = errors.New("mirror: transfer failed")
	// ErrTransferAuth: the remote refused the credentials (or asked for
	// some and none were given). It is also ErrTransfer.
	ErrTransferAuth = fmt.Errorf("mirror: the remote refused the credentials: %w", ErrTransfer)
)
