package classroom_test

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// connectAll connects n students (named prefix00…) at once and waits
// until each shows what.
func connectAll(b *testing.B, f *fixture, prefix string, n int, what string) []*term {
	b.Helper()
	terms := make([]*term, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tm, err := f.dial(b, fmt.Sprintf("%s%02d", prefix, i), anyone())
			if err == nil {
				err = tm.waitFor(what, 0, 60*time.Second)
			}
			terms[i] = tm
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	return terms
}

// heap is the memory in use after a collection: the heap's spans in use
// and the goroutines' stacks.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse + ms.StackInuse
}

// BenchmarkIdleSessionMemory: the memory 30 idle students' sessions take
// (each on Home, a 100x30 terminal), per session. The figure includes
// this process's 30 ssh clients too, so the server's own share is
// lower. Target: at most 8 MB a session.
//
//	go test -run '^$' -bench IdleSessionMemory -benchtime 3x ./ui/classroom
func BenchmarkIdleSessionMemory(b *testing.B) {
	f := start(b, nil)
	warm := connectAll(b, f, "warm", 2, home)
	for _, tm := range warm {
		tm.close()
		_ = tm.ended(5 * time.Second)
	}
	const n = 30
	var per float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := heap()
		terms := connectAll(b, f, fmt.Sprintf("s%d-", i), n, home)
		after := heap()
		per = float64(after-before) / n
		b.StopTimer()
		for _, tm := range terms {
			tm.close()
		}
		for _, tm := range terms {
			_ = tm.ended(5 * time.Second)
		}
		deadline := time.Now().Add(10 * time.Second)
		for f.srv.Hub().Snapshot().Students > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		b.StartTimer()
	}
	b.ReportMetric(per/(1<<20), "MB/session")
}

// BenchmarkAnswerToTally: the time from a student's key (an answer that
// changes the tally) to the teacher's dashboard showing the new count,
// over SSH both ways, with 30 students connected. Target: under 100 ms.
//
//	go test -run '^$' -bench AnswerToTally ./ui/classroom
func BenchmarkAnswerToTally(b *testing.B) {
	f := start(b, nil)
	a := askQuestion(b, f, "empty-which-mistake-is-worse")
	const n = 30
	terms := connectAll(b, f, "s", n, a.Stem[:30])
	for _, tm := range terms {
		tm.press("a")
	}
	teacher := f.connect(b, "teacher", withKey(f.teacher))
	teacher.must(fmt.Sprintf("%d of %d answered", n, n))
	row := regexp.MustCompile(regexp.QuoteMeta("B "+a.Options[1][:12]) + `[^\n]*?[█░]+\s+(\d+)`)
	onB := make([]bool, n)
	countB := 0
	// shows waits for the dashboard's row B to show count want in what
	// arrived after mark.
	shows := func(mark, want int) error {
		deadline := time.Now().Add(10 * time.Second)
		for {
			teacher.mu.Lock()
			got := ansi.Strip(string(teacher.out.Bytes()[mark:]))
			teacher.mu.Unlock()
			if m := row.FindAllStringSubmatch(got, -1); len(m) > 0 {
				if c, _ := strconv.Atoi(m[len(m)-1][1]); c == want {
					return nil
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("the dashboard never showed B = %d", want)
			}
			select {
			case <-teacher.changed:
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % n
		key := "b"
		if onB[j] {
			key = "a"
			countB--
		} else {
			countB++
		}
		onB[j] = !onB[j]
		mark := teacher.size()
		t0 := time.Now()
		terms[j].press(key)
		if err := shows(mark, countB); err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/answer")
}
