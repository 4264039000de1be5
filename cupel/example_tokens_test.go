package cupel_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/cupel-go/go-cupel/cupel"
)

func ExampleNewCountedItem() {
	// A stand-in tokenizer: one token per word. The cupeltiktoken module
	// has OpenAI's tokenizers, and any type with Count(string) (int, error)
	// will do.
	words := cupel.TokenCounterFunc(func(s string) (int, error) { return len(strings.Fields(s)), nil })
	item, err := cupel.NewCountedItem(cupel.ItemSpec{Content: "grep output: three matches found", Kind: cupel.KindToolOutput}, words)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(item.Tokens(), item.Kind())

	recounted, err := cupel.WithCountedTokens([]*cupel.ContextItem{cupel.MustItem(cupel.ItemSpec{Content: "a b c", Tokens: 99})}, words)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(recounted[0].Tokens())
	// Output:
	// 5 ToolOutput
	// 3
}
