package casefile

import (
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// The round trips of the writer (every generated case, odd strings,
// floats and budgets) are explore's specs, which write what explore
// finds; this is the part that needs the writer's internals.
var _ = ginkgo.Describe("the vector writer", func() {
	ginkgo.It("writes a float so that TOML reads it back as a float", func() {
		gomega.Expect(tomlFloat(1)).To(gomega.Equal("1.0"))
		gomega.Expect(tomlFloat(1e300)).To(gomega.Equal("1e+300"))
	})
})
