package main

import (
	"fmt"
	"os"

	"github.com/hearthforge/hearth/forge/gpgkeys"
)

// loadSigningKeys reads the files -signing-key-gpg and -signing-key-ssh
// name (either may be empty: no such key) into the keys the site serves.
func loadSigningKeys(gpgPath, sshPath string) (gpgkeys.SigningKeys, error) {
	read := func(flag, path string) ([]byte, error) {
		if path == "" {
			return nil, nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return b, nil
	}
	gpgKey, err := read("-signing-key-gpg", gpgPath)
	if err != nil {
		return gpgkeys.SigningKeys{}, err
	}
	sshKey, err := read("-signing-key-ssh", sshPath)
	if err != nil {
		return gpgkeys.SigningKeys{}, err
	}
	keys, err := gpgkeys.ParseSigningKeys(gpgKey, sshKey)
	if err != nil {
		return gpgkeys.SigningKeys{}, fmt.Errorf("signing keys: %w", err)
	}
	return keys, nil
}
