package room

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/errorlab/errorlab/ui/common"
)

// RecordVersion is the version of the session record this build writes.
const RecordVersion = 1

// Record is a class session as `errorlab report --class` exports it:
// every question the room was asked, each student's answer to it and
// the tally. Its JSON form is the session file (DIR/sessions/ID.json)
// and the export's .json.
type Record struct {
	Version int       `json:"version"`
	Session string    `json:"session"`
	Listen  string    `json:"listen,omitempty"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	// Students are everyone who joined as a student, by name.
	Students []StudentRecord `json:"students"`
	// Questions are the asked items in the order the teacher first sent
	// them.
	Questions []QuestionRecord `json:"questions"`
}

// StudentRecord is one student of the session.
type StudentRecord struct {
	Name      string    `json:"name"`
	FirstSeen time.Time `json:"firstSeen"`
	// Sessions counts their connections (a reconnect is a second one);
	// Crashes how many of them ended in a crash.
	Sessions int `json:"sessions"`
	Crashes  int `json:"crashes,omitempty"`
}

// QuestionRecord is one asked item: the question, the tally per option
// and every student's final answer.
type QuestionRecord struct {
	Key   string          `json:"key"`
	Kind  common.RoomKind `json:"kind"`
	Title string          `json:"title"`
	Stem  string          `json:"stem,omitempty"`
	Multi bool            `json:"multi,omitempty"`
	// Options carry the tally: how many students' answers include each.
	Options  []OptionRecord `json:"options"`
	Revealed bool           `json:"revealed"`
	Asked    time.Time      `json:"asked"`
	// Answered is how many students answered (each once).
	Answered int            `json:"answered"`
	Answers  []AnswerRecord `json:"answers"`
}

// OptionRecord is one option with its count.
type OptionRecord struct {
	Label   string `json:"label"`
	Text    string `json:"text"`
	Correct bool   `json:"correct"`
	Count   int    `json:"count"`
}

// AnswerRecord is a student's final answer to a question.
type AnswerRecord struct {
	Student string    `json:"student"`
	Choice  []string  `json:"choice"` // the options' labels
	Correct bool      `json:"correct"`
	At      time.Time `json:"at"`
	// Changes counts how often the student changed their answer before
	// it was revealed (the last one is the one counted).
	Changes int `json:"changes,omitempty"`
}

// Record copies the session as it stands.
func (h *Hub) Record() Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := Record{Version: RecordVersion, Session: h.id, Listen: h.listen, Started: h.started, Updated: h.updated,
		Students: []StudentRecord{}, Questions: []QuestionRecord{}}
	for _, s := range h.students {
		r.Students = append(r.Students, StudentRecord{Name: s.name, FirstSeen: s.first, Sessions: s.sessions, Crashes: s.crashes})
	}
	sort.Slice(r.Students, func(i, j int) bool { return r.Students[i].Name < r.Students[j].Name })
	for _, q := range h.asks {
		counts, n := q.tally()
		qr := QuestionRecord{Key: q.Item.Key, Kind: q.Item.Kind, Title: q.Title, Stem: q.Stem, Multi: q.Multi,
			Revealed: q.revealed, Asked: q.asked, Answered: n, Answers: []AnswerRecord{}}
		for i, o := range q.Options {
			qr.Options = append(qr.Options, OptionRecord{Label: q.Labels[i], Text: o, Correct: slices.Contains(q.Correct, i), Count: counts[i]})
		}
		for name, a := range q.answers {
			ar := AnswerRecord{Student: name, At: a.at, Changes: a.changes, Correct: q.right(a.choice)}
			for _, i := range a.choice {
				ar.Choice = append(ar.Choice, q.Labels[i])
			}
			qr.Answers = append(qr.Answers, ar)
		}
		sort.Slice(qr.Answers, func(i, j int) bool { return qr.Answers[i].Student < qr.Answers[j].Student })
		r.Questions = append(r.Questions, qr)
	}
	return r
}

// WriteJSON writes the record as indented JSON.
func (r Record) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// writeFile replaces path with the record, atomically (a temporary file
// in the same folder, then a rename).
func (r Record) writeFile(path string) error {
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// mdCell makes text safe inside a Markdown table cell: one line, pipes
// escaped, control characters replaced.
func mdCell(s string) string {
	return strings.ReplaceAll(common.OneLineText(common.Sanitize(s)), "|", `\|`)
}

// bar is a tally bar of n out of total, width cells at most.
func bar(n, total, width int) string {
	if total <= 0 || n <= 0 {
		return ""
	}
	return strings.Repeat("█", max(n*width/total, 1))
}

// WriteMarkdown writes the record for a teacher: the session, then for
// each question its tally (a bar per option, with counts, the answer
// marked) and every student's answer, and at the end a grid of students
// against questions.
func (r Record) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Class session %s\n\n", r.Session)
	fmt.Fprintf(&b, "Started %s, last change %s. %s, %s asked.\n\n", r.Started.Format("2006-01-02 15:04"), r.Updated.Format("15:04"),
		common.Plural(len(r.Students), "student"), common.Plural(len(r.Questions), "question"))
	for i, q := range r.Questions {
		fmt.Fprintf(&b, "## %d. %s\n\n", i+1, mdCell(q.Title))
		if q.Stem != "" {
			fmt.Fprintf(&b, "%s\n\n", common.OneLineText(common.Sanitize(q.Stem)))
		}
		state := "not revealed"
		if q.Revealed {
			state = "revealed"
		}
		fmt.Fprintf(&b, "%d of %d answered · %s · key `%s`\n\n", q.Answered, len(r.Students), state, q.Key)
		b.WriteString("| option | | count | tally |\n| --- | --- | ---: | --- |\n")
		for _, o := range q.Options {
			mark := ""
			if o.Correct {
				mark = "✓ "
			}
			fmt.Fprintf(&b, "| %s%s | %s | %d | %s |\n", mark, o.Label, mdCell(o.Text), o.Count, bar(o.Count, q.Answered, 20))
		}
		b.WriteString("\n")
		if len(q.Answers) > 0 {
			b.WriteString("| student | answer | right | changed |\n| --- | --- | --- | ---: |\n")
			for _, a := range q.Answers {
				fmt.Fprintf(&b, "| %s | %s | %s | %d |\n", a.Student, strings.Join(a.Choice, ", "), yesNo(a.Correct), a.Changes)
			}
			b.WriteString("\n")
		}
	}
	if len(r.Questions) > 0 && len(r.Students) > 0 {
		b.WriteString("## By student\n\n| student |")
		for i := range r.Questions {
			fmt.Fprintf(&b, " %d |", i+1)
		}
		b.WriteString(" right |\n| --- |")
		for range r.Questions {
			b.WriteString(" :-: |")
		}
		b.WriteString(" ---: |\n")
		for _, s := range r.Students {
			fmt.Fprintf(&b, "| %s |", s.Name)
			right := 0
			for _, q := range r.Questions {
				cell := "—"
				for _, a := range q.Answers {
					if a.Student == s.Name {
						cell = strings.Join(a.Choice, ",")
						if a.Correct {
							cell += " ✓"
							right++
						} else {
							cell += " ✗"
						}
					}
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			fmt.Fprintf(&b, " %d of %d |\n", right, len(r.Questions))
		}
		b.WriteString("\n✓ right · ✗ wrong · — no answer. A student's last answer before the reveal is the one counted.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// Export writes the session as Markdown and JSON into dir (created 0700
// when missing): class-ID.md and class-ID.json, replacing earlier
// exports of the same session. It returns the two paths.
func (h *Hub) Export(dir string) (md, js string, err error) { return h.Record().Export(dir) }

// Export writes the record as Markdown and JSON into dir, as Hub.Export.
func (r Record) Export(dir string) (md, js string, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", fmt.Errorf("the export folder %s: %w", dir, err)
	}
	var mb, jb bytes.Buffer
	if err := r.WriteMarkdown(&mb); err != nil {
		return "", "", err
	}
	if err := r.WriteJSON(&jb); err != nil {
		return "", "", err
	}
	md, js = filepath.Join(dir, "class-"+r.Session+".md"), filepath.Join(dir, "class-"+r.Session+".json")
	if err := writeAtomic(md, mb.Bytes()); err != nil {
		return "", "", fmt.Errorf("cannot write %s: %w", md, err)
	}
	if err := writeAtomic(js, jb.Bytes()); err != nil {
		return "", "", fmt.Errorf("cannot write %s: %w", js, err)
	}
	return md, js, nil
}

// ErrNoSessions: the state directory holds no class session yet.
var ErrNoSessions = errors.New("no class session has been recorded yet")

// ReadRecord reads a class session from dir (the classroom folder of the
// state directory): session id, or the latest one when id is "". The
// error names what is missing or unreadable.
func ReadRecord(dir, id string) (Record, error) {
	sd := filepath.Join(dir, "sessions")
	if id == "" {
		ids, err := Sessions(dir)
		if err != nil {
			return Record{}, err
		}
		if len(ids) == 0 {
			return Record{}, fmt.Errorf("%w in %s (run `errorlab classroom` first)", ErrNoSessions, sd)
		}
		id = ids[len(ids)-1]
	}
	if !validName(id) {
		return Record{}, fmt.Errorf("%q is not a session id (they look like 20250131-140502)", id)
	}
	data, err := os.ReadFile(filepath.Join(sd, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		ids, _ := Sessions(dir)
		return Record{}, fmt.Errorf("no class session %q in %s (there are: %s)", id, sd, strings.Join(ids, ", "))
	}
	if err != nil {
		return Record{}, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, fmt.Errorf("the session file %s is unreadable: %w", filepath.Join(sd, id+".json"), err)
	}
	if r.Version > RecordVersion {
		return Record{}, fmt.Errorf("the session file of %s was written by a newer errorlab (version %d)", id, r.Version)
	}
	return r, nil
}

// Sessions lists the recorded sessions' ids, oldest first.
func Sessions(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "sessions"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() && !strings.HasPrefix(n, ".") {
			ids = append(ids, n)
		}
	}
	sort.Strings(ids)
	return ids, nil
}
