package httpapi

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
)

// TestNewRefusesIncompleteConfig: a handler without its required parts is an
// error at construction, not a nil-pointer panic on the first request.
func TestNewRefusesIncompleteConfig(t *testing.T) {
	t.Parallel()
	_, err := New(Config{})
	assert.Error(t, err, "no Auth")
	_, err = New(Config{Auth: new(auth.Service), Git: gitstoreless{}})
	assert.Error(t, err, "Git without Repos")
}

// gitstoreless is a GitServer that serves nothing.
type gitstoreless struct{}

func (gitstoreless) ServeGitRPC(http.ResponseWriter, *http.Request, forge.ID, string, bool, string, []string) []repos.RefUpdate {
	return nil
}
