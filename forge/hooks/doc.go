// Package hooks owns webhooks: system and default hooks (site
// administrators), repository, organisation and user hooks, the events they
// subscribe to, and their delivery. Events are queued as tasks in the store
// through the trusted Ports the composition root receives from
// NewWithPorts (it builds the payloads, Forgejo's full objects, with
// httpapi/convert; hooks decides which hooks receive each event) and
// delivered by Service.Run through a Sender, with signatures, time-outs
// and retries with back-off, in each hook type's format; the tasks are the
// delivery log.
// The domains append their events to the transactional outbox in the
// transaction of the change (outbox.go); a Dispatcher turns each into its
// tasks once, in the transaction that marks it processed.
//
// The rules (hook types, events, content types, URLs, branch filters, the
// remote address policy, forge/netpolicy's) are pure functions over
// values. The package imports forge, forge/netpolicy, a YAML decoder
// (sourcehut build manifests) and the standard library's non-network
// parts only: the HTTP
// transport is forge/hooks/hookhttp, which applies AddressPolicy at connect
// time.
package hooks
