package cupeltiktoken_test

import (
	"github.com/cupel-go/go-cupel/cupel"
	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

// The Go of the repository's README: the block there is a copy of this
// function's body, checked by go test ./internal/doccheck in the main
// module, and compiled here.
var _ = countedItem

func countedItem() (*cupel.ContextItem, error) {
	counter := cupeltiktoken.O200kBase()
	item, err := cupel.NewCountedItem(cupel.ItemSpec{Content: "tiktoken is great!"}, counter) // 6 tokens
	return item, err
}
