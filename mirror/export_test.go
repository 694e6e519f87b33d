package mirror

// SetOnIdle lets tests know when a Scheduler blocks with no sync running.
func SetOnIdle(sc *Scheduler, f func()) { sc.onIdle = f }

// SetOnLoad lets tests know when a Scheduler has loaded due mirrors.
func SetOnLoad(sc *Scheduler, f func()) { sc.onLoad = f }

// HostAddr is hostAddr, for the address fuzz target.
var HostAddr = hostAddr

// CheckMigration is checkMigration, Migrate's checks of the source.
var CheckMigration = (*Service).checkMigration
