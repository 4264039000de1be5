package matrix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/cupel-go/go-cupel/internal/matrix"
	"github.com/cupel-go/go-cupel/internal/testtool"
	"github.com/cupel-go/go-cupel/runner"
	"github.com/cupel-go/go-cupel/runner/casefile"
	"github.com/cupel-go/go-cupel/runner/protocol"
)

// chromium returns the path of Debian's chromium. Without it the spec
// skips, saying why, except under CI=true, where .ci/run installs it and
// its absence is a failure.
func chromium() string {
	GinkgoHelper()
	return testtool.Need(GinkgoT(), "the browser test of the HTML report", "chromium", "chromium-browser")
}

// dumpDOM loads url in headless Chromium and returns the DOM after the
// page's scripts ran.
func dumpDOM(bin, url string) string {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+GinkgoT().TempDir(), "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	Expect(cmd.Run()).To(Succeed(), "chromium --dump-dom %s\nstderr:\n%s", url, stderr.String())
	return stdout.String()
}

// synthetic is a matrix of n cases and three implementations: "all" passes
// every case, "some" answers every seventh unsupported, "bugs" is "some"
// that also fails every fiftieth case with a diff.
func synthetic(n int) (*matrix.Matrix, []string) {
	var failing []string
	reports := map[string]*runner.Report{}
	names := []string{"all", "some", "bugs"}
	for _, name := range names {
		reports[name] = &runner.Report{Schema: runner.ReportSchema, Implementation: protocol.Identity{Name: name, Version: "1.0"},
			Runner: protocol.RunnerIdentity{Name: "cupel-conform", Version: "devel"},
			Suite:  runner.SuiteIdentity{Source: "synthetic", SpecVersion: "1.3", Digest: "feedfacefeedface", Cases: n}}
	}
	for i := range n {
		tier := casefile.TierRequired
		if i >= n*2/5 {
			tier = casefile.TierOptional
		}
		stage := casefile.Stages[i%len(casefile.Stages)]
		id := fmt.Sprintf("%s/%s/case-%04d", tier, stage, i)
		for _, name := range names {
			cr := runner.CaseResult{ID: id, Tier: tier, Stage: stage, Name: fmt.Sprintf("synthetic case %d", i), Outcome: protocol.OutcomePass}
			switch {
			case name == "all":
			case i%7 == 3:
				cr.Outcome, cr.Message = protocol.OutcomeUnsupported, "unsupported: not implemented"
			case name == "bugs" && i%50 == 0:
				cr.Outcome = protocol.OutcomeFail
				cr.Details = []string{fmt.Sprintf("output differs (in order): expected [\"x%d\", \"y\"], got [\"y\", \"x%d\"]", i, i),
					"  first difference at position 0",
					fmt.Sprintf("  !  0  expected \"x%d\"  actual #1 \"y\"", i),
					fmt.Sprintf("  !  1  expected \"y\"  actual #0 \"x%d\"", i)}
				cr.Message = cr.Details[0]
				cr.Actual = &protocol.Result{Kind: protocol.ResultOK, Output: &protocol.Output{Ordered: []int{1, 0}}}
				failing = append(failing, id)
			}
			reports[name].Cases = append(reports[name].Cases, cr)
		}
	}
	reports["all"].Level, reports["all"].LevelReason = runner.LevelFullyConformant, "every case passes"
	reports["some"].Level, reports["some"].LevelReason = runner.LevelNone, "some required cases are unsupported"
	reports["bugs"].Level, reports["bugs"].LevelReason = runner.LevelNone, "some required cases fail"
	var entries []runner.NamedReport
	for _, name := range names {
		entries = append(entries, runner.NamedReport{Name: name, Report: reports[name]})
	}
	m, err := matrix.New(entries, matrix.Options{Case: func(id string) (matrix.CaseData, bool) {
		return matrix.CaseData{Input: map[string]any{"items": []map[string]any{{"index": 0, "content": "y"}, {"index": 1, "content": id}}},
			Expected: map[string]any{"ordered": []string{id, "y"}}}, true
	}})
	if err != nil {
		panic(err) // the entries are well-formed
	}
	return m, failing
}

var _ = Describe("the HTML page in headless Chromium", Label("browser"), func() {
	It("shows the levels, the counts and a failing case's diff after its script ran, and filters 1,000 cases", func() {
		bin := chromium()
		m, failing := synthetic(1000)
		Expect(failing).To(HaveLen(17))
		path := filepath.Join(GinkgoT().TempDir(), "report.html")
		var b bytes.Buffer
		Expect(matrix.WriteHTML(&b, m, matrix.HTMLOptions{})).To(Succeed())
		Expect(os.WriteFile(path, b.Bytes(), 0o644)).To(Succeed())

		start := time.Now()
		dom := dumpDOM(bin, "file://"+path+"#outcome=fail")
		wall := time.Since(start)
		doc, err := html.Parse(strings.NewReader(dom))
		Expect(err).NotTo(HaveOccurred())

		root := one(doc, byTag(atom.Html))
		Expect(attr(root, "data-ready")).To(Equal("1"), "the script ran to its end")
		Expect(texts(all(doc, byClass("level")))).To(Equal([]string{"Cupel Fully Conformant", "not conformant", "not conformant"}))
		// Required: 400 cases; "bugs" fails 7 (0, 50, … 350 but 150, which
		// it leaves unsupported with 56 others).
		totals := all(doc, func(n *html.Node) bool { return n.DataAtom == atom.Tr && hasClass(n, "total") })
		Expect(totals).To(HaveLen(2))
		Expect(texts(all(totals[0], byTag(atom.B)))).To(Equal([]string{"400/400", "343/400", "336/400"}))
		Expect(texts(all(totals[0], byTag(atom.Small)))).To(Equal([]string{"all pass", "57 unsupported", "7 fail · 57 unsupported"}))

		// The status filter of the address applied: only the failing
		// cases are shown, and the counter says so.
		Expect(attr(one(doc, byID("f-outcome")), "value")).To(BeEmpty(), "the select's state is a property, not an attribute")
		list := one(doc, byID("list"))
		visible := 0
		for c := list.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && !hasAttr(c, "hidden") {
				visible++
				Expect(strings.Fields(attr(c, "data-s"))).To(ContainElement("fail"))
			}
		}
		Expect(visible).To(Equal(len(failing)))
		Expect(text(one(doc, byID("shown")))).To(Equal(fmt.Sprintf("%d of 1000 cases", len(failing))))

		c := one(list, byID("case:"+failing[1]))
		diff := one(c, byClass("diff"))
		Expect(texts(all(diff, byClass("d-head")))).To(Equal([]string{`output differs (in order): expected ["x50", "y"], got ["y", "x50"]`}))
		Expect(texts(all(diff, byClass("d-bad")))).To(Equal([]string{`!  0  expected "x50"  actual #1 "y"`, `!  1  expected "y"  actual #0 "x50"`}))

		foot := one(doc, byID("footer"))
		AddReportEntry("chromium", fmt.Sprintf("1000 cases × 3 implementations, %d KiB: script done %s ms after navigation start, one filter pass %s ms; chromium --dump-dom took %s",
			b.Len()/1024, attr(foot, "data-ready-ms"), attr(foot, "data-filter-ms"), wall.Round(time.Millisecond)))
	})
})

// deepLinkProbe, appended to a copy of the page, records after the page's
// script ran where the deep-linked case's title and the sticky filter bar
// are, then clicks the case's "link" button and records the address and
// whether the case stayed open.
const deepLinkProbe = `<script>
(function () {
  var el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  var bar = document.querySelector(".filters").getBoundingClientRect();
  var t = el.querySelector(".cid").getBoundingClientRect();
  var open = el.open;
  history.replaceState(null, "", location.pathname);
  el.querySelector("button.copy").click();
  document.documentElement.setAttribute("data-probe", JSON.stringify({
    barBottom: bar.bottom, titleTop: t.top, titleBottom: t.bottom, scrollY: window.scrollY, height: window.innerHeight,
    openBefore: open, openAfter: el.open, hash: decodeURIComponent(location.hash)}));
})();
</script>
`

var _ = Describe("a deep link to a case, in headless Chromium", Label("browser"), func() {
	It("shows the case's title below the sticky filter bar, and its link button copies its address", func() {
		bin := chromium()
		m, failing := synthetic(1000)
		var b bytes.Buffer
		Expect(matrix.WriteHTML(&b, m, matrix.HTMLOptions{})).To(Succeed())
		page := strings.Replace(b.String(), "</body>", deepLinkProbe+"</body>", 1)
		path := filepath.Join(GinkgoT().TempDir(), "report.html")
		Expect(os.WriteFile(path, []byte(page), 0o644)).To(Succeed())

		id := "case:" + failing[len(failing)-1] // far down the list
		doc, err := html.Parse(strings.NewReader(dumpDOM(bin, "file://"+path+"#"+id)))
		Expect(err).NotTo(HaveOccurred())
		var probe struct {
			BarBottom, TitleTop, TitleBottom, ScrollY, Height float64
			OpenBefore, OpenAfter                             bool
			Hash                                              string
		}
		Expect(json.Unmarshal([]byte(attr(one(doc, byTag(atom.Html)), "data-probe")), &probe)).To(Succeed())
		Expect(probe.ScrollY).To(BeNumerically(">", 0), "the page scrolled to the case")
		Expect(probe.TitleTop).To(BeNumerically(">=", probe.BarBottom), "the title is not under the filter bar")
		Expect(probe.TitleBottom).To(BeNumerically("<=", probe.Height), "the title is in the window")
		Expect(probe.OpenBefore).To(BeTrue(), "a failing case opens when linked to")
		Expect(probe.OpenAfter).To(BeTrue(), "the link button does not toggle the case")
		Expect(probe.Hash).To(Equal("#" + id))
		Expect(all(doc, byClass("copy"))).To(HaveLen(1000), "one link button per case")
	})
})

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
