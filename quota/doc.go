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
// Concurrent writers of one owner cannot overshoot together: the check
// and the charge are one step. A write whose bytes are counters or rows
// (attachments, LFS, packages, artifacts) calls Charge in the
// transaction that writes them; a write whose size is measured only
// after it lands (git: a push, a contents commit) calls Reserve, which
// records the estimate in the check's transaction, and releases the
// reservation once the measured size replaced it (reserve.go). Both rely
// on write transactions of one store never interleaving a check and a
// charge: SQLite's one writer, memstore's writer lock, PostgreSQL's
// SERIALIZABLE transactions (retried on a conflict).
//
// quota imports forge and the standard library only: never net/http,
// database/sql, a driver, go-git or another domain package.
package quota
