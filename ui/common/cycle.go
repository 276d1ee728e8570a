package common

import "slices"

// Next returns the element after cur in list, wrapping to the first; a
// cur not in list gives the first. A screen's key that steps through a
// setting (spec revision, style, timeout) uses it. list must not be empty.
func Next[T comparable](list []T, cur T) T {
	return list[(slices.Index(list, cur)+1)%len(list)]
}
