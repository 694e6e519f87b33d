package forge_test

import (
	"errors"
	"testing"

	"github.com/hearthforge/hearth/forge"
)

func TestCheckUserName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"alice":     "",
		"a.b-c_d":   "",
		"0day":      "",
		"":          "name is empty",
		"Admin":     "name is reserved [name: admin]",
		"new":       "name is reserved [name: new]",
		"keys.keys": "name pattern is not allowed [pattern: *.keys]",
		"x.GPG":     "name pattern is not allowed [pattern: *.gpg]",
		"-lead":     "name is invalid [-lead]: must be valid alpha or numeric or dash(-_) or dot characters",
		"trail.":    "name is invalid [trail.]: must be valid alpha or numeric or dash(-_) or dot characters",
		"dou..ble":  "name is invalid [dou..ble]: must be valid alpha or numeric or dash(-_) or dot characters",
		"sp ace":    "name is invalid [sp ace]: must be valid alpha or numeric or dash(-_) or dot characters",
		"a123456789012345678901234567890123456789":  "",
		"a1234567890123456789012345678901234567890": "name is too long [name: a1234567890123456789012345678901234567890]",
	} {
		err := forge.CheckUserName(name)
		switch {
		case want == "" && err != nil:
			t.Errorf("CheckUserName(%q) = %v, want nil", name, err)
		case want != "" && (err == nil || err.Error() != want || !errors.Is(err, forge.ErrInvalid)):
			t.Errorf("CheckUserName(%q) = %v, want ErrInvalid %q", name, err, want)
		}
	}
}
