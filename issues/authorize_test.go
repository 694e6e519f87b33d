package issues_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/issues"
)

// TestAuthorizeByOperation: the probe of a gated operation checks what
// that operation checks before its body (a reader may open an issue but
// not create a label; anonymous callers are `token is required`; a
// private repository is not found), and an operation that is not gated
// is forge.ErrInvalid.
func TestAuthorizeByOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.user("ann")
	reader := e.user("reader")
	e.repo(ann, "pub", false)
	e.repo(ann, "priv", true)
	e.collab(ann, "pub", reader, forge.AccessModeRead)
	pub, priv := issues.Target{Owner: "ann", Name: "pub"}, issues.Target{Owner: "ann", Name: "priv"}
	for _, c := range []struct {
		name  string
		actor forge.Actor
		op    string
		t     issues.Target
		kind  error // nil for no error
		msg   string
	}{
		{"reader opens an issue", reader, "issueCreateIssue", pub, nil, ""},
		{"reader creates a label", reader, "issueCreateLabel", pub, forge.ErrForbidden, "user should have a permission to write to a repo"},
		{"owner creates a label", ann, "issueCreateLabel", pub, nil, ""},
		{"anonymous opens an issue", forge.Anonymous, "issueCreateIssue", pub, forge.ErrUnauthenticated, "token is required"},
		{"reader on a private repository", reader, "issueCreateIssue", priv, forge.ErrNotFound, ""},
		{"not gated", ann, "issueGetIssue", pub, forge.ErrInvalid, ""},
		{"no operation", ann, "nope", pub, forge.ErrInvalid, ""},
	} {
		err := e.svc.Authorize(e.ctx, c.actor, c.op, c.t)
		if c.kind == nil {
			require.NoError(t, err, c.name)
			continue
		}
		require.ErrorIs(t, err, c.kind, c.name)
		if c.msg != "" {
			require.EqualError(t, err, c.msg, c.name)
		}
	}
}
