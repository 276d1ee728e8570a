//go:build unix

package quiz

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// memoryLock serialises updates of Memory stores.
var memoryLock sync.Mutex

// withLock runs fn holding an exclusive flock on the progress file's lock
// file, so concurrent errorlab processes take turns.
func (s *Store) withLock(fn func() error) error {
	if s.path == "" {
		memoryLock.Lock()
		defer memoryLock.Unlock()
		return fn()
	}
	f, err := os.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("progress lock: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("progress lock: %w", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck
	return fn()
}
