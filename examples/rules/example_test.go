package rules_test

import (
	"context"
	"fmt"

	"github.com/hearthforge/hearth/auth"
	"github.com/hearthforge/hearth/examples/rules"
	"github.com/hearthforge/hearth/forge"
	"github.com/hearthforge/hearth/forge/repos"
	"github.com/hearthforge/hearth/storage/memgit"
	"github.com/hearthforge/hearth/storage/memstore"
)

// Hearth's pure rules answer product questions with no store at all.
func Example_pureRules() {
	scope, err := forge.ParseScope("read:repository", "write:issue")
	fmt.Println(scope, err)
	fmt.Println(scope.Has(forge.CategoryRepository, forge.AccessWrite))

	owner := &forge.User{ID: 1, Name: "ann", Visibility: forge.VisibilityLimited}
	repo := &forge.Repository{ID: 7, OwnerID: 1, Name: "tools"}
	fmt.Println(repos.Permission(forge.Actor{}, repo, owner, forge.AccessNone) >= forge.AccessModeRead)

	tags := []*repos.TagProtection{{NamePattern: "v*", WhitelistUserIDs: []forge.ID{owner.ID}}}
	fmt.Println(repos.CanChangeTag(tags, 2, "v1.0"), repos.CanChangeTag(tags, owner.ID, "v1.0"))

	fmt.Println(auth.ValidateUsername("new"))
	// Output:
	// write:issue,read:repository <nil>
	// false
	// false
	// false true
	// name is reserved [name: new]
}

// A product's own decision, built on the rules.
func ExampleMayPublish() {
	ann := &forge.User{ID: 1, Name: "ann", Visibility: forge.VisibilityPublic}
	t := rules.Target{Repo: &forge.Repository{ID: 7, OwnerID: 1, Name: "tools"}, Owner: ann}
	fmt.Println(rules.MayPublish(forge.Actor{User: ann, Method: forge.AuthPassword}, t, "v1"))
	fmt.Println(rules.MayPublish(forge.Actor{}, t, "v1"))
	// Output:
	// <nil>
	// not allowed: sign in first
}

// Services run on memstore and memgit: the whole rule engine in memory,
// without a git binary.
func ExampleOnboarding_Onboard() {
	ctx := context.Background()
	git := memgit.New()
	store := memstore.New()
	users, err := auth.New(auth.Config{Store: store.Auth(), Password: auth.PasswordParams{Time: 1, MemoryKiB: 64, Threads: 1}})
	if err != nil {
		panic(err)
	}
	if _, err := users.EnsureAdmin(ctx, auth.CreateUserOptions{Name: "root", Email: "root@example.com", Password: "root-password", MustChangePassword: new(bool)}); err != nil {
		panic(err)
	}
	root, err := users.Authenticate(ctx, auth.Credentials{Basic: true, Username: "root", Password: "root-password"})
	if err != nil {
		panic(err)
	}
	rs, err := repos.New(repos.Config{Store: store.Repos(), Git: git})
	if err != nil {
		panic(err)
	}
	o := &rules.Onboarding{Users: users, Repos: rs,
		Admin: root}

	v, err := o.Onboard(ctx, "dana", "dana@example.com", "long-enough")
	fmt.Println(v.Repo.FullName(), v.Repo.Private, err)
	_, err = o.Onboard(ctx, "Dana", "dana2@example.com", "long-enough")
	fmt.Println(err)
	// Output:
	// dana/starter true <nil>
	// user already exists [name: Dana]
}
