package link

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/adrg/xdg"
)

// maxSocketPath is the longest socket path the platforms take (a unix
// socket's address holds 104 bytes on macOS, 108 on Linux, with the NUL).
const maxSocketPath = 103

// maxID is the longest id a socket's name carries; a longer one is cut
// and given a hash of the whole, so two long ids keep apart.
const maxID = 40

// SocketPath is the socket of walkthrough id:
// $XDG_RUNTIME_DIR/errorlab/walkthrough-<id>.sock (xdg.RuntimeDir). When
// the runtime directory is not usable (unset, missing, not private to
// this user, or so deep that the path would not fit a socket address) it
// is a directory named for the uid under os.TempDir, which Host creates
// 0700. The id is sanitized: lower case, only [a-z0-9-].
func SocketPath(id string) string {
	name := "walkthrough-" + sanitize(id) + ".sock"
	if dir := xdg.RuntimeDir; runtimeUsable(dir) {
		if p := filepath.Join(dir, "errorlab", name); len(p) <= maxSocketPath {
			return p
		}
	}
	return filepath.Join(fallbackDir(), name)
}

func fallbackDir() string {
	if uid := os.Getuid(); uid >= 0 {
		return filepath.Join(os.TempDir(), fmt.Sprintf("errorlab-%d", uid))
	}
	return filepath.Join(os.TempDir(), "errorlab")
}

func runtimeUsable(dir string) bool {
	if dir == "" || !filepath.IsAbs(dir) {
		return false
	}
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir() && privateProblem(fi) == ""
}

// sanitize keeps a-z and 0-9, lowers capitals and turns every other run
// of characters into one dash.
func sanitize(id string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(id) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return "unnamed"
	}
	if len(s) > maxID {
		h := fnv.New32a()
		h.Write([]byte(id))
		s = strings.TrimRight(s[:maxID-9], "-") + fmt.Sprintf("-%08x", h.Sum32())
	}
	return s
}

// idOf is the walkthrough id in a path SocketPath made.
func idOf(path string) (string, bool) {
	id, ok := strings.CutPrefix(filepath.Base(path), "walkthrough-")
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, ".sock")
	return id, ok && id != ""
}

// privateDir makes sure the directory of socket sock exists and is this
// user's alone: it creates a missing one 0700 and refuses one that is
// another user's or open to others (it never loosens or tightens a
// directory it did not make).
func privateDir(sock string) error {
	dir := filepath.Dir(sock)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return fmt.Errorf("walkthrough link: cannot create %s: %w", dir, err)
		}
		if err := os.Mkdir(dir, 0o700); err == nil {
			if err := os.Chmod(dir, 0o700); err != nil {
				return fmt.Errorf("walkthrough link: cannot make %s private: %w", dir, err)
			}
		} else if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("walkthrough link: cannot create %s: %w", dir, err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("walkthrough link: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("walkthrough link: %s is not a directory (a link or a file is in the way); remove it and start again", dir)
	}
	if problem := privateProblem(fi); problem != "" {
		return fmt.Errorf("walkthrough link: the socket's directory %s %s; it must be yours alone (chmod 700 %s)", dir, problem, dir)
	}
	return nil
}

// listen listens on path, replacing a stale socket left there by a dead
// process and refusing to touch a live one.
func listen(path string) (*net.UnixListener, error) {
	addr := &net.UnixAddr{Name: path, Net: "unix"}
	ln, err := net.ListenUnix("unix", addr)
	if err == nil {
		return ln, nil
	}
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("walkthrough link: cannot listen on %s: the path is %d bytes, longer than a socket's address may be (%d): %w", path, len(path), maxSocketPath, err)
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("walkthrough link: cannot listen on %s: %w", path, err)
	}
	fi, lerr := os.Lstat(path)
	if lerr != nil {
		return nil, fmt.Errorf("walkthrough link: cannot listen on %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return nil, fmt.Errorf("walkthrough link: %s is in the way and is not a socket; remove it and start again", path)
	}
	c, derr := net.DialTimeout("unix", path, handshakeTimeout)
	if derr == nil {
		c.Close()
		return nil, fmt.Errorf("%w (socket %s): present from that terminal, or quit it there first; to follow it from here, add --presenter", ErrAlreadyPresenting, path)
	}
	if !errors.Is(derr, syscall.ECONNREFUSED) {
		return nil, fmt.Errorf("walkthrough link: %s is taken and does not answer: %w", path, derr)
	}
	// Nobody listens: a dead process's socket.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("walkthrough link: cannot remove the stale socket %s: %w", path, err)
	}
	ln, err = net.ListenUnix("unix", addr)
	if err != nil {
		return nil, fmt.Errorf("walkthrough link: cannot listen on %s: %w", path, err)
	}
	return ln, nil
}

// joinError says what a failed dial means to a teacher.
func joinError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) {
		if id, ok := idOf(path); ok {
			return fmt.Errorf("%w for walkthrough %q: start it first in the terminal the room sees, with `errorlab walkthrough %s`, then run `errorlab walkthrough %s --presenter` here", ErrNoAudience, id, id, id)
		}
		return fmt.Errorf("%w on %s: start one first in the terminal the room sees, with `errorlab walkthrough NAME`, then run `errorlab walkthrough NAME --presenter` here", ErrNoAudience, path)
	}
	return fmt.Errorf("walkthrough link: cannot reach the audience view on %s: %w", path, err)
}
