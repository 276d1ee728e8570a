package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/ui/common"
	"github.com/errorlab/errorlab/ui/pages/home"
)

// TestNoticeAfterLabAnswer: the progress file spoiled between two lab
// answers is kept aside by the store on the second; the status line says
// so (⚠), and where the whole notice is, once, ahead of the answer's
// own line, not again on the third answer.
func TestNoticeAfterLabAnswer(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := openTimeout(t, Options{Progress: store}, uitest.Press("enter"), uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "rogress file"); line != "" {
		t.Fatalf("a notice before anything was spoiled: %q", line)
	}
	uitest.SpoilProgress(t, dir)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()))
	if st := m.(*App).c.Status().Text; !strings.HasPrefix(st, "Progress file unreadable, a fresh one started · esc esc: Home shows where the old one is · ") {
		t.Errorf("the notice does not say where to read where the old file is: %q", st)
	}
	line := uitest.LineWith(m.View(), "Progress file ")
	if !strings.HasPrefix(line, "⚠ ") {
		t.Fatalf("no ⚠ notice after the spoiled write:\n%s", m.View())
	}
	m, _ = uitest.Drive(m, uitest.Press("2"))
	if line := uitest.LineWith(m.View(), "Progress file "); line != "" {
		t.Errorf("the same notice shows again: %q", line)
	}
	// The file kept aside is there.
	aside, _ := filepath.Glob(filepath.Join(dir, quiz.FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Errorf("kept aside: %v", aside)
	}
}

// TestNoticeWhileRunningWaitsOnHome: a progress file spoiled while the
// learner works is named in the status line, which the next key clears;
// the whole notice (where the old file is) then waits on Home until x.
func TestNoticeWhileRunningWaitsOnHome(t *testing.T) {
	dir := t.TempDir()
	store, err := quiz.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := openTimeout(t, Options{Progress: store}, uitest.Press("enter"), uitest.Press("2"))
	uitest.SpoilProgress(t, dir)
	m, _ = uitest.Drive(m, uitest.Press(uitest.RetryKey()), uitest.Press("esc"), uitest.Press("esc"))
	aside, _ := filepath.Glob(filepath.Join(dir, quiz.FileName+".corrupt-*"))
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	if _, ok := m.(*App).Top().(*home.Model); !ok {
		t.Fatalf("not on Home: %T", m.(*App).Top())
	}
	v := m.View()
	if !strings.Contains(uitest.Flat(v), uitest.Flat(aside[0])) || !strings.Contains(v, "x dismisses this notice") {
		t.Fatalf("Home does not keep the notice:\n%s", v)
	}
	m, _ = uitest.Drive(m, uitest.Press("down"), uitest.Press("x"))
	if v := m.View(); strings.Contains(v, "kept, unchanged") {
		t.Errorf("x did not dismiss the notice:\n%s", v)
	}
}

// TestStyleIDsReadAsLabels: feedback written with a style id reads with
// its label, on the scenario screen and in the agents' titles.
func TestStyleIDsReadAsLabels(t *testing.T) {
	if got := common.StyleWords("In the error_as_success style the flag is missing; raw_exception too. empty_successes stay."); got != "In the error as success style the flag is missing; raw exception too. empty_successes stay." {
		t.Errorf("styleWords: %q", got)
	}
	m := openAt(t, uitest.PermAsSuccessID, uitest.Size120, uitest.Press("enter"), uitest.Press(uitest.KeyOf(rules.RetrySame)))
	v := lowerView(t, m)
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "In the error as success style") {
		t.Errorf("the feedback does not use the label:\n%s", v)
	}
	for _, id := range []string{"error_as_success", "raw_exception", "structured_only", "empty_success", "protocol_error"} {
		if strings.Contains(v, id) {
			t.Errorf("the verdict shows the raw id %s:\n%s", id, v)
		}
	}
	m, _ = uitest.Drive(New(Options{Catalog: uitest.Catalog(t), ScenarioID: uitest.PermAsSuccessID}), uitest.Size120, uitest.Press("a"), uitest.Press("G"))
	view := m.View()
	if strings.Contains(view, "error_as_success") || !strings.Contains(view, "meets error as success") {
		t.Errorf("the agents screen shows a raw style id:\n%s", view)
	}
}
