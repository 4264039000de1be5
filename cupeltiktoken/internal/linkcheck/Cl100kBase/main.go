// Command Cl100kBase makes a Counter with cupeltiktoken.Cl100kBase only, for the link test.
package main

import (
	"fmt"
	_ "os"

	"github.com/cupel-go/go-cupel/cupeltiktoken"
)

func main() {
	c := cupeltiktoken.Cl100kBase()
	fmt.Println(c.Count("hello world"))
}
