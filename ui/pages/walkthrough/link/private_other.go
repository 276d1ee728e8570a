//go:build !unix

package link

import "io/fs"

// privateProblem: ownership and modes are not unix ones here.
func privateProblem(fs.FileInfo) string { return "" }
