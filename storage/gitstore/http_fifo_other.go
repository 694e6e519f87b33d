//go:build !unix

package gitstore

import "errors"

// mkfifo: no FIFOs here, so no quotaGate; a push is checked against its
// allowance only (HEARTH_QUOTA_ALLOWANCE).
func mkfifo(string) error { return errors.ErrUnsupported }
