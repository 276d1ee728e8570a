package rules

import (
	"regexp"
	"strings"
)

// LeakKind names a kind of internal detail that must never reach the model
// in an error result (LESSON-RULES §6).
type LeakKind string

const (
	// LeakStackTrace: a stack trace or a source file and line, in any
	// language (Python, Java, Node.js, Go, Ruby, .NET, PHP, Rust).
	LeakStackTrace LeakKind = "stack-trace"
	// LeakSystemError: an operating system's error string (ENOENT, EACCES,
	// ECONNREFUSED, "dial tcp", "[Errno 2]", "open /x: permission denied").
	LeakSystemError LeakKind = "system-error"
	// LeakSQL: an SQL statement or a database engine's own error text.
	LeakSQL LeakKind = "sql"
	// LeakSecret: a token, key or password: a Bearer token, a JWT, a
	// provider's key shape (sk-…, AKIA…, ghp_…, xoxb-…, AIza…), a private
	// key block, credentials in a URL, "password=…".
	LeakSecret LeakKind = "secret"
	// LeakPrivateHost: a private or loopback IP address, an internal host
	// name (.internal, .local, .corp, .lan), or a host:port.
	LeakPrivateHost LeakKind = "private-host"
	// LeakPath: an absolute filesystem path of the server's machine
	// (/home/…, /srv/…, /tmp/…, C:\…, ~/…).
	LeakPath LeakKind = "path"
)

// LeakKinds lists every kind, in the order Leaks reports them.
var LeakKinds = []LeakKind{LeakStackTrace, LeakSystemError, LeakSQL, LeakSecret, LeakPrivateHost, LeakPath}

// Label says what the kind is, in a few words, for a finding.
func (k LeakKind) Label() string {
	switch k {
	case LeakStackTrace:
		return "a stack trace"
	case LeakSystemError:
		return "a system error string"
	case LeakSQL:
		return "SQL"
	case LeakSecret:
		return "a token, key or password"
	case LeakPrivateHost:
		return "a private host or address"
	case LeakPath:
		return "an absolute filesystem path"
	}
	return string(k)
}

// Leak is one fragment of text that should never reach the model.
type Leak struct {
	Kind LeakKind
	Text string // the fragment as found, trimmed
}

// errnoNames are the POSIX error codes Node.js (and libuv, and many
// wrappers) put at the start of their messages: "ENOENT: no such file".
const errnoNames = `ENOENT|EACCES|EPERM|ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EADDRINUSE|EADDRNOTAVAIL|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EPIPE|EISDIR|ENOTDIR|EEXIST|EMFILE|ENFILE|ENOSPC|EROFS|ENOTEMPTY|EAI_AGAIN|EBADF|EBUSY|ELOOP|ENAMETOOLONG|EXDEV`

// SystemErrorPrefix matches text that opens with an errno code
// ("ENOENT: …", "Error: EACCES: …"): a raw exception passed to the model.
var SystemErrorPrefix = regexp.MustCompile(`^\s*(Error: )?(` + errnoNames + `)\b`)

// leakPatterns are checked in order; each kind is reported once.
var leakPatterns = []struct {
	kind LeakKind
	re   *regexp.Regexp
}{
	{LeakStackTrace, regexp.MustCompile(`Traceback \(most recent call last\)`)},                                           // Python
	{LeakStackTrace, regexp.MustCompile(`(?m)File "[^"\n]+", line \d+`)},                                                  // Python frame
	{LeakStackTrace, regexp.MustCompile(`(?m)^\s*at [\w.$]+\([\w.$-]*:\d+\)`)},                                            // Java frame
	{LeakStackTrace, regexp.MustCompile(`(?m)^\s*at [\w.$<>]+\((Native Method|Unknown Source)\)`)},                        // Java frame without a line
	{LeakStackTrace, regexp.MustCompile(`(?m)^\s*at (async )?[\w.$<>\[\] ]+ \(.*:\d+(:\d+)?\)`)},                          // Node.js frame
	{LeakStackTrace, regexp.MustCompile(`(?m)^\s*at (async )?(file://)?/[^\s:]+:\d+:\d+`)},                                // Node.js anonymous frame
	{LeakStackTrace, regexp.MustCompile(`(?m)^goroutine \d+ \[`)},                                                         // Go
	{LeakStackTrace, regexp.MustCompile(`[\w/.-]+\.(go|py|js|mjs|cjs|ts|java|kt|scala|rb|php|cs|rs|swift|c|cc|cpp):\d+`)}, // source file:line
	{LeakStackTrace, regexp.MustCompile(`(?m)^\s*at [\w.<>\x60]+\(.*\) in .+:line \d+`)},                                  // .NET
	{LeakStackTrace, regexp.MustCompile(`(?m)^#\d+ [^\n]*\.php\(\d+\)`)},                                                  // PHP
	{LeakStackTrace, regexp.MustCompile(`thread '[^'\n]+' panicked at|stack backtrace:`)},                                 // Rust
	{LeakStackTrace, regexp.MustCompile(`[\w/.-]+\.rb:\d+:in `)},                                                          // Ruby

	{LeakSystemError, regexp.MustCompile(`\b(` + errnoNames + `)\b`)},
	{LeakSystemError, regexp.MustCompile(`\bdial (tcp|tcp4|tcp6|udp|unix) `)},
	{LeakSystemError, regexp.MustCompile(`\[(Errno|WinError) \d+\]`)},
	{LeakSystemError, regexp.MustCompile(`\b(open|stat|lstat|read|write|mkdir|remove|rename|readdir|connect|lookup|chdir|unlink)\s+\S+:\s+(no such file or directory|permission denied|connection refused|connection reset by peer|broken pipe|i/o timeout|is a directory|not a directory|no such host|file exists)`)},
	{LeakSystemError, regexp.MustCompile(`\bjava\.(io|net|nio\.file)\.\w+Exception\b`)},

	{LeakSQL, regexp.MustCompile(`\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[^\n]*\b(FROM|VALUES|SET|WHERE)\b`)}, // SQL in capitals
	{LeakSQL, regexp.MustCompile(`(?i)\bselect\s+(\*|[\w.]+(\s*,\s*[\w.]+)+)\s+from\s+\w+`)},                      // select * from / select a, b from
	{LeakSQL, regexp.MustCompile(`(?i)\bdelete\s+from\s+\w+\s+where\b`)},                                          // delete from t where
	{LeakSQL, regexp.MustCompile(`(?i)\binsert\s+into\s+\w+\s*\(`)},                                               // insert into t (
	{LeakSQL, regexp.MustCompile(`(?i)\bupdate\s+\w+\s+set\s+\w+\s*=`)},                                           // update t set c =
	{LeakSQL, regexp.MustCompile(`(?i)(syntax error at or near|\bSQLSTATE\b|\bORA-\d{5}\b|\bSQLITE_[A-Z]+\b|violates (unique|foreign key|not-null) constraint|relation "[^"\n]+" does not exist)`)},

	{LeakSecret, regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@`)}, // credentials in a URL
	{LeakSecret, regexp.MustCompile(`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`)},
	{LeakSecret, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}`)},                                            // JWT
	{LeakSecret, regexp.MustCompile(`\b(sk-(ant-|proj-)?[A-Za-z0-9_-]{16,}|(sk|rk|pk)_(live|test)_[A-Za-z0-9]{8,})`)},        // OpenAI, Anthropic, Stripe
	{LeakSecret, regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`)},                                                          // AWS access key id
	{LeakSecret, regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,})`)}, // GitHub, GitLab
	{LeakSecret, regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`)},                                                       // Slack
	{LeakSecret, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},                                                              // Google API key
	{LeakSecret, regexp.MustCompile(`-----BEGIN ([A-Z]+ )*PRIVATE KEY-----`)},
	{LeakSecret, regexp.MustCompile(`(?i)\b(bearer|api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|token|secret|password|passwd|pwd)\b\s*[:=]\s*\S+`)},
	{LeakSecret, regexp.MustCompile(`(?i)"(api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|token|secret|password|passwd)"\s*:\s*"[^"\s]{4,}"`)}, // the same as a JSON member
	{LeakSecret, regexp.MustCompile(`(?i)\bauthorization:\s*\S+`)},

	{LeakPrivateHost, regexp.MustCompile(`\b[\w-]+(\.[\w-]+)*\.(internal|local|localdomain|corp|lan|intranet|svc)\b`)},
	{LeakPrivateHost, regexp.MustCompile(`\b(10\.\d{1,3}|192\.168|172\.(1[6-9]|2\d|3[01])|127\.\d{1,3}|169\.254)\.\d{1,3}\.\d{1,3}\b`)}, // private, loopback, link-local IPv4
	{LeakPrivateHost, regexp.MustCompile(`(?i)\b(localhost|(\d{1,3}\.){3}\d{1,3}|([a-z0-9-]+\.)+[a-z]{2,}):\d{2,5}\b`)},                 // host:port

	{LeakPath, regexp.MustCompile(`(^|[\s'"(\[=,:])(/(home|Users|root|var|etc|tmp|opt|usr|srv|mnt|media|private|proc|sys|app|apps|data|workspace|workspaces|run|Library|Volumes|snap|nix|build|code|src)/[^\s'"(),;]*)`)},
	{LeakPath, regexp.MustCompile(`(^|[\s'"(\[=,:])([A-Za-z]:\\[^\s'"]+|\\\\[\w.-]+\\[\w$.-]+|~/[\w.-]+/[^\s'"]*)`)},
}

// FindLeaks returns, for each kind of internal detail found in text, the
// first fragment of that kind (LESSON-RULES §6), in the order of
// LeakKinds. None found is a nil slice.
func FindLeaks(text string) []Leak {
	var out []Leak
	seen := map[LeakKind]bool{}
	for _, p := range leakPatterns {
		if seen[p.kind] {
			continue
		}
		m := p.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		frag := m[0]
		if p.kind == LeakPath && len(m) > 2 {
			frag = m[2] // without the character before the path
		}
		seen[p.kind] = true
		out = append(out, Leak{Kind: p.kind, Text: strings.TrimSpace(frag)})
	}
	return out
}

// Leaks returns the fragments of text that should never reach the model
// (LESSON-RULES §6): stack frames, system errors, SQL, credentials,
// private hosts, absolute paths. An empty result means none was found.
func Leaks(text string) []string {
	var out []string
	for _, l := range FindLeaks(text) {
		out = append(out, l.Text)
	}
	return out
}
