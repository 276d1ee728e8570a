package classroom

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/errorlab/errorlab/ui/classroom/room"
)

// keySet is the public keys of an authorized_keys file, each with the
// name it binds (students' keys).
type keySet []authKey

type authKey struct {
	key  gossh.PublicKey
	name string
}

// has reports whether k is one of the keys (nil never is).
func (ks keySet) has(k gossh.PublicKey) bool {
	_, ok := ks.nameOf(k)
	return ok
}

// nameOf is the name key k binds, and whether k is one of the keys.
func (ks keySet) nameOf(k gossh.PublicKey) (string, bool) {
	if k == nil {
		return "", false
	}
	b := k.Marshal()
	for _, x := range ks {
		if bytes.Equal(x.key.Marshal(), b) {
			return x.name, true
		}
	}
	return "", false
}

// binds reports whether some key binds name.
func (ks keySet) binds(name string) bool {
	for _, x := range ks {
		if x.name == name {
			return true
		}
	}
	return false
}

// keyName is the student's name a line of --student-keys binds to its
// key: a name="…" option before the key, or else the comment after it
// (its part before an @: "ana@laptop" is ana). It must be a name a
// student can log in as, as it is (room.SafeName keeps it).
func keyName(comment string, options []string) string {
	for _, o := range options {
		if v, ok := strings.CutPrefix(o, "name="); ok {
			return strings.Trim(v, `"`)
		}
	}
	c := strings.TrimSpace(comment)
	if f := strings.Fields(c); len(f) > 0 {
		c = f[0]
	}
	if at := strings.IndexByte(c, '@'); at > 0 {
		c = c[:at]
	}
	return c
}

// loadKeys reads an authorized_keys file (OpenSSH's format: one key a
// line, options before it allowed, # comments and blank lines skipped).
// A line that is not a key is an error naming FILE:LINE; so is a file
// with no key at all. With named, every key binds a student's name
// (keyName): a line without a usable name, or a key listed under two
// names, is an error naming FILE:LINE.
func loadKeys(path, flag string, named bool) (keySet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	var ks keySet
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, comment, options, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("%s %s:%d: not a public key in authorized_keys format (%v); each line is like `ssh-ed25519 AAAA… name`, as in ~/.ssh/id_ed25519.pub", flag, path, n, err)
		}
		ak := authKey{key: k}
		if named {
			ak.name = keyName(comment, options)
			if safe, mapped := room.SafeName(ak.name); ak.name == "" || mapped || safe != ak.name {
				return nil, fmt.Errorf("%s %s:%d: the key names no student (%s): end the line with the name the student logs in as, `ssh-ed25519 AAAA… ana` (letters, digits, '.', '_' and '-'), or put name=\"ana\" before the key; the name binds the key", flag, path, n, room.Quote(ak.name, 40))
			}
			if other, dup := ks.nameOf(k); dup && other != ak.name {
				return nil, fmt.Errorf("%s %s:%d: this key is listed for %s already, and now for %s: a key binds one name", flag, path, n, other, ak.name)
			}
		}
		ks = append(ks, ak)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%s %s holds no public key: add a line like the one in ~/.ssh/id_ed25519.pub", flag, path)
	}
	return ks, nil
}

// hostKey loads the server's host key from path, or on the first start
// creates an Ed25519 key there (0600, its .pub beside it, 0644). A key
// file that others can read or write is refused, as sshd refuses it.
func hostKey(path string) (gossh.Signer, bool, error) {
	data, err := os.ReadFile(path)
	created := false
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if data, err = newHostKey(path); err != nil {
			return nil, false, fmt.Errorf("cannot create the host key %s: %w", path, err)
		}
		created = true
	case err != nil:
		return nil, false, fmt.Errorf("the host key %s: %w", path, err)
	default:
		st, err := os.Stat(path)
		if err != nil {
			return nil, false, err
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			return nil, false, fmt.Errorf("the host key %s can be read by others (mode %04o): run `chmod 600 %s`", path, perm, path)
		}
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("the host key %s is not an unencrypted SSH private key: %w", path, err)
	}
	return signer, created, nil
}

// newHostKey writes a new Ed25519 key to path (never over a file) and
// returns its PEM.
func newHostKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "errorlab classroom host key")
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(block)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	sp, err := gossh.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	_ = os.WriteFile(path+".pub", gossh.MarshalAuthorizedKey(sp), 0o644)
	return data, nil
}
