package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/hearthforge/hearth/auth"
)

// bootstrapAdmin creates the administrator on a start with none.
func bootstrapAdmin(ctx context.Context, svc *auth.Service, o options, stdout io.Writer, log *slog.Logger) error {
	password, generated := o.adminPassword, false
	if password == "" {
		password, generated = rand.Text(), true
	}
	mustChange := false
	created, err := svc.EnsureAdmin(ctx, auth.CreateUserOptions{
		Name:               o.adminUser,
		Email:              o.adminEmail,
		Password:           password,
		MustChangePassword: &mustChange,
	})
	if err != nil {
		return fmt.Errorf("create administrator %q: %w", o.adminUser, err)
	}
	switch {
	case created:
		log.Info("administrator created", "user", o.adminUser, "email", o.adminEmail)
		if generated {
			fmt.Fprintf(stdout, "Administrator %q created with password %s (shown once)\n", o.adminUser, password)
		}
	case !generated:
		log.Warn("an administrator exists: -admin-password (FORGED_ADMIN_PASSWORD) was ignored; " +
			"to change a password, run forged with -reset-admin-password")
	}
	return nil
}

// resetAdminPassword sets the password of o.adminUser, generated and printed
// when o.adminPassword is empty, and clears its must-change-password flag.
func resetAdminPassword(ctx context.Context, svc *auth.Service, o options, stdout io.Writer) error {
	password, generated := o.adminPassword, false
	if password == "" {
		password, generated = rand.Text(), true
	}
	u, err := svc.ResetPassword(ctx, o.adminUser, password)
	if err != nil {
		return fmt.Errorf("reset the password of %q: %w", o.adminUser, err)
	}
	if generated {
		fmt.Fprintf(stdout, "Password of %q reset to %s (shown once)\n", u.Name, password)
	} else {
		fmt.Fprintf(stdout, "Password of %q reset\n", u.Name)
	}
	if !u.IsAdmin {
		fmt.Fprintf(stdout, "Note: %q is not an administrator\n", u.Name)
	}
	return nil
}

// loadSecret reads the key that seals secrets at rest (TOTP secrets), making
// a random one on the first start. Losing it makes those secrets unusable.
func loadSecret(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key = []byte(rand.Text() + rand.Text())
		if err := os.WriteFile(path, key, 0o600); err != nil {
			return nil, fmt.Errorf("secret key: %w", err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	if len(key) < 16 {
		return nil, fmt.Errorf("secret key %s is too short", path)
	}
	return key, nil
}

// mirrorHolder is the mirror lease holder of the server listening on
// listen (its bound address) with data directory dataDir: stable across
// restarts of that server (a name kept in the data directory, the host
// name and the address), so that a restart after a crash releases the
// leases the crash left; distinct for every server sharing the data
// directory (two servers can't listen on one address of one host), so
// that neither takes nor releases the other's leases.
func mirrorHolder(dataDir, listen string) (string, error) {
	id, err := loadSecret(filepath.Join(dataDir, "mirror-holder"))
	if err != nil {
		return "", err
	}
	host, _ := os.Hostname()
	return host + "/" + listen + "/" + string(id[:16]), nil
}
