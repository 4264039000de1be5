package cupel

import (
	"cmp"
	"time"
)

// RecencyScorer ranks items by timestamp: the most recent item scores 1.0,
// the oldest 0.0, and the others rank / (countWithTimestamp - 1), where rank
// is the number of timestamped items strictly older than the item (spec
// chapter 14 (RecencyScorer)).
//
// Items without a timestamp score 0.0 and do not take part in the ranking;
// a lone timestamped item scores 1.0; tied timestamps get the same rank (all
// items sharing one timestamp score 0.0). Timestamps are compared as instants.
//
// A nil item scores 0, and nil entries of allItems are ignored. The zero
// value is ready to use; a RecencyScorer is safe for concurrent use.
type RecencyScorer struct{}

// NewRecencyScorer returns a RecencyScorer.
func NewRecencyScorer() *RecencyScorer { return &RecencyScorer{} }

// Score implements RECENCY-SCORE of spec chapter 14 (RecencyScorer):
// O(N) per item.
func (*RecencyScorer) Score(item *ContextItem, allItems []*ContextItem) float64 {
	if item == nil || !item.hasTimestamp {
		return 0.0
	}
	count, rank := 0, 0
	for _, other := range allItems {
		if other == nil || !other.hasTimestamp {
			continue
		}
		count++
		if other.timestamp.Before(item.timestamp) {
			rank++
		}
	}
	if count <= 1 {
		return 1.0
	}
	return float64(rank) / float64(count-1)
}

// ScoreAll ranks the timestamped items by sorting them: O(N log N). The
// sort key is the instant in Unix nanoseconds when every timestamp is within
// the int64 range of those (years 1678 to 2262), and the (seconds,
// nanoseconds) pair otherwise; both order exactly as time.Time.Before does.
// When every timestamp is a whole number of seconds, milliseconds or
// microseconds (as most stored timestamps are), the key counts in that
// unit instead: the same order, in fewer varying bytes, which the radix
// sort then skips.
func (*RecencyScorer) ScoreAll(items []*ContextItem, out []float64) {
	kp := getScratch(len(items))
	defer putScratch(kp)
	keys := (*kp)[:0] // keyed in seconds first, the unit of most timestamps
	nanosOK := true
	unit := int64(1e9) // the largest of 1s, 1ms, 1µs, 1ns dividing every timestamp
	for i, it := range items {
		out[i] = 0.0
		if it == nil || !it.hasTimestamp {
			continue
		}
		sec := it.timestamp.Unix()
		if !nanosExact(sec) {
			nanosOK = false // UnixNano would overflow
		}
		if ns := int64(it.timestamp.Nanosecond()); ns != 0 {
			for ns%unit != 0 {
				unit /= 1000
			}
		}
		keys = append(keys, keyIdx{signedKey(sec), i})
	}
	if unit == 1e9 {
		assignRanksKeys(keys, out)
		return
	}
	if nanosOK {
		for j, k := range keys {
			keys[j].key = recencyKey(items[k.idx].timestamp, unit)
		}
		assignRanksKeys(keys, out)
		return
	}
	es := make([]rankEntry[instant], 0, len(keys))
	for _, k := range keys {
		t := items[k.idx].timestamp
		es = append(es, rankEntry[instant]{instant{t.Unix(), t.Nanosecond()}, k.idx})
	}
	assignRanks(es, compareInstant, out)
}

// recencyKey is the order-preserving key of t counted in unit, which
// divides t's nanoseconds: Unix seconds when unit is a second, else
// UnixNano / unit, which must not overflow.
func recencyKey(t time.Time, unit int64) uint64 {
	if unit == 1e9 {
		return signedKey(t.Unix())
	}
	return signedKey(t.UnixNano() / unit)
}

// instant is a time.Time as seconds and nanoseconds since the Unix epoch.
type instant struct {
	sec  int64
	nsec int
}

func compareInstant(a, b instant) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}
