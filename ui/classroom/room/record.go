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

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
)

// RecordVersion is the version of the session record this build writes.
// Version 2: one entry per poll (an item asked three times is three
// entries, each with its round), a student's first answer, the room's
// grade of each answer (best, acceptable, wrong), and how many students
// each poll counts against.
const RecordVersion = 2

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
	// Questions are the polls in the order the teacher sent them: an
	// item sent three times is three entries.
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

// QuestionRecord is one poll: the item asked, the tally per option and
// every student's answer.
type QuestionRecord struct {
	Key string `json:"key"`
	// Round numbers the poll in the session (1, 2, …); Time is how many
	// times its item had been asked, this one included.
	Round int             `json:"round,omitempty"`
	Time  int             `json:"time,omitempty"`
	Kind  common.RoomKind `json:"kind"`
	Title string          `json:"title"`
	Stem  string          `json:"stem,omitempty"`
	Multi bool            `json:"multi,omitempty"`
	// FirstCounts: a student's first choice was their answer (a lab
	// scenario); otherwise they could change it until the reveal.
	FirstCounts bool `json:"firstCounts,omitempty"`
	// Options carry the tally: how many students' answers include each.
	Options  []OptionRecord `json:"options"`
	Revealed bool           `json:"revealed"`
	Asked    time.Time      `json:"asked"`
	// Answered is how many students answered (each once), of Present:
	// the students connected while the poll was open, and those who
	// answered (by name).
	Answered int            `json:"answered"`
	Present  []string       `json:"present,omitempty"`
	Answers  []AnswerRecord `json:"answers"`
}

// OptionRecord is one option with its count. Correct marks the answer
// (the best move of a scenario); Grade, for a scenario, is sim/rules'
// grade of the option (best, acceptable, wrong).
type OptionRecord struct {
	Label   string `json:"label"`
	Text    string `json:"text"`
	Correct bool   `json:"correct"`
	Grade   string `json:"grade,omitempty"`
	Count   int    `json:"count"`
}

// AnswerRecord is a student's answer to a poll.
type AnswerRecord struct {
	Student string   `json:"student"`
	Choice  []string `json:"choice"` // the options' labels
	// Grade is the room's verdict (Ask.Grade): best, acceptable or
	// wrong; Correct is best or acceptable.
	Grade   string    `json:"grade,omitempty"`
	Correct bool      `json:"correct"`
	At      time.Time `json:"at"`
	// First is the student's first answer when they changed it; Changes
	// counts how often they did before the reveal (the last one counts).
	First   []string `json:"first,omitempty"`
	Changes int      `json:"changes,omitempty"`
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
		qr := QuestionRecord{Key: q.Item.Key, Round: q.round, Time: q.time, Kind: q.Item.Kind, Title: q.Title, Stem: q.Stem, Multi: q.Multi,
			FirstCounts: q.FirstCounts, Revealed: q.revealed, Asked: q.asked, Answered: n, Present: q.presentNames(), Answers: []AnswerRecord{}}
		for i, o := range q.Options {
			or := OptionRecord{Label: q.Labels[i], Text: o, Correct: slices.Contains(q.Correct, i), Count: counts[i]}
			if q.Grades != nil {
				or.Grade = string(q.Grades[i])
			}
			qr.Options = append(qr.Options, or)
		}
		for name, a := range q.answers {
			g := q.Grade(a.choice)
			ar := AnswerRecord{Student: name, At: a.at, Changes: a.changes, Grade: string(g), Correct: g.Correct(),
				Choice: labelsOf(q.Labels, a.choice)}
			if !slices.Equal(a.first, a.choice) {
				ar.First = labelsOf(q.Labels, a.first)
			}
			qr.Answers = append(qr.Answers, ar)
		}
		sort.Slice(qr.Answers, func(i, j int) bool { return qr.Answers[i].Student < qr.Answers[j].Student })
		r.Questions = append(r.Questions, qr)
	}
	return r
}

// labelsOf names options by their labels.
func labelsOf(labels []string, idx []int) []string {
	out := make([]string, 0, len(idx))
	for _, i := range idx {
		if i >= 0 && i < len(labels) {
			out = append(out, labels[i])
		}
	}
	return out
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
	if len(r.Questions) > 0 {
		b.WriteString("Each time the room was asked is a poll of its own. \"N of M answered\" counts against the students connected while the poll was open (and any who answered). ✓ best · ◑ acceptable · ✗ wrong.\n\n")
	}
	for i, q := range r.Questions {
		again := ""
		if q.Time > 1 {
			again = fmt.Sprintf(" (asked again: time %d)", q.Time)
		}
		fmt.Fprintf(&b, "## %d. %s%s\n\n", i+1, mdCell(q.Title), again)
		if q.Stem != "" {
			fmt.Fprintf(&b, "%s\n\n", common.OneLineText(common.Sanitize(q.Stem)))
		}
		state := "not revealed"
		if q.Revealed {
			state = "revealed"
		}
		of := len(q.Present)
		if q.Round == 0 { // a version 1 record: against everyone
			of = len(r.Students)
		}
		rule := ""
		if q.FirstCounts {
			rule = " · the first choice counts"
		}
		fmt.Fprintf(&b, "%d of %d answered · %s · key `%s`%s\n\n", q.Answered, of, state, mdCell(q.Key), rule)
		b.WriteString("| option | | count | tally |\n| --- | --- | ---: | --- |\n")
		for _, o := range q.Options {
			mark := ""
			switch {
			case o.Correct:
				mark = "✓ "
			case o.Grade == string(rules.GradeAcceptable):
				mark = "◑ "
			}
			fmt.Fprintf(&b, "| %s%s | %s | %d | %s |\n", mark, mdCell(o.Label), mdCell(o.Text), o.Count, bar(o.Count, q.Answered, 20))
		}
		b.WriteString("\n")
		if len(q.Answers) > 0 {
			b.WriteString("| student | answer | right | changed |\n| --- | --- | --- | ---: |\n")
			for _, a := range q.Answers {
				choice := mdCell(strings.Join(a.Choice, ", "))
				if len(a.First) > 0 {
					choice += " (first " + mdCell(strings.Join(a.First, ", ")) + ")"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %d |\n", mdCell(a.Student), choice, a.mark(), a.Changes)
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
			fmt.Fprintf(&b, "| %s |", mdCell(s.Name))
			right, asked := 0, 0
			for _, q := range r.Questions {
				cell := "·"
				if q.Round == 0 || slices.Contains(q.Present, s.Name) {
					cell = "—"
					asked++
				}
				for _, a := range q.Answers {
					if a.Student == s.Name {
						if cell == "·" {
							asked++
						}
						cell = mdCell(strings.Join(a.Choice, ",")) + " " + a.mark()
						if a.Correct {
							right++
						}
					}
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			fmt.Fprintf(&b, " %d of %d |\n", right, asked)
		}
		b.WriteString("\n✓ right · ◑ acceptable (counts as right) · ✗ wrong · — no answer · · not connected while it was open. A question's last answer before the reveal is the one counted; a scenario's first.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mark is the answer's grade mark: ✓ best, ◑ acceptable, ✗ wrong (a
// version 1 record has only Correct).
func (a AnswerRecord) mark() string {
	if a.Grade == "" {
		if a.Correct {
			return "✓"
		}
		return "✗"
	}
	return GradeMark(rules.Grade(a.Grade))
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
	r.clean(id)
	return r, nil
}

// clean makes a record read from a file as safe as one the room keeps:
// the file is data anyone who can write the state directory could have
// edited. Its session id is the file's name (already checked), not what
// the file says, since it names the exports; a name the room kept or
// mapped stays as it is and any other is mapped as SSH user names are
// (StoredName); every other text is one line without
// control characters, so nothing in it can act on a terminal or reach
// outside the export folder.
func (r *Record) clean(id string) {
	r.Session = id
	r.Listen = cleanText(r.Listen)
	for i := range r.Students {
		r.Students[i].Name = cleanName(r.Students[i].Name)
	}
	for i := range r.Questions {
		q := &r.Questions[i]
		q.Key, q.Title, q.Stem, q.Kind = cleanText(q.Key), cleanText(q.Title), cleanText(q.Stem), common.RoomKind(cleanText(string(q.Kind)))
		for j := range q.Present {
			q.Present[j] = cleanName(q.Present[j])
		}
		for j := range q.Options {
			o := &q.Options[j]
			o.Label, o.Text, o.Grade = cleanText(o.Label), cleanText(o.Text), cleanText(o.Grade)
		}
		for j := range q.Answers {
			a := &q.Answers[j]
			a.Student, a.Grade = cleanName(a.Student), cleanText(a.Grade)
			for k := range a.Choice {
				a.Choice[k] = cleanText(a.Choice[k])
			}
			for k := range a.First {
				a.First[k] = cleanText(a.First[k])
			}
		}
	}
}

// cleanName is a student's name read back from a file (StoredName): the
// name the room showed and recorded, never mapped a second time.
func cleanName(s string) string { return StoredName(s) }

// cleanText is text read back from a file on one line, without control
// characters.
func cleanText(s string) string { return common.OneLineText(common.Sanitize(s)) }

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
