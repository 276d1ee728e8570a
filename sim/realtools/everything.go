package realtools

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ServerEverythingHTTP starts [ServerEverything] in its streamableHttp
// mode with the Node binary node, on a free port, and returns its MCP
// endpoint ("http://localhost:PORT/mcp") and its process id. The server is
// stopped when the test ends. It installs the package first ([Install]).
func ServerEverythingHTTP(tb testing.TB, node string) (url string, pid int) {
	tb.Helper()
	script := Script(tb, ServerEverything, "mcp-server-everything")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.Stdout = io.Discard // it logs every request there
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting %s: %v", ServerEverything, err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan string, 1)
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- ""
				_, _ = io.Copy(io.Discard, stderr)
				return
			}
		}
		ready <- seen.String()
	}()
	select {
	case out := <-ready:
		if out != "" {
			tb.Fatalf("%s exited before it listened:\n%s", ServerEverything, out)
		}
	case <-time.After(2 * time.Minute):
		tb.Fatalf("%s did not listen within 2 minutes", ServerEverything)
	}
	return fmt.Sprintf("http://localhost:%d/mcp", port), cmd.Process.Pid
}
