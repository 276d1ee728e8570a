package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
var SystemErrorPrefix = Lazy(`^\s*(Error: )?(` + errnoNames + `)\b`)

// leakPattern is one way a kind of leak shows. need lists literals of
// which every match holds at least one (in the text lowered when fold is
// set): the pattern runs only when one is there, and only on the lines
// around it, so text without them costs a substring search, not a
// regular expression.
type leakPattern struct {
	kind LeakKind
	re   *Regexp
	need []string
	fold bool
	// reject, when set, turns down a match that the pattern alone cannot
	// tell from a leak (a source file:line read as host:port).
	reject func(frag string) bool
}

func lp(kind LeakKind, re string, need ...string) leakPattern {
	return leakPattern{kind: kind, re: Lazy(re), need: need}
}

// lpFold is lp for a case-insensitive pattern: need is lower case.
func lpFold(kind LeakKind, re string, need ...string) leakPattern {
	p := lp(kind, re, need...)
	p.fold = true
	return p
}

var errnoList = strings.Split(errnoNames, "|")

// frameNeedles start the stack frames of Java, Node.js and .NET: "at "
// at the start of a line, after its indent (a tab, or spaces).
var frameNeedles = []string{"\tat ", "  at ", "\nat "}

// leakPatterns are checked in order; each kind is reported once.
var leakPatterns = []leakPattern{
	lp(LeakStackTrace, `Traceback \(most recent call last\)`, "Traceback"),    // Python
	lp(LeakStackTrace, `File "[^"\n]+", line \d+`, `File "`),                  // Python frame
	lp(LeakStackTrace, `(?m)^\s*at [\w.$]+\([\w.$-]*:\d+\)`, frameNeedles...), // Java frame
	lp(LeakStackTrace, `(?m)^\s*at [\w.$<>]+\((Native Method|Unknown Source)\)`, "Native Method", "Unknown Source"),
	lp(LeakStackTrace, `(?m)^\s*at (async )?[\w.$<>\[\] ]+ \(.*:\d+(:\d+)?\)`, frameNeedles...), // Node.js frame
	lp(LeakStackTrace, `(?m)^\s*at (async )?(file://)?/[^\s:]+:\d+:\d+`, frameNeedles...),       // Node.js anonymous frame
	lp(LeakStackTrace, `(?m)^goroutine \d+ \[`, "goroutine "),                                   // Go
	lp(LeakStackTrace, `[\w/.-]+\.(go|py|js|mjs|cjs|ts|java|kt|scala|rb|php|cs|rs|swift|c|cc|cpp):\d+`, // source file:line
		".go:", ".py:", ".js:", ".mjs:", ".cjs:", ".ts:", ".java:", ".kt:", ".scala:", ".rb:", ".php:", ".cs:", ".rs:", ".swift:", ".c:", ".cc:", ".cpp:"),
	lp(LeakStackTrace, `(?m)^\s*at [\w.<>\x60]+\(.*\) in .+:line \d+`, ":line "),                           // .NET
	lp(LeakStackTrace, `(?m)^#\d+ [^\n]*\.php\(\d+\)`, ".php("),                                            // PHP
	lp(LeakStackTrace, `thread '[^'\n]+' panicked at|stack backtrace:`, "panicked at", "stack backtrace:"), // Rust
	lp(LeakStackTrace, `[\w/.-]+\.rb:\d+:in `, ".rb:"),                                                     // Ruby

	lp(LeakSystemError, `\b(`+errnoNames+`)\b`, errnoList...),
	lp(LeakSystemError, `\bdial (tcp|tcp4|tcp6|udp|unix) `, "dial "),
	lp(LeakSystemError, `\[(Errno|WinError) \d+\]|\(os error \d+\)`, "[Errno ", "[WinError ", "(os error "), // Python, Rust
	lp(LeakSystemError, `\b(open|stat|lstat|read|write|mkdir|remove|rename|readdir|connect|lookup|chdir|unlink)\s+\S+:\s+(no such file or directory|permission denied|connection refused|connection reset by peer|broken pipe|i/o timeout|is a directory|not a directory|no such host|file exists)`,
		"no such file or directory", "permission denied", "connection refused", "connection reset by peer", "broken pipe", "i/o timeout", "is a directory", "not a directory", "no such host", "file exists"),
	lp(LeakSystemError, `\bjava\.(io|net|nio\.file)\.\w+Exception\b`, "java."),

	lp(LeakSQL, `\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[^\n]*\b(FROM|VALUES|SET|WHERE)\b`, "SELECT", "INSERT INTO", "UPDATE", "DELETE FROM"), // SQL in capitals
	lpFold(LeakSQL, `(?i)\bselect\s+(\*|[\w.]+(\s*,\s*[\w.]+)+)\s+from\s+\w+`, "select"),                                                          // select * from / select a, b from
	lpFold(LeakSQL, `(?i)\bdelete\s+from\s+\w+\s+where\b`, "delete"),                                                                              // delete from t where
	lpFold(LeakSQL, `(?i)\binsert\s+into\s+\w+\s*\(`, "insert"),                                                                                   // insert into t (
	lpFold(LeakSQL, `(?i)\bupdate\s+\w+\s+set\s+\w+\s*=`, "update"),                                                                               // update t set c =
	lpFold(LeakSQL, `(?i)(syntax error at or near|\bSQLSTATE\b|\bORA-\d{5}\b|\bSQLITE_[A-Z]+\b|violates (unique|foreign key|not-null) constraint|relation "[^"\n]+" does not exist)`,
		"syntax error at or near", "sqlstate", "ora-", "sqlite_", "violates", "relation \""),

	lp(LeakSecret, `\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@`, "://"), // credentials in a URL
	lp(LeakSecret, `\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`, "Bearer"),
	lp(LeakSecret, `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}`, "eyJ"),                                                                                                      // JWT
	lp(LeakSecret, `\b(sk-(ant-|proj-)?[A-Za-z0-9_-]{16,}|(sk|rk|pk)_(live|test)_[A-Za-z0-9]{8,})`, "sk-", "_live_", "_test_"),                                              // OpenAI, Anthropic, Stripe
	lp(LeakSecret, `\b(AKIA|ASIA)[0-9A-Z]{16}\b`, "AKIA", "ASIA"),                                                                                                           // AWS access key id
	lp(LeakSecret, `\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,})`, "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-"), // GitHub, GitLab
	lp(LeakSecret, `\bxox[abprs]-[A-Za-z0-9-]{10,}`, "xox"),                                                                                                                 // Slack
	lp(LeakSecret, `\bAIza[0-9A-Za-z_-]{35}`, "AIza"),                                                                                                                       // Google API key
	lp(LeakSecret, `-----BEGIN ([A-Z]+ )*PRIVATE KEY-----`, "PRIVATE KEY"),
	lpFold(LeakSecret, `(?i)\b(bearer|api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|token|secret|password|passwd|pwd)\b\s*[:=]\s*\S+`,
		"bearer", "key", "token", "secret", "passw", "pwd"),
	lpFold(LeakSecret, `(?i)"(api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|token|secret|password|passwd)"\s*:\s*"[^"\s]{4,}"`, // the same as a JSON member
		"key\"", "token\"", "secret\"", "passw"),
	lpFold(LeakSecret, `(?i)\bauthorization:\s*\S+`, "authorization:"),

	lpFold(LeakPrivateHost, `(?i)\b[\w-]+(\.[\w-]+)*\.(internal|local|localdomain|corp|lan|intranet|svc)\b`,
		".internal", ".local", ".corp", ".lan", ".intranet", ".svc"),
	lp(LeakPrivateHost, `\b(10\.\d{1,3}|192\.168|172\.(1[6-9]|2\d|3[01])|127\.\d{1,3}|169\.254)\.\d{1,3}\.\d{1,3}\b`, // private, loopback, link-local IPv4
		"10.", "192.168.", "172.", "127.", "169.254."),
	lpFold(LeakPrivateHost, `(?i)(^|[^\w:])((f[cd][0-9a-f]{2}|fe80):[0-9a-f:]*:[0-9a-f]*|::1)\b`, "fc", "fd", "fe80:", "::1"),                                                                     // private, link-local, loopback IPv6
	withReject(lpFold(LeakPrivateHost, `(?i)\b(localhost|(\d{1,3}\.){3}\d{1,3}|([a-z0-9-]+\.)+[a-z]{2,}):\d{2,5}\b`, ":0", ":1", ":2", ":3", ":4", ":5", ":6", ":7", ":8", ":9"), sourceFileLine), // host:port, not file:line

	lp(LeakPath, `(^|[\s'"(\[=,:])(/(home|Users|root|var|etc|tmp|opt|usr|srv|mnt|media|private|proc|sys|app|apps|data|workspace|workspaces|run|Library|Volumes|snap|nix|build|code|src)/[^\s'"(),;]*)`,
		"/home/", "/Users/", "/root/", "/var/", "/etc/", "/tmp/", "/opt/", "/usr/", "/srv/", "/mnt/", "/media/", "/private/", "/proc/", "/sys/", "/app/", "/apps/", "/data/", "/workspace/", "/workspaces/", "/run/", "/Library/", "/Volumes/", "/snap/", "/nix/", "/build/", "/code/", "/src/"),
	lp(LeakPath, `(^|[\s'"(\[=,:])([A-Za-z]:\\[^\s'"]+|\\\\[\w.-]+\\[\w$.-]+|~/[\w.-]+/[^\s'"]*)`, ":\\", "\\\\", "~/"),
}

func withReject(p leakPattern, reject func(string) bool) leakPattern {
	p.reject = reject
	return p
}

// sourceExtensions are the file name endings of source code, which a
// stack frame's "file:line" carries and a host name never ends with.
var sourceExtensions = map[string]bool{
	"go": true, "py": true, "js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true,
	"java": true, "kt": true, "kts": true, "scala": true, "groovy": true, "rb": true, "php": true, "cs": true,
	"rs": true, "swift": true, "c": true, "cc": true, "cpp": true, "cxx": true, "h": true, "hpp": true,
	"m": true, "ex": true, "exs": true, "erl": true, "clj": true, "dart": true, "lua": true, "pl": true, "pm": true,
}

// sourceFileLine reports a "name.ext:N" whose ext is a source file's:
// Lookup.java:88 or orders.rs:42 is a stack frame (LeakStackTrace), not a
// host and port.
func sourceFileLine(frag string) bool {
	host, _, ok := strings.Cut(frag, ":")
	if !ok {
		return false
	}
	i := strings.LastIndexByte(host, '.')
	return i >= 0 && sourceExtensions[strings.ToLower(host[i+1:])]
}

// maxMatchesPerLine bounds the matches of one pattern tried on one line.
const maxMatchesPerLine = 16

// maxTriesPerPattern bounds how many places one pattern is tried at, so
// text full of near misses costs a bounded amount of matching.
const maxTriesPerPattern = 64

// lineWindow bounds the text around a needle a pattern is tried on.
const lineWindow = 512

// FindLeaks returns, for each kind of internal detail found in text, the
// first fragment of that kind (LESSON-RULES §6), in the order of
// LeakKinds. None found is a nil slice. Every pattern matches within one
// line; each is tried on the lines (at most lineWindow bytes either side)
// around the first maxTriesPerPattern places where one of its literals
// shows, so the cost is linear in the text and bounded per pattern.
func FindLeaks(text string) []Leak { return FindLeaksExcept(text, nil) }

// FindLeaksExcept is FindLeaks, leaving out fragments the caller gave: a
// fragment that appears within one of given (the string arguments of
// the request) is the caller's own text, not the server's internals (a
// path the caller asked for, a host it named).
func FindLeaksExcept(text string, given []string) []Leak {
	var out []Leak
	seen := map[LeakKind]bool{}
	lower := ""
	for _, p := range leakPatterns {
		if seen[p.kind] {
			continue
		}
		hay := text
		if p.fold {
			if lower == "" {
				lower = asciiLower(text)
			}
			hay = lower
		}
		if l, ok := p.find(text, hay, given); ok {
			seen[p.kind] = true
			out = append(out, l)
		}
	}
	return out
}

// find tries the pattern around each place one of its needles shows in
// hay (text, or text lowered byte for byte).
func (p leakPattern) find(text, hay string, given []string) (Leak, bool) {
	type span struct{ from, to int }
	var spans []span
	for _, n := range p.need {
		for at, tries := 0, 0; tries < maxTriesPerPattern; tries++ {
			i := strings.Index(hay[at:], n)
			if i < 0 {
				break
			}
			i += at
			spans = append(spans, lineAround(text, i, len(n)))
			at = i + len(n)
			if at >= len(hay) {
				break
			}
		}
	}
	done := map[span]bool{}
	best := -1
	var found Leak
	for _, sp := range spans {
		if done[sp] {
			continue
		}
		done[sp] = true
		for _, m := range p.re.FindAllStringSubmatchIndex(text[sp.from:sp.to], maxMatchesPerLine) {
			start, frag := m[0], text[sp.from+m[0]:sp.from+m[1]]
			if p.kind == LeakPath && len(m) > 5 && m[4] >= 0 {
				start, frag = m[4], text[sp.from+m[4]:sp.from+m[5]] // without the character before the path
				frag = strings.TrimRight(frag, `.:\`)
			}
			frag = strings.TrimSpace(frag)
			if frag == "" || (p.reject != nil && p.reject(frag)) || givenBy(frag, given) {
				continue
			}
			if best < 0 || sp.from+start < best {
				best, found = sp.from+start, Leak{Kind: p.kind, Text: frag}
			}
			break
		}
	}
	return found, best >= 0
}

// givenBy reports a fragment found within one of the caller's strings.
func givenBy(frag string, given []string) bool {
	for _, g := range given {
		if len(g) >= len(frag) && strings.Contains(g, frag) {
			return true
		}
	}
	return false
}

// lineAround is the line holding text[i:i+n], at most lineWindow bytes
// either side of it.
func lineAround(text string, i, n int) struct{ from, to int } {
	from := max(0, i-lineWindow)
	if j := strings.LastIndexByte(text[from:i], '\n'); j >= 0 {
		from += j + 1
	}
	to := min(len(text), i+n+lineWindow)
	if j := strings.IndexByte(text[i+n:to], '\n'); j >= 0 {
		to = i + n + j
	}
	return struct{ from, to int }{from, to}
}

// asciiLower lowers ASCII letters only, so offsets in the result are
// offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Quoted is the fragment as a finding shows it: in quotes, cut to at
// most max bytes; a secret is masked to a short prefix and its length
// ("ghp_16…" (40 characters)), so that a report does not spread it
// further. For "password=…" and the like the name stays and the value is
// masked.
func (l Leak) Quoted(max int) string {
	if l.Kind == LeakSecret {
		shown, n := MaskSecret(l.Text)
		return fmt.Sprintf("%q (%d characters)", shown, n)
	}
	t := l.Text
	if len(t) > max {
		n := max
		for n > 0 && !utf8.RuneStart(t[n]) {
			n--
		}
		t = t[:n] + "…"
	}
	return fmt.Sprintf("%q", t)
}

// MaskSecret masks a credential: the name before it ("password=",
// "Bearer ", "user:" in a URL) is kept and the value is cut to a short
// prefix (at most 6 characters, a quarter of it) and "…". n is the
// value's length in characters.
func MaskSecret(s string) (shown string, n int) {
	lead, value := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		if at := strings.LastIndexByte(s, '@'); at > i {
			if c := strings.IndexByte(s[i+3:at], ':'); c >= 0 {
				lead, value = s[:i+3+c+1], s[i+3+c+1:at]
			}
		}
	} else if i := strings.IndexAny(s, ":= "); i >= 0 && i < len(s)-1 {
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '"' || s[j] == ':' || s[j] == '=') {
			j++
		}
		if j < len(s) {
			lead, value = s[:j], s[j:]
		}
	}
	value = strings.TrimRight(value, `"`)
	k := min(6, len(value)/4)
	for k > 0 && !utf8.RuneStart(value[k]) {
		k--
	}
	return lead + value[:k] + "…", utf8.RuneCountInString(value)
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
