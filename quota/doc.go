// Package quota is Forgejo's storage quota: subjects (the tree of what is
// counted), rules (a limit on the sum of some subjects), groups of rules,
// the membership of users and organisations in groups, the usage of each
// owner kept as counters, the pure evaluation of Forgejo's rules
// (Evaluate), and the one check every write calls inside its transaction
// (Charge).
//
// Usage is not recomputed with SUM queries on every check as Forgejo does:
// each owner has one counter per Bucket (the leaves of the subject tree),
// changed by the write that changes the usage, in the same transaction
// (see UsageTx). Recount recomputes the counters from the source rows and
// reports drift.
//
// Beyond Forgejo, Charge takes the size of the incoming write: a write
// whose delta would carry a rule's sum past its limit is refused, so one
// upload cannot overshoot; with a delta of 0 the answer is Forgejo's
// (allowed iff the current sum is below the limit).
//
// quota imports forge and the standard library only: never net/http,
// database/sql, a driver, go-git or another domain package.
package quota
