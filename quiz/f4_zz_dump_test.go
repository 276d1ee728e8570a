package quiz

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDump(t *testing.T) {
	p := testPool(t)
	var b strings.Builder
	for _, it := range p.Items {
		if it.Kind == KindQuestion {
			continue
		}
		fmt.Fprintf(&b, "=== %s [%s] story=%s topic=%s\n%s\n--- exhibit\n%s\n", it.ID, it.Kind, it.Story, it.Topic, it.Stem, it.Exhibit)
		for _, pt := range it.Parts {
			fmt.Fprintf(&b, "## %s\n", pt.Prompt)
			for _, c := range pt.Choices {
				fmt.Fprintf(&b, "  [%v] %s\n      -> %s\n", c.Correct, c.Text, c.Explanation)
			}
		}
		fmt.Fprintf(&b, "After: %s\n\n", it.After)
	}
	os.WriteFile("/tmp/f4drills.txt", []byte(b.String()), 0o644)
}
