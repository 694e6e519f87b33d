package httpapi

import (
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/httpapi/convert"
	"github.com/hearthforge/hearth/httpapi/wire"
)

// issueConv returns the issue converters for this call: the poster as the
// caller may see it, assignees and comment posters as an anonymous caller.
func (c *call) issueConv() convert.Issues {
	root := c.rootURL()
	return convert.Issues{
		Root:   root,
		AsDoer: c.toUser,
		AsAnon: func(u *forge.User) wire.User { return convert.UserFor(root, c.placeholderEmail(u), forge.Actor{}, u) },
	}
}
