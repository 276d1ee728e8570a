package quiz

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reviewQ writes one question in the bank's own layout. opts are the four
// option texts; key is "B" or, for a multi-answer question, "[A, C]".
func reviewQ(id, stem, key string, opts ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- id: %s\n  topic: categories\n  difficulty: 2\n  story: %s-story\n  trap: a belief\n  stem: %s\n  options:\n", id, id, stem)
	for _, o := range opts {
		fmt.Fprintf(&b, "    - text: %s\n      explanation: why\n", o)
	}
	if strings.HasPrefix(key, "[") {
		fmt.Fprintf(&b, "  multi: true\n  answers: %s\n", key)
	} else {
		fmt.Fprintf(&b, "  answer: %s\n", key)
	}
	b.WriteString("  rule: \"§2\"\n  concepts: [cat-business]\n")
	return b.String()
}

// validateFiles writes files into a fresh directory and returns what
// `errorlab questions validate` would print for it, one problem a line.
func validateFiles(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps, n, err := ValidateQuestionsDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) > 0 && n != 0 {
		t.Fatalf("problems reported, yet %d questions called valid", n)
	}
	var lines []string
	for _, p := range ps {
		lines = append(lines, p.String())
	}
	return dir, strings.Join(lines, "\n")
}

// Each design fault the review looks for, in a small file, reported at
// the line and column of the field concerned.
func TestReviewReportsDesignFaultsAtTheirLine(t *testing.T) {
	distinct := func(p string) []string {
		return []string{p + " alpha one", p + " bravo two", p + " charlie three", p + " delta four"}
	}
	t.Run("stem contains its key", func(t *testing.T) {
		dir, out := validateFiles(t, map[string]string{"a.yaml": reviewQ("echo",
			"A refund is refused by a rule. Which category? Business.", "B",
			"transient", "business", "validation", "permission")})
		want := filepath.Join(dir, "a.yaml") + ":6:9: the stem of echo contains the text of its key B (\"business\")"
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
	})
	t.Run("apart names no question", func(t *testing.T) {
		body := reviewQ("kept", "A refund is refused by a rule. Which category?", "B",
			"transient", "business", "validation", "permission") + "  apart: [categories-return-window, no-such-question]\n"
		dir, out := validateFiles(t, map[string]string{"a.yaml": body})
		want := filepath.Join(dir, "a.yaml") + `:19:37: question kept is kept apart from "no-such-question", which is no question of this bank or the built-in one`
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
		if strings.Contains(out, "categories-return-window\", which") {
			t.Fatalf("a built-in question's id was reported as unknown:\n%s", out)
		}
	})
	t.Run("near-duplicate options across questions", func(t *testing.T) {
		first := reviewQ("first", "Which fits the first case?", "A",
			"the refund is refused by a rule", "the database timed out on the call", "the id was typed wrongly", "the role lacks the scope")
		second := reviewQ("second", "Which fits the second case?", "C",
			"the refund was refused by a rule", "the database timed out on this call", "a role lacks the scope", "a sunny day in June")
		dir, out := validateFiles(t, map[string]string{"a.yaml": first, "b.yaml": second})
		want := filepath.Join(dir, "b.yaml") + ":8:5: the options of second overlap those of first (" + filepath.Join(dir, "a.yaml") + ") by more than half: 3 of 4 are near-copies"
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
	})
	t.Run("multi-answer letter out of balance", func(t *testing.T) {
		var body string
		for i, key := range []string{"[A, C]", "[A, B]", "[A, D]", "[A, C]"} {
			body += reviewQ(fmt.Sprintf("m%d", i), fmt.Sprintf("Which apply, case %d?", i), key, distinct(fmt.Sprintf("m%d", i))...)
		}
		dir, out := validateFiles(t, map[string]string{"m.yaml": body})
		// The fourth question's answers line: 19 lines a question.
		want := filepath.Join(dir, "m.yaml") + ":74:12: A is a key letter in 4 of the 4 multi-answer questions (at most half may hold it)"
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
		if !strings.Contains(out, "every multi-answer key has 2 letters") {
			t.Fatalf("keys all of one size not reported:\n%s", out)
		}
	})
	t.Run("single-answer letter out of balance", func(t *testing.T) {
		var body string
		for i := range 12 {
			key := "A"
			if i == 11 {
				key = "B"
			}
			body += reviewQ(fmt.Sprintf("s%d", i), fmt.Sprintf("Which fits case %d?", i), key, distinct(fmt.Sprintf("s%d", i))...)
		}
		_, out := validateFiles(t, map[string]string{"s.yaml": body})
		for _, want := range []string{"A is the key of 11 of the 12 single-answer questions (92%", "C is the key of 0 of the 12"} {
			if !strings.Contains(out, want) {
				t.Errorf("want %q in:\n%s", want, out)
			}
		}
	})
	t.Run("no trap, no story, no concept, a throwaway option", func(t *testing.T) {
		q := reviewQ("bare", "Which fits?", "A", "the rule refused it", "it timed out", "None of the above", "the role lacks it")
		q = strings.Replace(q, "  story: bare-story\n  trap: a belief\n", "", 1)
		q = strings.Replace(q, "  concepts: [cat-business]\n", "", 1)
		dir, out := validateFiles(t, map[string]string{"a.yaml": q})
		file := filepath.Join(dir, "a.yaml")
		for _, want := range []string{
			file + ":1:7: question bare names no trap",
			file + ":1:7: question bare names no story",
			file + ":1:7: question bare names no concept",
			file + ":10:13: option C of bare (\"None of the above\") is a throwaway",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("want %q in:\n%s", want, out)
			}
		}
	})
	t.Run("one scenario, two stories", func(t *testing.T) {
		a := strings.Replace(reviewQ("one", "Which fits?", "A", distinct("one")...), "  story: one-story\n", "  story: dana\n  scenario: refund-past-return-window\n", 1)
		b := strings.Replace(reviewQ("two", "Which fits here?", "B", distinct("two")...), "  story: two-story\n", "  story: headphones\n  scenario: refund-past-return-window\n", 1)
		dir, out := validateFiles(t, map[string]string{"a.yaml": a + b})
		want := filepath.Join(dir, "a.yaml") + ":23:10: question two cites scenario refund-past-return-window under story \"headphones\", but question one cites it under story \"dana\""
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in:\n%s", want, out)
		}
	})
	t.Run("a sound file passes", func(t *testing.T) {
		var body string
		for i, key := range []string{"[A]", "[B, C]", "[C, D]", "[A, B, D]"} {
			body += reviewQ(fmt.Sprintf("ok%d", i), fmt.Sprintf("Which apply, case %d?", i), key, distinct(fmt.Sprintf("ok%d", i))...)
		}
		_, out := validateFiles(t, map[string]string{"ok.yaml": body})
		if out != "" {
			t.Fatalf("a sound file drew problems:\n%s", out)
		}
	})
}

// The review never stops a bank from loading: an instructor's files with
// design faults still load for a quiz (LoadBankDir); only `questions
// validate` reports them.
func TestReviewDoesNotBlockLoading(t *testing.T) {
	dir := t.TempDir()
	q := reviewQ("echo", "Which category? Business.", "B", "transient", "business", "validation", "permission")
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBankDir(dir, nil)
	if err != nil {
		t.Fatalf("a file with design faults did not load: %v", err)
	}
	if _, ok := b.Get("echo"); !ok {
		t.Fatal("the instructor's question is missing")
	}
}

// Each fault class of issue 12's Proof, one YAML snippet each: `questions
// validate` reports it at file:line:col; a load fault also stops
// `--questions DIR` loading anything (LoadBankDir), a design fault does
// not (the README's rule).
func TestValidateCatchesEachFaultClass(t *testing.T) {
	distinct := func(p string) []string {
		return []string{p + " alpha one", p + " bravo two", p + " charlie three", p + " delta four"}
	}
	multi := func(keys ...string) string {
		var body string
		for i, key := range keys {
			body += reviewQ(fmt.Sprintf("m%d", i), fmt.Sprintf("Which apply, case %d?", i), key, distinct(fmt.Sprintf("m%d", i))...)
		}
		return body
	}
	sound := reviewQ("sound", "Which fits?", "B", distinct("sound")...)
	cases := []struct {
		name  string
		files map[string]string
		want  string // file name, then ":line:col: message start"
		load  bool   // a load fault: nothing loads
	}{
		{"stem contains its key", map[string]string{"a.yaml": reviewQ("echo", "The rule refused it; the answer is a business error. Which?", "B",
			"a transient error", "a business error", "a validation error", "a permission error")},
			"a.yaml:6:9: the stem of echo contains the text of its key B", false},
		{"near-duplicate options across questions", map[string]string{
			"a.yaml": reviewQ("first", "Which fits the first case?", "A", "the refund is refused by a rule", "the database timed out on the call", "the id was typed wrongly", "the role lacks the scope"),
			"b.yaml": reviewQ("second", "Which fits the second case?", "C", "the refund was refused by a rule", "the database timed out on this call", "a role lacks the scope", "a sunny day in June")},
			"b.yaml:8:5: the options of second overlap those of first", false},
		{"a letter in more than half the multi-answer keys", map[string]string{"m.yaml": multi("[A]", "[A, B]", "[A, C, D]", "[A, B, C, D]", "[B]", "[C]", "[A, D]", "[B, C]")},
			"m.yaml:131:12: A is a key letter in 5 of the 8 multi-answer questions", false},
		{"a multi-answer key size missing", map[string]string{"m.yaml": multi("[A, B]", "[C, D]", "[A, C, D]", "[B, D]", "[A, B, C]", "[B, C]", "[A, D]", "[B, C, D]")},
			"m.yaml:150:12: no multi-answer key has 1 or 4 letters: with 8 multi-answer questions", false},
		{"no trap", map[string]string{"a.yaml": strings.Replace(sound, "  trap: a belief\n", "", 1)},
			"a.yaml:1:7: question sound names no trap", false},
		{"a blank trap", map[string]string{"a.yaml": strings.Replace(sound, "  trap: a belief\n", "  trap: \"  \"\n", 1)},
			"a.yaml:1:7: question sound names no trap", false},
		{"a trap that repeats the key", map[string]string{"a.yaml": strings.Replace(sound, "  trap: a belief\n", "  trap: Sound bravo two.\n", 1)},
			"a.yaml:5:9: the trap of sound repeats its key B", false},
		{"no difficulty", map[string]string{"a.yaml": strings.Replace(sound, "  difficulty: 2\n", "", 1)},
			"a.yaml:1:7: question sound has no difficulty: add difficulty: 1 (easy), 2 (medium) or 3", true},
		{"a difficulty out of range", map[string]string{"a.yaml": strings.Replace(sound, "  difficulty: 2\n", "  difficulty: 4\n", 1)},
			"a.yaml:3:15: difficulty 4 is out of range", true},
		{"a difficulty in words", map[string]string{"a.yaml": strings.Replace(sound, "  difficulty: 2\n", "  difficulty: hard\n", 1)},
			"a.yaml:3:15: difficulty has the wrong type", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, out := validateFiles(t, c.files)
			if want := filepath.Join(dir, c.want); !strings.Contains(out, want) {
				t.Fatalf("want %q in:\n%s", want, out)
			}
			_, err := LoadBankDir(dir, nil)
			if c.load && err == nil {
				t.Fatal("a file with a load fault was loaded")
			}
			if !c.load && err != nil {
				t.Fatalf("a design fault stopped loading: %v", err)
			}
			if !c.load && len(ReviewDir(dir)) == 0 {
				t.Fatal("ReviewDir (the --questions warning) found nothing")
			}
		})
	}
}
