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
