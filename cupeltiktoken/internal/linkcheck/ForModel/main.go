// Command ForModel makes a Counter with cupeltiktoken.ForModel only, for the link test.
package main

import (
	"fmt"
	"os"

	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

func main() {
	c, err := cupeltiktoken.ForModel(os.Args[1])
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Count("hello world"))
}
