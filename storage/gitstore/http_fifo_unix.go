//go:build unix

package gitstore

import "syscall"

// mkfifo makes a FIFO at path (quotaGate).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }
