package mirror

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/hearthforge/hearth/forge"
)

// ParseInterval is the rule of an edited pull-mirror interval and of a push
// mirror's interval (routers/api/v1/repo/repo.go updateMirror): s is a Go
// duration; any zero duration disables periodic sync; a non-zero value
// below min (negative ones too) is forge.ErrInvalid `invalid mirror
// interval: <d> is below minimum interval: <min>`; an unparsable one is
// forge.ErrInvalid with Go's message (`time: invalid duration "x"`).
func ParseInterval(s string, min time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, forge.Errorf(forge.ErrInvalid, "%s", err.Error())
	}
	if d != 0 && d < min {
		return 0, forge.Errorf(forge.ErrInvalid, "invalid mirror interval: %s is below minimum interval: %s", d, min)
	}
	return d, nil
}

// MigrationInterval is the rule of mirror_interval at migration
// (services/repository/migrate.go): "" is def, zero disables, below min is
// forge.ErrInvalid `interval <d> is set below Minimum Interval of <min>`
// (Forgejo answers it with a 500; Hearth answers 422).
func MigrationInterval(s string, def, min time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, forge.Errorf(forge.ErrInvalid, "%s", err.Error())
	}
	if d != 0 && d < min {
		return 0, forge.Errorf(forge.ErrInvalid, "interval %s is set below Minimum Interval of %s", d, min)
	}
	return d, nil
}

// NextUpdate is the next-update rule (models/repo/mirror.go
// ScheduleNextUpdate): now + interval, or the zero time (never on schedule)
// when interval is 0.
func NextUpdate(now time.Time, interval time.Duration) time.Time {
	if interval <= 0 {
		return time.Time{}
	}
	return now.Add(interval)
}

// Jitter is the delay, in [0, window), a Scheduler adds to a mirror's
// next-update time before starting it, so that mirrors due at one moment
// (ten thousand created together with one interval) start spread over the
// window. It is a hash of the mirror's key: the same mirror always gets
// the same offset, so its period stays the interval. Whole seconds.
func Jitter(k Key, window time.Duration) time.Duration {
	secs := int64(window / time.Second)
	if secs <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(string(k.Kind)))
	h.Write([]byte(strconv.FormatInt(int64(k.ID), 10)))
	return time.Duration(h.Sum64()%uint64(secs)) * time.Second
}

// Backoff is how long after its failures-th consecutive failure (1 for the
// first) a mirror is retried: base doubled per failure, capped at ceiling.
// A zero base is DefaultRetryBase; a ceiling below base is base.
func Backoff(failures int, base, ceiling time.Duration) time.Duration {
	if base <= 0 {
		base = DefaultRetryBase
	}
	if ceiling < base {
		ceiling = base
	}
	d := base
	for i := 1; i < failures && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}
