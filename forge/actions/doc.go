// Package actions owns Forgejo Actions' configuration as embeddable Go:
// secrets (sealed at rest, never returned), variables, runner registration
// tokens, runners, and the records of workflow runs. Hearth executes no job:
// a workflow dispatch is recorded as a waiting run, and the job and task
// listings hold what something else records.
//
// Secrets, variables, tokens and runners live at one of four levels
// (Target): a repository, an organisation, a user, or the whole instance.
// Who may reach a level is Forgejo's: owners of the repository, owners of
// the organisation, the user themself, site administrators.
//
// It imports forge and the standard library only; repositories and
// organisations are reached through one-method interfaces (RepoAccess,
// OrgRole) that the wiring fills with repos.Service and orgs.Service.
package actions
