package actions

import (
	"regexp"
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// MaxNameLength caps secret and variable names (Forgejo's column width).
const MaxNameLength = 255

// MaxDataBytes caps the value of a secret or variable, as Forgejo's
// SecretDataMaxLength and VariableDataMaxLength (64 KiB).
const MaxDataBytes = 65536

// Errors of the name and data rules. They are forge.ErrInvalid; the API
// answers them with 400, as Forgejo's util.ErrInvalidArgument.
var (
	// ErrInvalidName is Forgejo's message for a secret or variable name
	// that is not an environment variable name or starts with a reserved
	// prefix (services/secrets ValidateName, used for variables too).
	ErrInvalidName = forge.Errorf(forge.ErrInvalid, "invalid secret name")
	// ErrCIName refuses a variable whose name starts with CI.
	ErrCIName = forge.Errorf(forge.ErrInvalid, "env name cannot be ci")
	// ErrDataTooLong refuses a value over MaxDataBytes.
	ErrDataTooLong = forge.Errorf(forge.ErrInvalid, "data too long")
	// ErrEmptyData refuses an empty secret value.
	ErrEmptyData = forge.Errorf(forge.ErrInvalid, "data is required")
)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reservedPrefixes are the prefixes no secret or variable may start with,
// compared upper-cased.
var reservedPrefixes = []string{"FORGEJO_", "GITEA_", "GITHUB_"}

// CanonicalName is a name as stored and listed: upper-cased. Lookups
// upper-case the name they are given, so they ignore case.
func CanonicalName(name string) string { return strings.ToUpper(name) }

// CheckSecretName returns ErrInvalidName unless name is an environment
// variable name (`^[A-Za-z_][A-Za-z0-9_]*$`, so no leading digit, no dash)
// of at most MaxNameLength bytes that does not start, ignoring case, with
// FORGEJO_, GITEA_ or GITHUB_.
func CheckSecretName(name string) error {
	if len(name) > MaxNameLength || !envName.MatchString(name) {
		return ErrInvalidName
	}
	up := CanonicalName(name)
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(up, p) {
			return ErrInvalidName
		}
	}
	return nil
}

// CheckVariableName is CheckSecretName, and also refuses names starting
// with CI, ignoring case (ErrCIName), as Forgejo's envNameCIRegexMatch.
func CheckVariableName(name string) error {
	if err := CheckSecretName(name); err != nil {
		return err
	}
	if strings.HasPrefix(CanonicalName(name), "CI") {
		return ErrCIName
	}
	return nil
}

// NormalizeData converts CRLF line endings to LF, as browsers' text areas
// send them and Forgejo stores them; everything else is kept verbatim.
func NormalizeData(data string) string { return strings.ReplaceAll(data, "\r\n", "\n") }

// CheckData returns ErrEmptyData for an empty value when required, and
// ErrDataTooLong for one over MaxDataBytes.
func CheckData(data string, required bool) error {
	switch {
	case required && data == "":
		return ErrEmptyData
	case len(data) > MaxDataBytes:
		return ErrDataTooLong
	}
	return nil
}
