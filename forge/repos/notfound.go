package repos

import (
	"errors"
	"fmt"

	"github.com/hearthforge/hearth/forge"
)

// missing is the error for a thing that is not there inside a repository
// the actor may see: a release, an asset, a branch or tag protection rule.
// Its message says what (Forgejo's error text where Forgejo has one, such
// as `release does not exist [id: 1, tag_name: v1]`); it is
// forge.ErrNotFound, and errors.Is(err, ErrRepoNotFound) too, because
// Forgejo's handlers answer all of these with the same bare ctx.NotFound()
// as a missing repository.
func missing(format string, args ...any) error {
	return &forge.Error{Kind: forge.ErrNotFound, Message: fmt.Sprintf(format, args...), Err: ErrRepoNotFound}
}

// storeMissing returns what (a missing(...) error) when err is a store's
// forge.ErrNotFound, and err otherwise: storage answers bare categories,
// the domain words them.
func storeMissing(err error, what func() error) error {
	if errors.Is(err, forge.ErrNotFound) {
		return what()
	}
	return err
}

func releaseMissing(id forge.ID, tag string) func() error {
	return func() error { return missing("release does not exist [id: %d, tag_name: %s]", id, tag) }
}

func attachmentMissing(id forge.ID, uuid string) func() error {
	return func() error { return missing("attachment does not exist [id: %d, uuid: %s]", id, uuid) }
}

func protectionMissing(rule string) func() error {
	return func() error { return missing("branch protection does not exist [name: %s]", rule) }
}

func tagProtectionMissing(id forge.ID) func() error {
	return func() error { return missing("tag protection does not exist [id: %d]", id) }
}
