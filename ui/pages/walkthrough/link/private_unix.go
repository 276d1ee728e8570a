//go:build unix

package link

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// privateProblem says what makes fi not this user's alone ("" when it is).
func privateProblem(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("belongs to another user (uid %d)", st.Uid)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("is open to other users (mode %04o)", perm)
	}
	return ""
}
