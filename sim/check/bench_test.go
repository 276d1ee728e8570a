package check

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheck reads and grades every public fixture, the way
// `errorlab check FILE...` does, and reports responses graded per second.
func BenchmarkCheck(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	var inputs [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	if len(inputs) < 10 {
		b.Fatalf("%d fixtures", len(inputs))
	}
	n := 0
	for b.Loop() {
		for i, data := range inputs {
			items, err := Parse(data, files[i], "")
			if err != nil {
				b.Fatal(err)
			}
			n += len(GradeAll(items))
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "responses/s")
}
