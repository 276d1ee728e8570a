package serve

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// IsLoopback reports whether host (with or without a port, an IPv6
// address with or without brackets) names this machine only: localhost
// or a loopback address (127.0.0.0/8 or ::1). Such an address cannot be
// reached from another machine.
func IsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// HostPolicy decides which Host headers the Streamable HTTP transport
// serves, against DNS rebinding (the MCP conformance suite's
// dns-rebinding-protection, GHSA-w48q-cv73-mx4w): a web page that makes
// its own name resolve to this machine sends its own name as Host, so
// only names that cannot be an attacker's are accepted.
//
// Always accepted: a loopback Host (localhost, 127.0.0.0/8, [::1]; any
// port). With --allow-remote on a listen address other machines can
// reach, also a Host that is that IP address written as an IP (with the
// listen port, or without one when the port is 80); an unspecified listen
// address (0.0.0.0, [::]) accepts each address of this machine's
// interfaces. A host name other than localhost is never accepted: it is
// what a rebinding page sends.
type HostPolicy struct {
	port  uint16
	addrs []netip.Addr // the non-loopback addresses a Host may name
}

// NewHostPolicy is the policy of a server listening on listen (host:port,
// as net.Listener's Addr().String() gives it). allowRemote is the
// --allow-remote flag: without it only loopback Hosts are accepted.
// local lists this machine's interface addresses, consulted only for an
// unspecified listen address (nil: net.InterfaceAddrs).
func NewHostPolicy(listen string, allowRemote bool, local func() ([]net.Addr, error)) HostPolicy {
	if !allowRemote {
		return HostPolicy{}
	}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return HostPolicy{}
	}
	ap, err := netip.ParseAddrPort(net.JoinHostPort(host, port))
	if err != nil || ap.Addr().IsLoopback() {
		return HostPolicy{}
	}
	p := HostPolicy{port: ap.Port()}
	if !ap.Addr().IsUnspecified() {
		p.addrs = []netip.Addr{ap.Addr().Unmap()}
		return p
	}
	if local == nil {
		local = net.InterfaceAddrs
	}
	addrs, err := local()
	if err != nil {
		return p
	}
	for _, a := range addrs {
		var ip net.IP
		switch x := a.(type) {
		case *net.IPNet:
			ip = x.IP
		case *net.IPAddr:
			ip = x.IP
		}
		if na, ok := netip.AddrFromSlice(ip); ok && !na.Unmap().IsLoopback() {
			p.addrs = append(p.addrs, na.Unmap())
		}
	}
	return p
}

// Allows reports whether a request whose Host header is host is served.
func (p HostPolicy) Allows(host string) bool {
	if IsLoopback(host) {
		return true
	}
	if len(p.addrs) == 0 {
		return false
	}
	name, port := host, "80"
	if h, pt, err := net.SplitHostPort(host); err == nil {
		name, port = h, pt
	}
	if port != strconv.Itoa(int(p.port)) {
		return false
	}
	ip, err := netip.ParseAddr(strings.Trim(name, "[]"))
	if err != nil {
		return false
	}
	for _, a := range p.addrs {
		if a == ip.Unmap() {
			return true
		}
	}
	return false
}

// Describe names the accepted Hosts for a 403's text: "localhost,
// 127.0.0.0/8 or [::1]", plus the listen address when it is accepted.
func (p HostPolicy) Describe() string {
	const loop = "localhost, 127.0.0.0/8 or [::1]"
	switch len(p.addrs) {
	case 0:
		return loop
	case 1:
		return fmt.Sprintf("%s, or %s (the address this server listens on)", loop, net.JoinHostPort(p.addrs[0].String(), strconv.Itoa(int(p.port))))
	}
	return fmt.Sprintf("%s, or one of this machine's addresses with port %d", loop, p.port)
}
