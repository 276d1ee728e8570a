package quiz

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// TopicMastery is a learner's standing on one topic.
type TopicMastery struct {
	Topic    string  `json:"topic"`
	Title    string  `json:"title"`
	Items    int     `json:"items"`    // items in the pool on this topic
	Answered int     `json:"answered"` // items answered at least once
	Mastered int     `json:"mastered"`
	Missed   int     `json:"missed"` // items in box 1 now
	Right    int     `json:"right"`
	Wrong    int     `json:"wrong"`
	Accuracy float64 `json:"accuracy"` // right / (right + wrong); 0 when unanswered
}

// Summary is the results screen and the teacher's report.
type Summary struct {
	Topics    []TopicMastery `json:"topics"`
	Exams     []ExamRecord   `json:"exams"`
	Missed    []MissedItem   `json:"missed"`
	Weakest   []string       `json:"weakest"`                 // topic ids, weakest first
	Solved    int            `json:"scenariosSolved"`         // answered correctly at least once
	FirstTime int            `json:"scenariosRightFirstTime"` // the first answer ever was right
	Scenarios int            `json:"scenarios"`               // scenarios in the catalogue (0 when unknown)
	LabMissed []string       `json:"scenariosMissed"`         // answered, never right
}

// MissedItem is an item the learner last got wrong.
type MissedItem struct {
	ID     string    `json:"id"`
	Topic  string    `json:"topic"`
	Stem   string    `json:"stem"`
	LastAt time.Time `json:"lastAt"`
}

// Summarize computes mastery per topic, the exam history, the missed items
// and the weakest topics (answered topics with the lowest accuracy, at
// most three).
func Summarize(pool *Pool, p *Progress) Summary {
	var s Summary
	for id, r := range p.Scenarios {
		if r.Solved {
			s.Solved++
		}
		if r.FirstCorrect != nil && *r.FirstCorrect {
			s.FirstTime++
		}
		if !r.Solved && r.Attempts > 0 {
			s.LabMissed = append(s.LabMissed, id)
		}
	}
	sort.Strings(s.LabMissed)
	if s.LabMissed == nil {
		s.LabMissed = []string{}
	}
	for _, t := range Topics {
		m := TopicMastery{Topic: t.ID, Title: t.Title}
		for _, it := range pool.Filter(t.ID) {
			m.Items++
			r, seen := p.Items[it.ID]
			if !seen {
				continue
			}
			m.Answered++
			m.Right += r.Right
			m.Wrong += r.Wrong
			if r.Box == Mastered {
				m.Mastered++
			}
			if r.Box == BoxMissed {
				m.Missed++
				s.Missed = append(s.Missed, MissedItem{ID: it.ID, Topic: it.Topic, Stem: strings.Join(strings.Fields(it.Stem), " "), LastAt: r.LastAt})
			}
		}
		if m.Right+m.Wrong > 0 {
			m.Accuracy = float64(m.Right) / float64(m.Right+m.Wrong)
		}
		s.Topics = append(s.Topics, m)
	}
	s.Exams = append([]ExamRecord{}, p.Exams...)
	var answered []TopicMastery
	for _, m := range s.Topics {
		if m.Right+m.Wrong > 0 && m.Accuracy < 1 {
			answered = append(answered, m)
		}
	}
	sort.SliceStable(answered, func(i, j int) bool { return answered[i].Accuracy < answered[j].Accuracy })
	for i := 0; i < len(answered) && i < 3; i++ {
		s.Weakest = append(s.Weakest, answered[i].Topic)
	}
	sort.SliceStable(s.Missed, func(i, j int) bool { return s.Missed[i].LastAt.After(s.Missed[j].LastAt) })
	if s.Missed == nil {
		s.Missed = []MissedItem{}
	}
	return s
}

func firstSentences(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		cut := strings.LastIndex(s[:160], " ")
		if cut < 80 {
			cut = 160
		}
		s = s[:cut] + "…"
	}
	return s
}

// WriteJSON writes the summary as one JSON object.
func (s Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// WriteMarkdown writes the summary as a Markdown report for a teacher.
func (s Summary) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# errorlab progress report\n\n")
	of := ""
	if s.Scenarios > 0 {
		of = fmt.Sprintf(" of %d", s.Scenarios)
	}
	fmt.Fprintf(&b, "Lab scenarios answered correctly: %d%s (right first time: %d)\n", s.Solved, of, s.FirstTime)
	if len(s.LabMissed) > 0 {
		fmt.Fprintf(&b, "Answered but never right yet: %s\n", strings.Join(s.LabMissed, ", "))
	}
	b.WriteString("\n")
	b.WriteString("## By topic\n\n| topic | answered | mastered | missed now | right | wrong | accuracy |\n|---|---|---|---|---|---|---|\n")
	for _, t := range s.Topics {
		acc := "–"
		if t.Right+t.Wrong > 0 {
			acc = fmt.Sprintf("%.0f%%", 100*t.Accuracy)
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %d | %d | %d | %d | %s |\n", t.Title, t.Answered, t.Items, t.Mastered, t.Missed, t.Right, t.Wrong, acc)
	}
	b.WriteString("\n## Mock exams\n\n")
	if len(s.Exams) == 0 {
		b.WriteString("No exam taken yet.\n")
	} else {
		b.WriteString("| when (UTC) | score | pass line | result | time |\n|---|---|---|---|---|\n")
		for _, e := range s.Exams {
			res := "✗ not passed"
			if e.Passed {
				res = "✓ passed"
			}
			if e.TimedOut {
				res += " (time ran out)"
			}
			fmt.Fprintf(&b, "| %s | %d / %d | %.0f%% | %s | %dm%02ds |\n", e.At.Format("2006-01-02 15:04"), e.Correct, e.Questions, 100*e.PassMark, res, e.Seconds/60, e.Seconds%60)
		}
	}
	b.WriteString("\n## Weakest topics\n\n")
	if len(s.Weakest) == 0 {
		b.WriteString("None yet.\n")
	}
	for _, t := range s.Weakest {
		fmt.Fprintf(&b, "- %s\n", TopicTitle(t))
	}
	b.WriteString("\n## Missed and not yet recovered\n\n")
	if len(s.Missed) == 0 {
		b.WriteString("Nothing.\n")
	}
	for _, m := range s.Missed {
		fmt.Fprintf(&b, "- `%s` (%s): %s\n", m.ID, TopicTitle(m.Topic), firstSentences(m.Stem))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
