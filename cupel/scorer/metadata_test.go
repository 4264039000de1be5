package scorer_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupel/scorer"
)

// scStringer has a String method, for the MetadataKey conversion.
type scStringer struct{}

func (scStringer) String() string { return "high" }

var _ = Describe("MetadataTrustScorer (spec chapter MetadataTrustScorer)", func() {
	mustTrust := func(def float64) *scorer.MetadataTrust {
		GinkgoHelper()
		s, err := scorer.NewMetadataTrust(def)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	s := mustTrust(0.5)
	trust := func(v any) *cupel.ContextItem { return scItem("x", scMeta(scorer.MetadataKeyTrust, v)) }

	It("reads the reserved key cupel:trust", func() {
		Expect(scorer.MetadataKeyTrust).To(Equal("cupel:trust"))
	})

	DescribeTable("edge cases (string values)",
		func(it *cupel.ContextItem, want float64) { expectScores(s, []*cupel.ContextItem{it}, want) },
		Entry("key absent", scItem("x", scMeta("other", "0.9")), 0.5),
		Entry(`unparseable "high"`, trust("high"), 0.5),
		Entry(`unparseable ""`, trust(""), 0.5),
		Entry(`"NaN"`, trust("NaN"), 0.5),
		Entry(`"+Infinity"`, trust("+Infinity"), 0.5),
		Entry(`"-Infinity"`, trust("-Infinity"), 0.5),
		Entry(`"0.0"`, trust("0.0"), 0.0),
		Entry(`"0.75"`, trust("0.75"), 0.75),
		Entry(`"1.0"`, trust("1.0"), 1.0),
		Entry(`"-0.1" (clamped)`, trust("-0.1"), 0.0),
		Entry(`"1.5" (clamped)`, trust("1.5"), 1.0),
	)

	DescribeTable("conformance vector outlines",
		func(it *cupel.ContextItem, want float64) { expectScores(s, []*cupel.ContextItem{it}, want) },
		Entry(`1. present and valid "0.85"`, trust("0.85"), 0.85),
		Entry("2. key absent: the default", scItem("x"), 0.5),
		Entry(`3. unparseable "high": the default, not an error`, trust("high"), 0.5),
		Entry(`4. out of range "1.5": clamped to 1.0`, trust("1.5"), 1.0),
		Entry(`5. non-finite "NaN": the default`, trust("NaN"), 0.5),
		Entry(`5. non-finite "Infinity": the default`, trust("Infinity"), 0.5),
	)

	DescribeTable("stored values (ruling 20)",
		func(v any, want float64) { expectScores(s, []*cupel.ContextItem{trust(v)}, want) },
		Entry("a float64 is used directly", 0.85, 0.85),
		Entry("a float64 above 1 is clamped", 1.5, 1.0),
		Entry("a float64 below 0 is clamped", -2.0, 0.0),
		Entry("a NaN float64 gives the default", math.NaN(), 0.5),
		Entry("a +Inf float64 gives the default", math.Inf(1), 0.5),
		Entry("a -Inf float64 gives the default", math.Inf(-1), 0.5),
		Entry("an int is a parse failure", 1, 0.5),
		Entry("a float32 is a parse failure", float32(0.25), 0.5),
		Entry("a bool is a parse failure", true, 0.5),
		Entry("nil is a parse failure", nil, 0.5),
		Entry("a []byte is a parse failure", []byte("0.25"), 0.5),
	)

	DescribeTable("decimal string syntax (ruling 20)",
		func(v string, want float64) { expectScores(s, []*cupel.ContextItem{trust(v)}, want) },
		Entry("an exponent", "2.5e-1", 0.25),
		Entry("an upper-case exponent with sign", "25E-2", 0.25),
		Entry("a leading plus", "+0.25", 0.25),
		Entry("no integer part", ".25", 0.25),
		Entry("no fraction digits", "1.", 1.0),
		Entry("an integer", "0", 0.0),
		Entry("negative zero", "-0", 0.0),
		Entry("many digits", "0.333333333333333333333333", 0.3333333333333333),
		Entry("underflow parses as 0", "1e-400", 0.0),
		Entry("overflow gives the default", "1e400", 0.5),
		Entry("no hexadecimal forms", "0x1p-2", 0.5),
		Entry("no hexadecimal integers", "0x0", 0.5),
		Entry("no digit separators", "0_5", 0.5),
		Entry("no leading space", " 0.25", 0.5),
		Entry("no trailing space", "0.25 ", 0.5),
		Entry("no trailing newline", "0.25\n", 0.5),
		Entry("no lone dot", ".", 0.5),
		Entry("no lone sign", "-", 0.5),
		Entry("no empty exponent", "1e", 0.5),
		Entry("no double sign", "+-1", 0.5),
		Entry("no comma decimal", "0,25", 0.5),
		Entry(`"inf" gives the default`, "inf", 0.5),
		Entry(`"-infinity" gives the default`, "-infinity", 0.5),
		Entry(`"nan" gives the default`, "nan", 0.5),
		Entry("trailing garbage", "0.25abc", 0.5),
	)

	It("returns its configured default, 0 and 1 included", func() {
		for _, def := range []float64{0, 0.2, 1} {
			expectScores(mustTrust(def), []*cupel.ContextItem{scItem("x"), trust("bad"), trust(0.6)}, def, def, 0.6)
			Expect(mustTrust(def).DefaultScore()).To(Equal(def))
		}
	})

	It("ignores allItems and scores a nil item 0", func() {
		Expect(s.Score(trust("0.3"), []*cupel.ContextItem{nil})).To(Equal(0.3))
		Expect(s.Score(nil, nil)).To(Equal(0.0))
	})

	DescribeTable("construction validation",
		func(def float64) {
			t, err := scorer.NewMetadataTrust(def)
			expectConfigError(err, "defaultScore")
			Expect(t).To(BeNil())
		},
		Entry("below 0", -0.1),
		Entry("above 1", 1.1),
		Entry("NaN", math.NaN()),
		Entry("+Inf", math.Inf(1)),
	)
})

var _ = Describe("MetadataKeyScorer (spec chapter MetadataKeyScorer)", func() {
	mustKey := func(key, value string, boost float64) *scorer.MetadataKey {
		GinkgoHelper()
		s, err := scorer.NewMetadataKey(key, value, boost)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	s := mustKey("cupel:priority", "high", 1.5)
	prio := func(v any) *cupel.ContextItem { return scItem("x", scMeta("cupel:priority", v)) }

	Describe("conformance vector outlines", func() {
		It("1. returns boost on a match", func() { expectScores(s, []*cupel.ContextItem{prio("high")}, 1.5) })
		It("2. returns the neutral 1.0 on a mismatch", func() { expectScores(s, []*cupel.ContextItem{prio("normal")}, 1.0) })
		It("3. returns 1.0 for a missing key, whatever the boost", func() {
			expectScores(s, []*cupel.ContextItem{scItem("x"), scItem("y", scMeta("other", "high"))}, 1, 1)
			expectScores(mustKey("cupel:priority", "high", 0.01), []*cupel.ContextItem{scItem("x")}, 1)
		})
		It("4. rejects a zero boost", func() {
			_, err := scorer.NewMetadataKey("cupel:priority", "high", 0.0)
			expectConfigError(err, "boost")
		})
		It("5. rejects a negative boost", func() {
			_, err := scorer.NewMetadataKey("cupel:priority", "high", -1.0)
			expectConfigError(err, "boost")
		})
	})

	Describe("edge cases and conformance notes", func() {
		It("rejects NaN and infinite boosts", func() {
			for _, b := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				k, err := scorer.NewMetadataKey("k", "v", b)
				expectConfigError(err, "boost")
				Expect(k).To(BeNil())
			}
		})
		It("does not clamp: boosts above and below 1 are returned as is", func() {
			expectScores(mustKey("k", "v", 3), []*cupel.ContextItem{scItem("x", scMeta("k", "v"))}, 3)
			expectScores(mustKey("k", "v", 0.25), []*cupel.ContextItem{scItem("x", scMeta("k", "v")), scItem("y")}, 0.25, 1)
		})
		It("compares string to string exactly, without normalization", func() {
			expectScores(s, []*cupel.ContextItem{prio("High"), prio("high "), prio("HIGH"), prio("high")}, 1, 1, 1, 1.5)
			expectScores(mustKey("k", "", 2), []*cupel.ContextItem{scItem("x", scMeta("k", "")), scItem("y", scMeta("k", " "))}, 2, 1)
		})
		It("converts non-string values to their default string form (decision: fmt.Sprint)", func() {
			expectScores(mustKey("k", "1.5", 2), []*cupel.ContextItem{scItem("a", scMeta("k", 1.5)), scItem("b", scMeta("k", float32(1.5))), scItem("c", scMeta("k", 1.50001))}, 2, 2, 1)
			expectScores(mustKey("k", "3", 2), []*cupel.ContextItem{scItem("a", scMeta("k", 3)), scItem("b", scMeta("k", 3.0)), scItem("c", scMeta("k", int64(4)))}, 2, 2, 1)
			expectScores(mustKey("k", "true", 2), []*cupel.ContextItem{scItem("a", scMeta("k", true)), scItem("b", scMeta("k", false))}, 2, 1)
			expectScores(s, []*cupel.ContextItem{prio(scStringer{})}, 1.5)
		})
		It("never matches a nil value", func() {
			expectScores(mustKey("k", "<nil>", 2), []*cupel.ContextItem{scItem("a", scMeta("k", nil))}, 1)
		})
		It("has accessors, ignores allItems and scores a nil item 0", func() {
			Expect(s.Key()).To(Equal("cupel:priority"))
			Expect(s.Value()).To(Equal("high"))
			Expect(s.Boost()).To(Equal(1.5))
			Expect(s.Score(prio("high"), []*cupel.ContextItem{nil})).To(Equal(1.5))
			Expect(s.Score(nil, nil)).To(Equal(0.0))
		})
	})
})
