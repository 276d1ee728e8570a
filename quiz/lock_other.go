//go:build !unix

package quiz

import "sync"

var processLock sync.Mutex

// withLock serialises writers within this process. Without flock, two
// processes writing at the same instant could still race; the atomic
// rename keeps the file whole either way.
func (s *Store) withLock(fn func() error) error {
	processLock.Lock()
	defer processLock.Unlock()
	return fn()
}
