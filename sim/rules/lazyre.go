package rules

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used, not
// when the program starts: errorlab's TUI draws its first frame before
// any response is graded (issue 7, "start-up does nothing a test can
// do"). The expression is checked by the package's tests, so a typo still
// fails before a release; at run time it panics like regexp.MustCompile.
// Safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// Lazy returns expr as a Regexp compiled on first use.
func Lazy(expr string) *Regexp { return &Regexp{expr: expr} }

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// MatchString reports whether s contains a match.
func (r *Regexp) MatchString(s string) bool { return r.Compiled().MatchString(s) }

// FindString returns the leftmost match in s, or "".
func (r *Regexp) FindString(s string) string { return r.Compiled().FindString(s) }

// FindAllStringSubmatchIndex is regexp.Regexp's method of that name.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringSubmatchIndex(s, n)
}
