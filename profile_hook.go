//go:build benchprofile

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// A test hook, built only with -tags benchprofile (BenchmarkServeHTTP
// does, when ERRORLAB_SERVE_CPUPROFILE is set): the process writes its own
// CPU profile to the file ERRORLAB_SERVE_CPUPROFILE names, from start to
// exit, so the server's hot path can be read with go tool pprof.
func init() {
	path := os.Getenv("ERRORLAB_SERVE_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "errorlab: no CPU profile: %v\n", err)
		return
	}
	atExit = append(atExit, func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	})
}
