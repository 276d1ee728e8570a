package ui

import (
	"strings"
	"testing"

	"github.com/errorlab/errorlab/ui/internal/uitest"
)

// Keys that arrive in one read (tmux send-keys, an SSH packet) come as
// one KeyMsg with several runes: every screen takes each of them, not
// only a screen that splits them itself.
func TestKeysThatArriveTogether(t *testing.T) {
	m, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t)}), uitest.Size120, uitest.Press("jjj"))
	if line := uitest.LineWith(m.View(), "▸"); !strings.Contains(line, "Practice & exam") {
		t.Fatalf("jjj in one message on Home: the cursor is on %q, want Practice & exam (three down)", line)
	}
	m, _ = uitest.Drive(m, uitest.Press("kk"))
	if line := uitest.LineWith(m.View(), "▸"); !strings.Contains(line, "Reference") {
		t.Fatalf("then kk: the cursor is on %q, want Reference", line)
	}
	// On the lab list, too.
	m, _ = uitest.Drive(m, uitest.Press("k"), uitest.Press("enter"), uitest.Press("jj"))
	lab := m.(*App).Top()
	if lab.Crumb() != "Lab" {
		t.Fatalf("enter on Lab opened %q", lab.Crumb())
	}
	first := uitest.LineWith(m.View(), "▸")
	m2, _ := uitest.Drive(New(Options{Catalog: uitest.Catalog(t)}), uitest.Size120, uitest.Press("enter"), uitest.Press("j"), uitest.Press("j"))
	if want := uitest.LineWith(m2.View(), "▸"); first != want {
		t.Errorf("jj in one message selects %q; j, j selects %q", first, want)
	}
}
