// Command O200kBase makes a Counter with cupeltiktoken.O200kBase only, for the link test.
package main

import (
	"fmt"
	_ "os"

	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

func main() {
	c := cupeltiktoken.O200kBase()
	fmt.Println(c.Count("hello world"))
}
