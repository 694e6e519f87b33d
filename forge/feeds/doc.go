// Package feeds owns the activity feeds (Forgejo's models/activities
// action table, its feed and heatmap queries, and services/feed's
// notifier): what users did on repositories, as rows per receiver (the
// doer, the organisation owning the repository, and each watcher who may
// read the unit acted on), listed for a user, an organisation, a team or
// a repository, and counted per quarter of an hour for a user's heatmap.
//
// It is a package of its own because its rows are written from the
// events of several domains (issues, forge/repos) and read through the
// visibility rules of others (repositories, users, organisations, teams):
// it learns of events through Ports.Record, which the composition root
// calls as one more outbox consumer (forge/site), so that feeds survive a
// crash as notifications do, and asks the other domains through the small
// interfaces Repos, Accounts, Orgs, Teams and Watchers declared here with
// forge types only.
//
// It imports forge and the standard library only.
package feeds
