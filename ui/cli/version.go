package cli

import (
	"runtime"
	"runtime/debug"
)

// Version is what `errorlab --version` prints after "errorlab version ":
// the module version the binary was built from (a tag, or Go's
// pseudo-version for a commit; "devel" when the build recorded none) and
// the Go toolchain, e.g. "v0.3.0 (go1.26.8)".
func Version() string {
	v, goVersion := "devel", runtime.Version()
	if info, ok := debug.ReadBuildInfo(); ok {
		if m := info.Main.Version; m != "" && m != "(devel)" {
			v = m
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
	}
	return v + " (" + goVersion + ")"
}
