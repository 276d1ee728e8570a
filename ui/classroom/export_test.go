package classroom

import tea "github.com/charmbracelet/bubbletea"

// What the tests set on a server before it serves.

// SetBeforeProgram runs f with a session's name before its app is built
// (a panic there reaches wish's recover middleware).
func SetBeforeProgram(s *Server, f func(name string)) { s.beforeProgram = f }

// SetWrapModel wraps every session's app model (a test model that
// panics on a key, say).
func SetWrapModel(s *Server, f func(name string, m tea.Model) tea.Model) { s.wrapModel = f }
