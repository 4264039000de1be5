package cupelotel

import "time"

// SetClock makes t and the collectors it starts read time from clock.
func SetClock(t *Tracer, clock func() time.Time) { t.clock = clock }
