package check

import (
	"bytes"
	"fmt"
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

// BenchmarkCheckLines reads and grades JSON lines, up to the limit of one
// input (MaxRecords responses, the size of a long `errorlab serve --log`),
// and reports the time per response: it stays the same from 10,000 lines
// to 100,000, since reading and grading are linear in the input.
func BenchmarkCheckLines(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"errorCategory\":\"transient\",\"isRetryable\":true,\"description\":\"The order store timed out; try again in a few seconds.\"}"}],"isError":true}}` + "\n")
	for _, n := range []int{10_000, MaxRecords} {
		data := bytes.Repeat(line, n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				items, err := Parse(data, "log.jsonl", "")
				if err != nil {
					b.Fatal(err)
				}
				if len(GradeAll(items)) != n {
					b.Fatal("not every line graded")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/response")
		})
	}
}
