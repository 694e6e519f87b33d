package issues

import (
	"strings"

	"github.com/hearthforge/hearth/forge"
)

// NormalizeColor validates a label colour and returns it as Forgejo stores
// it: lower-case "#rrggbb". Accepted are #rgb, rgb, #rrggbb and rrggbb in
// any case; anything else is forge.ErrInvalid `bad color code: <c>`
// (modules/label NormalizeColor).
func NormalizeColor(c string) (string, error) {
	h := strings.TrimPrefix(c, "#")
	if len(h) != 3 && len(h) != 6 || strings.TrimLeft(h, "0123456789abcdefABCDEF") != "" {
		return "", forge.Errorf(forge.ErrInvalid, "bad color code: %s", c)
	}
	h = strings.ToLower(h)
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	return "#" + h, nil
}
