package rules

import "strings"

// FirstSentence returns the text up to (not including) the full stop that
// ends its first sentence, skipping the stops inside "e.g.", "i.e." and
// "vs.". Text with no such stop comes back whole, without a final stop.
// Error descriptions are written as sentences; screens and agents that
// quote one use this.
func FirstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '.' || s[i+1] != ' ' {
			continue
		}
		before := strings.ToLower(s[max(0, i-4) : i+1])
		if strings.HasSuffix(before, "e.g.") || strings.HasSuffix(before, "i.e.") || strings.HasSuffix(before, " vs.") {
			continue
		}
		return s[:i]
	}
	return strings.TrimSuffix(s, ".")
}
