// Command server is package checktest's misbehaving MCP server as a
// program of its own, for the tests of packages that cannot make their
// test binary serve: build it, then start it with
// ERRORLAB_CHECKTEST_SERVER set to a mode.
package main

import (
	"fmt"
	"os"

	"github.com/errorlab/errorlab/sim/check/checktest"
)

func main() {
	if !checktest.Serving() {
		fmt.Fprintf(os.Stderr, "set %s to a mode of package checktest (ok, banner, hang-call, ...)\n", checktest.ModeEnv)
		os.Exit(2)
	}
}
