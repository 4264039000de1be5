package casefile

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/wirejson"
)

// The items of a case are written and read without reflection
// (wire_items.go). These tests hold them to encoding/json: refItem is the
// reflective form the protocol had before, and every input, from the
// suite and made up here, must give the same bytes, and read back the
// same with the fast reader as with encoding/json.

// refItem writes an item by reflection, as Item.MarshalJSON did before
// wire_items.go.
type refItem Item

func (it refItem) MarshalJSON() ([]byte, error) {
	type plain Item
	p := plain(it)
	var ts *string
	if it.Timestamp != nil {
		s := it.Timestamp.UTC().Format(time.RFC3339Nano)
		ts = &s
	}
	p.Timestamp, p.Metadata = nil, nil
	var md map[string]any
	if it.Metadata != nil {
		md = make(map[string]any, len(it.Metadata))
		for k, v := range it.Metadata {
			if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
				s, _ := Float(f).MarshalJSON()
				var str string
				_ = json.Unmarshal(s, &str)
				md[k] = MetadataFloat{Float: str}
				continue
			}
			md[k] = v
		}
	}
	return json.Marshal(struct {
		plain
		Timestamp *string        `json:"timestamp,omitempty"`
		Metadata  map[string]any `json:"metadata,omitempty"`
	}{p, ts, md})
}

// refMarshal writes in by reflection.
func refMarshal(in Input) ([]byte, error) {
	cfg, err := in.config()
	if err != nil {
		return nil, err
	}
	var items []refItem
	if in.Items != nil {
		items = make([]refItem, len(in.Items))
		for i, it := range in.Items {
			items[i] = refItem(it)
		}
	}
	return json.Marshal(struct {
		wireConfig
		Items []refItem `json:"items"`
	}{cfg, items})
}

// slowInput reads b with encoding/json alone, as Input.UnmarshalJSON did
// before wire_items.go (its items by the reflective path of
// Item.UnmarshalJSON).
func slowInput(b []byte) (wireInput, error) {
	var w struct {
		wireConfig
		Items []slowItem `json:"items"`
	}
	err := json.Unmarshal(b, &w)
	out := wireInput{wireConfig: w.wireConfig}
	if w.Items != nil {
		out.Items = make([]Item, len(w.Items))
		for i, it := range w.Items {
			out.Items[i] = Item(it)
		}
	}
	return out, err
}

type slowItem Item

func (it *slowItem) UnmarshalJSON(b []byte) error { return (*Item)(it).unmarshalSlow(b) }

// fastInput reads b with the fast reader alone; ok is false when it
// declines (UnmarshalJSON then uses encoding/json).
func fastInput(b []byte) (w wireInput, ok bool) {
	r := wirejson.NewReader(b)
	readWireInput(r, &w)
	return w, r.Done()
}

// randomItems makes items with every field and unusual values: strings that
// encoding/json escapes, metadata of every type, floats of every form.
func randomItems(rng *rand.Rand, n int, plain bool) []Item {
	strs := []string{"", "c1", "Message", "héllo", "日本", "Note-LongLongLong", "a<b>&c", "quote\"back\\slash", "tab\tnew\nline", "\x01ctl", "\u2028sep", "bad\xffutf8"}
	if plain { // none that encoding/json escapes
		strs = strs[:6]
	}
	floats := []float64{0, 1, -1, 0.5, 1e-7, 1e-6, 1e20, 1e21, 123456789e30, -2.5e-9, 0.3333333333333333, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64}
	pick := func() string { return strs[rng.IntN(len(strs))] }
	items := make([]Item, n)
	for i := range items {
		it := Item{Index: i, Content: pick(), Tokens: rng.Int64N(1<<40) - 1<<39, Kind: pick(), Source: pick()}
		if rng.IntN(2) == 0 {
			p := rng.Int64() - math.MaxInt64/2
			it.Priority = &p
		}
		for k := rng.IntN(3); k > 0; k-- {
			it.Tags = append(it.Tags, pick())
		}
		if rng.IntN(2) == 0 {
			t := time.Unix(rng.Int64N(1<<35)-1<<34, rng.Int64N(1e9)).In(time.FixedZone("x", 3600))
			it.Timestamp = &t
		}
		if rng.IntN(2) == 0 {
			it.FutureRelevanceHint = FloatPtr(floats[rng.IntN(len(floats))])
		}
		if rng.IntN(2) == 0 {
			it.Score = FloatPtr(floats[rng.IntN(len(floats))])
		}
		it.Pinned = rng.IntN(4) == 0
		if rng.IntN(2) == 0 {
			it.Metadata = map[string]any{}
			for k := rng.IntN(4); k > 0; k-- {
				var v any
				kinds := 5
				if plain {
					kinds = 3
				}
				switch rng.IntN(kinds) {
				case 0:
					v = pick()
				case 1:
					v = floats[rng.IntN(len(floats))]
				case 2:
					v = rng.IntN(2) == 0
				case 3:
					v = nil
				default:
					v = []any{1.5, "x"}
				}
				it.Metadata[pick()] = v
			}
		}
		items[i] = it
	}
	return items
}

// sameJSON compares two decoded inputs by their JSON (NaN equals itself
// there).
func sameJSON(a, b wireInput) {
	ja, err := json.Marshal(a.wireConfig)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	jb, err := json.Marshal(b.wireConfig)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	gomega.Expect(string(ja)).To(gomega.Equal(string(jb)))
	gomega.Expect(a.Items == nil).To(gomega.Equal(b.Items == nil))
	gomega.Expect(a.Items).To(gomega.HaveLen(len(b.Items)))
	for i := range a.Items {
		ia, err := refItem(a.Items[i]).MarshalJSON()
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		ib, err := refItem(b.Items[i]).MarshalJSON()
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(string(ia)).To(gomega.Equal(string(ib)))
		gomega.Expect(a.Items[i].Tags == nil).To(gomega.Equal(b.Items[i].Tags == nil))
		gomega.Expect(a.Items[i].Metadata == nil).To(gomega.Equal(b.Items[i].Metadata == nil))
	}
}

var _ = ginkgo.Describe("a case's items on the wire", func() {
	suite, err := LoadSuite(nil)

	check := func(what string, in Input) {
		want, werr := refMarshal(in)
		got, gerr := in.MarshalJSON()
		if werr != nil {
			gomega.Expect(gerr).To(gomega.HaveOccurred(), what)
			return
		}
		gomega.Expect(gerr).NotTo(gomega.HaveOccurred(), what)
		gomega.Expect(string(got)).To(gomega.Equal(string(want)), what)
		slow, err := slowInput(got)
		gomega.Expect(err).NotTo(gomega.HaveOccurred(), what)
		if fast, ok := fastInput(got); ok {
			sameJSON(fast, slow)
		}
		var back Input
		gomega.Expect(back.UnmarshalJSON(got)).To(gomega.Succeed(), what)
		// Not always got itself: invalid UTF-8 reads back as U+FFFD.
		again, err := back.MarshalJSON()
		gomega.Expect(err).NotTo(gomega.HaveOccurred(), what)
		want, err = refMarshal(back)
		gomega.Expect(err).NotTo(gomega.HaveOccurred(), what)
		gomega.Expect(string(again)).To(gomega.Equal(string(want)), what)
	}

	ginkgo.It("are written as encoding/json writes them, and read back the same by both readers", func() {
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		for _, c := range suite.Cases {
			check(c.ID, c.Input)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 300 {
			in := Input{Items: randomItems(rng, rng.IntN(6), false)}
			if i%3 == 0 {
				in.Budget = &Budget{MaxTokens: 10, TargetTokens: 5, ReservedSlots: map[string]int64{"b": 1, "a<": 2}, EstimationSafetyMarginPercent: 12.5}
			}
			check(fmt.Sprint("random ", i), in)
		}
		check("no items", Input{})
	})

	ginkgo.It("are read by the fast reader from the runner's own messages, and by encoding/json otherwise", func() {
		rng := rand.New(rand.NewPCG(3, 4))
		for range 200 {
			b, err := Input{Items: randomItems(rng, 3, true), Budget: &Budget{MaxTokens: 3}}.MarshalJSON()
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			_, ok := fastInput(b)
			gomega.Expect(ok).To(gomega.BeTrue(), string(b))
		}
		plain := `{"budget":{"maxTokens":5,"targetTokens":4,"outputReserve":0,"estimationSafetyMarginPercent":"NaN"},"items":[{"index":0,"content":"c0","tokens":3,"kind":"Message","source":"Chat","tags":[],"score":-0.0,"timestamp":"2024-01-01T00:00:00Z","metadata":{"a":{"float":"-Infinity"},"b":-1e-7,"c":true}}]}`
		fast, ok := fastInput([]byte(plain))
		gomega.Expect(ok).To(gomega.BeTrue())
		slow, err := slowInput([]byte(plain))
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		sameJSON(fast, slow)
		gomega.Expect(fast.Items[0].Tags).To(gomega.Equal([]string{}))
		gomega.Expect(math.IsInf(fast.Items[0].Metadata["a"].(float64), -1)).To(gomega.BeTrue())

		// What the fast reader declines, encoding/json reads (or refuses)
		// as before: a key in other case, a duplicate key, null, escapes,
		// an integer with a fraction, trailing text.
		for _, text := range []string{
			`{"Items":[{"Index":1,"content":"x"}]}`,
			`{"items":[{"index":1,"index":2}]}`,
			`{"items":[{"index":1,"priority":null}]}`,
			`{"items":[{"content":"a\u0062"}]}`,
			`{"items":[{"tokens":1.5}]}`,
			`{"items":[{"metadata":{"k":[1,null]}}]}`,
			`{"items":[]} x`,
			`{"items":[{"metadata":{"k":{"float":"nan"}}}]}`,
			`{"items":[{"timestamp":"2024-01-01"}]}`,
		} {
			_, ok := fastInput([]byte(text))
			gomega.Expect(ok).To(gomega.BeFalse(), text)
			want, werr := slowInput([]byte(text))
			var in Input
			gerr := in.UnmarshalJSON([]byte(text))
			if werr != nil {
				var w wireInput // the error names the type decoded into
				gomega.Expect(gerr).To(gomega.MatchError(json.Unmarshal([]byte(text), &w).Error()), text)
				continue
			}
			gomega.Expect(gerr).NotTo(gomega.HaveOccurred(), text)
			sameJSON(wireInput{Items: in.Items}, wireInput{Items: want.Items})
		}
	})
})
