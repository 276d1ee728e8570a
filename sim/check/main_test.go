package check

import (
	"os"
	"testing"

	"github.com/errorlab/errorlab/sim/check/checktest"
)

// TestMain lets this test binary be a misbehaving MCP server (package
// checktest) when a test starts it as one.
func TestMain(m *testing.M) {
	if checktest.Serving() {
		return
	}
	os.Exit(m.Run())
}
