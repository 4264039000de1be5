package wirejson_test

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/cupel-go/go-cupel/internal/jsonfloat"
	"github.com/cupel-go/go-cupel/internal/wirejson"
)

var _ = ginkgo.Describe("wirejson", func() {
	ginkgo.It("reads a number where encoding/json reads one, with its value", func() {
		for _, lit := range []string{"0", "-0", "12", "-7", "1.5", "1e3", "1E+3", "2.5e-7", "00", "01", "1.", ".5", "-", "1e", "+1", "0x1", "1e400", "9223372036854775807", "9223372036854775808"} {
			var want float64
			werr := json.Unmarshal([]byte(lit), &want)
			r := wirejson.NewReader([]byte(lit))
			got := r.Float64()
			if werr != nil {
				gomega.Expect(r.Done()).To(gomega.BeFalse(), lit)
				continue
			}
			gomega.Expect(r.Done()).To(gomega.BeTrue(), lit)
			gomega.Expect(got).To(gomega.Equal(want), lit)

			var wantInt int64
			ierr := json.Unmarshal([]byte(lit), &wantInt)
			r = wirejson.NewReader([]byte(lit))
			gotInt := r.Int(64)
			gomega.Expect(r.Done()).To(gomega.Equal(ierr == nil), lit)
			if ierr == nil {
				gomega.Expect(gotInt).To(gomega.Equal(wantInt), lit)
			}
		}
	})

	ginkgo.It("finds the extent of any value, and accepts only what follows the grammar", func() {
		text := ` {"a":[1,{"b":"x\"]}"},null,true,false,-2.5e3],"c":{}} `
		r := wirejson.NewReader([]byte(text))
		gomega.Expect(string(r.Value())).To(gomega.Equal(`{"a":[1,{"b":"x\"]}"},null,true,false,-2.5e3],"c":{}}`))
		gomega.Expect(r.Done()).To(gomega.BeTrue())
		for _, bad := range []string{`{"a":}`, `[1,]`, `{"a" 1}`, `"open`, `nul`, `[1 2]`, `{"a":1}x`} {
			r := wirejson.NewReader([]byte(bad))
			r.Value()
			gomega.Expect(r.Done()).To(gomega.BeFalse(), bad)
		}
	})

	ginkgo.It("declines what it leaves to encoding/json: escapes, invalid UTF-8, null, keys given twice", func() {
		for _, text := range []string{`"a\nb"`, "\"bad\xff\"", `null`, "\"ctl\x01\""} {
			r := wirejson.NewReader([]byte(text))
			_ = r.String()
			gomega.Expect(r.OK()).To(gomega.BeFalse(), text)
		}
		r := wirejson.NewReader([]byte(`"日本"`))
		gomega.Expect(r.String()).To(gomega.Equal("日本"))
		gomega.Expect(r.Done()).To(gomega.BeTrue())

		r = wirejson.NewReader([]byte(`{"a":1,"a":2}`))
		r.Object(func([]byte) { r.Int(64) })
		gomega.Expect(r.OK()).To(gomega.BeFalse())
	})

	ginkgo.It("makes a repeated string once", func() {
		var strs wirejson.Strings
		r := wirejson.NewReader([]byte(`["Message","Message","Chat"]`))
		var got []string
		r.Array(func() { got = append(got, r.StringIn(&strs)) })
		gomega.Expect(r.Done()).To(gomega.BeTrue())
		gomega.Expect(got).To(gomega.Equal([]string{"Message", "Message", "Chat"}))
		gomega.Expect(strs.Of([]byte("Message"))).To(gomega.BeIdenticalTo(got[0]))
	})

	ginkgo.It("writes strings and floats as encoding/json and jsonfloat.Float write them", func() {
		for _, s := range []string{"", "plain", "a<b>&c", `q"b\s`, "tab\t", "\x01", "héllo", "\u2028", "bad\xff"} {
			want, err := json.Marshal(s)
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(string(wirejson.AppendString(nil, s))).To(gomega.Equal(string(want)), strconv.Quote(s))
		}
		for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 1e-7, 1e21, 123456789e30, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1), 0.1} {
			want, err := jsonfloat.Float(f).MarshalJSON()
			gomega.Expect(err).NotTo(gomega.HaveOccurred())
			gomega.Expect(string(wirejson.AppendFloat(nil, jsonfloat.Float(f)))).To(gomega.Equal(string(want)), strconv.FormatFloat(f, 'g', -1, 64))
		}
	})
})
