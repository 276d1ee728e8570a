package link

import (
	"net"
	"os"
	"testing"
)

func TestPeerUIDIsThisUser(t *testing.T) {
	path := sockPath(t)
	if err := privateDir(path); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, conn := range []net.Conn{c, s} {
		if uid, ok := peerUID(conn); !ok || uid != os.Getuid() {
			t.Errorf("peerUID = %d, %v; want %d", uid, ok, os.Getuid())
		}
	}
}
