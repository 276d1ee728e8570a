package serve_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errorlab/errorlab/sim/serve"
)

// TestIsLoopback: what the README calls loopback, the code does:
// localhost, 127.0.0.0/8 and ::1, with or without a port; nothing else.
func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost:8765": true, "127.0.0.1": true, "127.0.0.2:8805": true,
		"127.255.255.254": true, "::1": true, "[::1]:8765": true, "[::1]": true,
		"128.0.0.1": false, "0.0.0.0:8765": false, "[::]:8765": false, "192.168.1.5:8805": false,
		"localhost.evil.example": false, "evil.example": false, "": false,
	} {
		if got := serve.IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestHostPolicy: which Host headers a server listening on an address
// serves. Loopback Hosts always; with --allow-remote on an address other
// machines reach, also that address as an IP with its port; never another
// IP, another port or a host name (what a DNS-rebinding page sends).
func TestHostPolicy(t *testing.T) {
	local := func() ([]net.Addr, error) {
		return []net.Addr{
			&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
			&net.IPNet{IP: net.ParseIP("10.0.0.3"), Mask: net.CIDRMask(24, 32)},
			&net.IPNet{IP: net.ParseIP("2001:db8::7"), Mask: net.CIDRMask(64, 128)},
		}, nil
	}
	for _, c := range []struct {
		listen string
		remote bool
		yes    []string
		no     []string
	}{
		{"192.168.1.5:8805", true,
			[]string{"192.168.1.5:8805", "127.0.0.1:8805", "127.0.0.2", "localhost:1", "[::1]:8805"},
			[]string{"192.168.1.5:9999", "192.168.1.5", "192.168.1.6:8805", "evil.example:8805", "mybox.lan:8805", "0.0.0.0:8805", ""}},
		{"192.168.1.5:8805", false, // never listens so without the flag; still only loopback
			[]string{"127.0.0.1:8805"},
			[]string{"192.168.1.5:8805"}},
		{"127.0.0.1:8805", true, // the finding: loopback listen, a LAN Host stays refused
			[]string{"127.0.0.1:8805", "127.0.0.2:8805", "localhost"},
			[]string{"192.168.1.5:8805", "evil.example"}},
		{"192.168.1.5:80", true,
			[]string{"192.168.1.5", "192.168.1.5:80"},
			[]string{"192.168.1.5:8080"}},
		{"[2001:db8::5]:8805", true,
			[]string{"[2001:db8::5]:8805"},
			[]string{"[2001:db8::6]:8805", "2001:db8::5"}},
		{"0.0.0.0:8805", true,
			[]string{"10.0.0.3:8805", "[2001:db8::7]:8805", "127.0.0.1:8805"},
			[]string{"10.0.0.4:8805", "10.0.0.3:8806", "evil.example:8805"}},
	} {
		p := serve.NewHostPolicy(c.listen, c.remote, local)
		for _, h := range c.yes {
			if !p.Allows(h) {
				t.Errorf("listening on %s (allow-remote %v): Host %q refused", c.listen, c.remote, h)
			}
		}
		for _, h := range c.no {
			if p.Allows(h) {
				t.Errorf("listening on %s (allow-remote %v): Host %q accepted", c.listen, c.remote, h)
			}
		}
	}
}

// initStatus POSTs initialize to url with Host host and returns the
// status and body.
func initStatus(t *testing.T, url, host string) (int, string) {
	t.Helper()
	code, _, b := rawHTTP(t, http.MethodPost, url, map[string]string{"Host": host}, strings.Replace(initialize, "%s", "2025-11-25", 1))
	return code, string(b)
}

// TestAllowRemoteHosts: over real HTTP requests, a handler for a server
// listening on 192.168.1.5:8805 with --allow-remote serves Host
// 192.168.1.5:8805 and loopback Hosts, and refuses every other Host with
// 403 naming what it accepts. (The test itself listens on 127.0.0.1.)
func TestAllowRemoteHosts(t *testing.T) {
	s := serve.New(serve.Config{})
	ts := httptest.NewServer(s.Handler(serve.NewHostPolicy("192.168.1.5:8805", true, nil)))
	defer ts.Close()
	url := ts.URL + serve.Path
	for _, host := range []string{"192.168.1.5:8805", "127.0.0.1:8805", "127.0.0.2:8805", "localhost:8805", "[::1]:8805"} {
		if code, b := initStatus(t, url, host); code != http.StatusOK {
			t.Errorf("Host %s: %d %s", host, code, b)
		}
	}
	for _, host := range []string{"192.168.1.6:8805", "192.168.1.5:8806", "evil.example:8805", "attacker.example"} {
		code, b := initStatus(t, url, host)
		if code != http.StatusForbidden || !strings.Contains(b, "192.168.1.5:8805 (the address this server listens on)") {
			t.Errorf("Host %s: %d %s", host, code, b)
		}
	}
}

// TestAllowRemoteOnLoopback: `serve --http 127.0.0.1:PORT --allow-remote`
// still refuses a Host naming another address (the server is not reachable
// there anyway) and serves 127.0.0.2, which is loopback.
func TestAllowRemoteOnLoopback(t *testing.T) {
	s := serve.New(serve.Config{})
	ln, err := serve.Listen("127.0.0.1:0", true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, true) }()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Error("ServeHTTP did not stop within 3 s")
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	url := "http://" + ln.Addr().String() + serve.Path
	if code, b := initStatus(t, url, "192.168.1.5:"+strconv.Itoa(port)); code != http.StatusForbidden {
		t.Errorf("a LAN Host on a loopback server: %d %s", code, b)
	}
	if code, b := initStatus(t, url, "127.0.0.2:"+strconv.Itoa(port)); code != http.StatusOK {
		t.Errorf("127.0.0.2: %d %s", code, b)
	}
}
